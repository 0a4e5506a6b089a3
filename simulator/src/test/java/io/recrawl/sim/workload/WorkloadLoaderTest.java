package io.recrawl.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadLoaderTest {

  @TempDir Path dir;

  private void pages(String... lines) throws Exception {
    Files.writeString(dir.resolve("pages.csv"), String.join("\n", lines) + "\n");
  }

  private void hosts(String... lines) throws Exception {
    Files.writeString(dir.resolve("hosts.csv"), String.join("\n", lines) + "\n");
  }

  @Test
  void loadsPagesHostsAndDefaults() throws Exception {
    pages(
        "url,host,weight,change_rate",
        "https://a.example/1,a.example,2.5,0.1",
        "\"https://b.example/x,y\",b.example,1,0",
        "https://a.example/2,a.example,0.5,3");
    hosts("host,max_rate", "a.example,4");
    Workload w = new WorkloadLoader(Double.POSITIVE_INFINITY).load(dir);
    assertThat(w.pages()).isEqualTo(3);
    assertThat(w.hosts()).isEqualTo(2);
    assertThat(w.url(1)).isEqualTo("https://b.example/x,y");
    assertThat(w.hostName(w.hostOf(0))).isEqualTo("a.example");
    assertThat(w.hostOf(2)).isEqualTo(w.hostOf(0));
    assertThat(w.weight(0)).isEqualTo(2.5);
    assertThat(w.changeRate(2)).isEqualTo(3.0);
    assertThat(w.hostMaxRate(w.hostOf(0))).isEqualTo(4.0);
    assertThat(w.hostMaxRate(w.hostOf(1))).isEqualTo(Double.POSITIVE_INFINITY);

    Workload limited = new WorkloadLoader(7).load(dir);
    assertThat(limited.hostMaxRate(limited.hostOf(1))).isEqualTo(7.0);
  }

  @Test
  void hostsFileIsOptional() throws Exception {
    pages("url,host,weight,change_rate", "u1,h,1,1");
    assertThat(new WorkloadLoader(Double.POSITIVE_INFINITY).load(dir).constrainedHosts()).isZero();
  }

  @Test
  void reportsEveryBadRowWithFileAndLine() throws Exception {
    pages(
        "url,host,weight,change_rate",
        "u1,h,1,1",
        "u2,h,0,1",
        "u3,h,1,-2",
        "u4,h,abc,1",
        "u1,h,1,1",
        "u5,,1,1",
        "u6,h,1",
        "u7,h,1,NaN");
    hosts("host,max_rate", "h,0", "h2,5", "h2,6", "h3");
    assertThatThrownBy(() -> new WorkloadLoader(Double.POSITIVE_INFINITY).load(dir))
        .isInstanceOf(WorkloadException.class)
        .satisfies(
            e -> {
              String p = dir.resolve("pages.csv").toString();
              String h = dir.resolve("hosts.csv").toString();
              assertThat(((WorkloadException) e).problems())
                  .containsExactly(
                      h + ":2: max_rate must be a number > 0 (crawls per day), got '0'",
                      h + ":4: duplicate host h2",
                      h + ":5: expected 2 fields host,max_rate",
                      p + ":3: weight must be a finite number > 0, got '0'",
                      p + ":4: change_rate must be a finite number >= 0, got '-2'",
                      p + ":5: weight must be a finite number > 0, got 'abc'",
                      p + ":6: duplicate url u1",
                      p + ":7: empty host",
                      p + ":8: expected 4 fields url,host,weight,change_rate",
                      p + ":9: change_rate must be a finite number >= 0, got 'NaN'");
            });
  }

  @Test
  void rejectsAWrongHeaderAndAMissingFile() throws Exception {
    assertThatThrownBy(() -> new WorkloadLoader(1).load(dir))
        .hasMessageContaining("pages.csv: missing");
    pages("url,weight,host,change_rate", "u,1,h,1");
    assertThatThrownBy(() -> new WorkloadLoader(1).load(dir))
        .hasMessageContaining("pages.csv:1: header must be 'url,host,weight,change_rate'");
  }

  @Test
  void writerAndLoaderRoundTrip() throws Exception {
    WorkloadGenerator.Options o = new WorkloadGenerator.Options();
    o.pages = 500;
    o.hosts = 20;
    Workload w = WorkloadGenerator.generate(o);
    WorkloadWriter.write(w, dir);
    Workload back = new WorkloadLoader(Double.POSITIVE_INFINITY).load(dir);
    assertThat(back.pages()).isEqualTo(w.pages());
    assertThat(back.constrainedHosts()).isEqualTo(w.constrainedHosts());
    for (int p = 0; p < w.pages(); p++) {
      assertThat(back.url(p)).isEqualTo(w.url(p));
      assertThat(back.weight(p)).isEqualTo(w.weight(p));
      assertThat(back.changeRate(p)).isEqualTo(w.changeRate(p));
      assertThat(back.hostMaxRate(back.hostOf(p))).isEqualTo(w.hostMaxRate(w.hostOf(p)));
    }
  }
}
