package io.recrawl.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiveSuiteTest {

  private static LiveFigures figures(String system, double fresh, double light, long fetches) {
    return new LiveFigures(
        system, fresh, light, fetches, fetches, 0, 1.0, 0, 0, 0, 0, new double[0], new double[0]);
  }

  /** A web of 100 s with a 20 s warm-up and a budget of 1 fetch a second: 80 fetches = 100 %. */
  private static LiveSuite.Web web(String name, double[] recrawl, double[] other, double sim) {
    LiveBench.Options o = new LiveBench.Options();
    o.web.durationSeconds = 100;
    o.warmupSeconds = 20;
    o.budget = 1;
    Map<String, LiveFigures> f = new LinkedHashMap<>();
    f.put(LiveSystems.RECRAWL, figures(LiveSystems.RECRAWL, recrawl[0], recrawl[1], 76));
    f.put(LiveSystems.DEFAULT, figures(LiveSystems.DEFAULT, other[0], other[1], 60));
    return new LiveSuite.Web(name, o, new LiveBench.Result(f, 0.7, Map.of("crawl-value", sim)));
  }

  @Test
  void marginsAreRecrawlsFreshnessMinusEachSystemsMeanAndWorstOverTheWebs() {
    String t =
        LiveSuite.table(
            List.of(
                web("a", new double[] {0.60, 0.50}, new double[] {0.50, 0.45}, 0.64),
                web("b", new double[] {0.55, 0.52}, new double[] {0.57, 0.50}, 0.58)));
    // margins +0.10 and -0.02: mean +0.04, worst -0.02; without the heaviest: +0.05, +0.02
    assertThat(t).contains("| default | +0.0400 | -0.0200 | +0.0350 | +0.0200 | 75 % |");
    assertThat(t).contains("| recrawl | – | – | – | – | 95 % |");
    // 0.60 / 0.64 and 0.55 / 0.58
    assertThat(t).contains("mean 0.943, worst 0.938 over 2 webs");
    assertThat(t).contains("| a | default | 0.5000 | 0.4500 | 75 % | 0 | 0 | – |");
  }
}
