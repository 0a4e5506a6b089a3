package io.recrawl.sim.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.sim.workload.Workload;
import org.junit.jupiter.api.Test;

class UrlIndexTest {

  @Test
  void findsEveryPageByItsUrlEvenWhenHashesCollide() {
    // "Aa" and "BB" share a String hash code, as do "AaAa", "AaBB", "BBAa" and "BBBB".
    String[] urls = {"Aa", "BB", "AaAa", "AaBB", "BBAa", "BBBB", "http://h/1", "http://h/2"};
    int n = urls.length;
    Workload w =
        new Workload(
            urls, new int[n], filled(n, 1), filled(n, 0.1), new String[] {"h"}, new double[] {1});
    UrlIndex index = new UrlIndex(w);
    for (int p = 0; p < n; p++) {
      assertThat(index.page(urls[p])).isEqualTo(p);
      assertThat(index.page(new String(urls[p]))).isEqualTo(p); // equal, not the same instance
    }
    assertThat(index.page("CC")).isEqualTo(-1);
    assertThat(index.page("http://h/3")).isEqualTo(-1);
  }

  private static double[] filled(int n, double v) {
    double[] a = new double[n];
    java.util.Arrays.fill(a, v);
    return a;
  }
}
