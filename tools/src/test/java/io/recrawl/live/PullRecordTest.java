package io.recrawl.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PullRecordTest {

  @TempDir Path dir;

  /** A time of day in this JVM's zone, as the service's log writes it. */
  private static long epochMillis(LocalDateTime t) {
    return t.atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
  }

  private static String line(String time, long taken, long waiting, double budget) {
    return time
        + " INFO  PullPricing: pull: 10 calls, 0 left URLs ready, "
        + taken
        + " taken, 0 queues ready, 3 takeable, "
        + waiting
        + " waiting: budget "
        + budget
        + " a second";
  }

  /**
   * The service's lines become periods timed from the start (one before it is dropped, and a run
   * across midnight keeps counting), and the follow times are read off them.
   */
  @Test
  void readsThePeriodsAndHowTheBudgetFollowedTheSpell() throws Exception {
    long t0 = epochMillis(LocalDateTime.of(2026, 12, 7, 23, 59, 30));
    Path log =
        Files.write(
            dir.resolve("service.log"),
            List.of(
                line("23:59:20", 0, 0, 1.0), // before the start
                "23:59:25 INFO  FrontierServer: serving",
                line("23:59:40", 50, 3, 5.0),
                line("23:59:50", 50, 4, 5.0),
                line("00:00:00", 30, 12, 3.1), // the spell began at 20 s
                line("00:00:10", 25, 2, 2.5), // it ended at 40 s
                line("00:00:20", 40, 1, 3.2),
                line("00:00:30", 50, 2, 4.1)));
    PullRecord r = PullRecord.read(log, t0, 5, new double[] {20, 40});
    assertThat(r.seconds()).containsExactly(10, 20, 30, 40, 50, 60);
    assertThat(r.secondsToFollowTheHalving()).isEqualTo(10); // 3.1 at 30 s, within 1.25 x 2.5
    assertThat(r.secondsToFollowTheDoubling()).isEqualTo(20); // 4.1 at 60 s, within 5 / 1.25
    assertThat(r.mostWaiting(35)).isEqualTo(2);
    assertThat(r.mostWaiting(0)).isEqualTo(12);
    assertThat(r.takenPerSecond()[1]).isEqualTo(5);
    assertThat(r.capacityAt(25)).isEqualTo(2.5);
  }

  @Test
  void aBudgetThatNeverFollowsIsSaidSo() throws Exception {
    long t0 = epochMillis(LocalDateTime.of(2026, 12, 7, 10, 0, 0));
    Path log =
        Files.write(
            dir.resolve("service.log"),
            List.of(line("10:00:10", 50, 0, 5.0), line("10:00:20", 50, 0, 5.0)));
    PullRecord r = PullRecord.read(log, t0, 5, new double[] {5, 15});
    assertThat(r.secondsToFollowTheHalving()).isNaN();
    assertThat(r.secondsToFollowTheDoubling()).isEqualTo(5);
  }
}
