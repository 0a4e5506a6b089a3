package io.recrawl.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.sim.workload.ChangeHistory;
import io.recrawl.sim.workload.Workload;
import io.recrawl.sim.workload.WorkloadWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A live web that serves a real history: its pages change exactly at the history's times. */
class LiveWebHistoryTest {

  @TempDir Path dir;

  @Test
  void theWebServesTheHistorysChangeTimesInCompressedTime() throws Exception {
    Workload w =
        new Workload(
            new String[] {"https://docs.example/a", "https://docs.example/b"},
            new int[] {0, 0},
            new double[] {1, 2},
            new double[] {0.5, 0.1},
            new String[] {"docs.example"},
            new double[] {Double.POSITIVE_INFINITY},
            new ChangeHistory(new double[][] {{0.5, 1.25, 40.0}, {2.0}}));
    WorkloadWriter.write(w, dir);
    LiveWebOptions o = new LiveWebOptions();
    o.history = dir;
    o.secondsPerDay = 20;
    o.durationSeconds = 600; // 30 days of the history
    LiveWeb web = LiveWeb.generate(o);

    assertThat(web.workload().pages()).isEqualTo(2);
    assertThat(web.workload().weight(1)).isEqualTo(2.0);
    // Days 0.5 and 1.25 are 10 s and 25 s into the run; day 40 is after its end.
    assertThat(web.version(0, 9_999)).isZero();
    assertThat(web.version(0, 10_000)).isEqualTo(1);
    assertThat(web.version(0, 25_000)).isEqualTo(2);
    assertThat(web.version(0, 600_000)).isEqualTo(2);
    assertThat(web.version(1, 40_000)).isEqualTo(1);
    assertThat(web.workload().history()).isNotNull();
  }

  @Test
  void aWorkloadWithoutAHistoryIsRefused() throws Exception {
    WorkloadWriter.write(
        new Workload(
            new String[] {"https://docs.example/a"},
            new int[] {0},
            new double[] {1},
            new double[] {0.5},
            new String[] {"docs.example"},
            new double[] {Double.POSITIVE_INFINITY}),
        dir);
    LiveWebOptions o = new LiveWebOptions();
    o.history = dir;
    assertThatThrownBy(() -> LiveWeb.generate(o))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has no changes.csv");
  }
}
