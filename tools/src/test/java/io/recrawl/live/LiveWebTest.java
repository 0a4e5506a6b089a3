package io.recrawl.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.sim.workload.Workload;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiveWebTest {

  @TempDir Path dir;

  static LiveWebOptions small(long seed) {
    LiveWebOptions o = new LiveWebOptions();
    o.workload.pages = 300;
    o.workload.hosts = 20;
    o.workload.seed = seed;
    o.secondsPerDay = 2;
    o.durationSeconds = 600;
    return o;
  }

  @Test
  void theSameSeedDrawsTheSameWebAndAnotherSeedAnother() throws Exception {
    LiveWeb.generate(small(1)).writeGroundTruth(dir.resolve("a"));
    LiveWeb.generate(small(1)).writeGroundTruth(dir.resolve("b"));
    LiveWeb.generate(small(2)).writeGroundTruth(dir.resolve("c"));
    for (String f : new String[] {"pages.csv", "hosts.csv", "spells.csv", "web.csv"}) {
      assertThat(Files.readString(dir.resolve("a").resolve(f)))
          .isEqualTo(Files.readString(dir.resolve("b").resolve(f)));
    }
    assertThat(Files.readString(dir.resolve("a/pages.csv")))
        .isNotEqualTo(Files.readString(dir.resolve("c/pages.csv")));
  }

  @Test
  void pagesChangeAtTheirRatesInCompressedTime() {
    LiveWebOptions o = small(3);
    LiveWeb web = LiveWeb.generate(o);
    Workload w = web.workload();
    double expected = 0;
    long changes = 0;
    long end = Math.round(o.durationSeconds * 1000);
    for (int p = 0; p < w.pages(); p++) {
      expected += w.changeRate(p) * o.durationSeconds / o.secondsPerDay;
      changes += web.version(p, end);
      assertThat(web.version(p, -1)).isZero();
    }
    // A Poisson total: within five standard deviations of its mean.
    assertThat((double) changes)
        .isCloseTo(expected, org.assertj.core.data.Offset.offset(5 * Math.sqrt(expected)));
  }

  @Test
  void limitedHostsSetACrawlDelayAndTheWorkloadCarriesEveryHostsCapacity() {
    LiveWebOptions o = small(4);
    o.secondsPerDay = 20;
    o.slowShare = 0.25;
    o.slowMillis = 2000;
    LiveWeb web = LiveWeb.generate(o);
    int delayed = 0;
    int slow = 0;
    for (int h = 0; h < web.workload().hosts(); h++) {
      LiveHost host = web.host(h);
      if (host.crawlDelaySeconds() > 0) {
        delayed++;
        assertThat(host.crawlDelaySeconds()).isBetween(2, 30);
        assertThat(host.limitMillis()).isEqualTo(host.crawlDelaySeconds() * 1000L);
      } else {
        assertThat(host.limitMillis()).isEqualTo(1000);
      }
      // the delay runs from the end of each answer: a slow host's capacity is limit + answer time
      slow += host.slowMillis() > 0 ? 1 : 0;
      assertThat(web.workload().hostMaxRate(h))
          .isEqualTo(o.secondsPerDay * 1000.0 / (host.limitMillis() + host.slowMillis()));
    }
    assertThat(slow).isPositive();
    assertThat(delayed).isEqualTo(Math.round(o.crawlDelayShare * o.workload.hosts));
  }

  @Test
  void seedLinesCarryEveryPageWithItsWeight() {
    LiveWeb web = LiveWeb.generate(small(5));
    assertThat(web.seedLines(8080)).hasSize(300);
    assertThat(web.seedLines(8080).get(0))
        .matches("http://h0\\.web\\.test:8080/p0\trecrawl.weight=[0-9.E-]+");
  }

  @Test
  void aBadOptionIsRefusedNamingItsFlag() {
    LiveWebOptions o = small(1);
    o.pushyShare = 1.5;
    assertThatThrownBy(() -> LiveWeb.generate(o)).hasMessageContaining("--pushy-share");
  }
}
