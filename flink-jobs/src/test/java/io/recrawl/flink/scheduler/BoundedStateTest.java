package io.recrawl.flink.scheduler;

import static io.recrawl.flink.scheduler.SchedulerHarness.DAY;
import static io.recrawl.flink.scheduler.SchedulerHarness.HOUR;
import static io.recrawl.flink.scheduler.SchedulerHarness.MIN;
import static io.recrawl.flink.scheduler.SchedulerHarness.T0;
import static io.recrawl.flink.scheduler.SchedulerHarness.settings;
import static io.recrawl.wire.CrawlStatus.DISCOVERED;
import static io.recrawl.wire.CrawlStatus.ERROR;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.engine.EngineOutcome;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.DeadLetter;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.junit.jupiter.api.Test;

/**
 * The state limits on the operator (RocksDB harness): what each refuses goes to the dead letters
 * with its reason, each has its metric, and state and timers return to zero once ERROR pages are
 * purged.
 */
class BoundedStateTest {

  private static String url(int i) {
    return "https://a.example/p" + i;
  }

  @Test
  void pagesPastHostMaxPagesAreDeadLettersWithTheirReason() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings("host.max-pages", 2))) {
      for (int i = 0; i < 4; i++) {
        s.status(url(i), DISCOVERED, T0);
      }
      assertThat(s.fn.metrics().urls).isEqualTo(2);
      assertThat(s.deadLetters())
          .hasSize(2)
          .allSatisfy(
              d -> {
                assertThat(d.reason()).isEqualTo(EngineOutcome.HOST_FULL);
                assertThat(d.detail()).contains("recrawl.engine.host.max-pages = 2");
                assertThat(d.raw()).contains("https://a.example/p");
              });
      assertThat(s.fn.metrics().deadLetterCount(EngineOutcome.HOST_FULL)).isEqualTo(2);
    }
  }

  @Test
  void errorPagesArePurgedAndStateAndTimersReturnToZero() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings("error.purge-after", "2 d"))) {
      s.status(url(0), DISCOVERED, T0);
      s.status(url(1), DISCOVERED, T0);
      s.advance(T0 + MIN);
      assertThat(s.newRequests()).hasSize(2);
      s.status(url(0), ERROR, T0 + 2 * MIN);
      s.status(url(1), ERROR, T0 + 2 * MIN);
      // A checkpoint and a restore in between: the purge clock is state.
      OperatorSubtaskState snapshot = s.snapshot();
      try (SchedulerHarness r =
          new SchedulerHarness(settings("error.purge-after", "2 d"), snapshot)) {
        r.advance(T0 + DAY);
        assertThat(r.keyedStateEntriesNow()).isPositive();
        r.advance(T0 + 2 * DAY + HOUR);
        assertThat(r.newRequests()).isEmpty();
        assertThat(r.fn.metrics().pagesRemoved.getCount()).isEqualTo(2);
        r.keyedStateEntries(); // writes the host records back
        for (String state : new String[] {"host", "pages", "slots", "leases"}) {
          assertThat(r.keysIn(state)).as(state).isZero();
        }
        assertThat(r.timers()).isZero();
      }
    }
  }

  @Test
  void theHostRateTableHoldsAtMostHostRatesMaxAcrossARestore() throws Exception {
    OperatorSubtaskState snapshot;
    try (SchedulerHarness s = new SchedulerHarness(settings("host-rates.max", 2))) {
      s.control(ControlMessage.hostRate(T0, "a.example", 100));
      s.control(ControlMessage.hostRate(T0, "b.example", 100));
      s.control(ControlMessage.hostRate(T0, "c.example", 100));
      assertThat(s.deadLetters())
          .singleElement()
          .extracting(DeadLetter::reason)
          .isEqualTo(EngineOutcome.RATE_TABLE_FULL);
      assertThat(s.fn.metrics().hostRateOverrides).isEqualTo(2);
      snapshot = s.snapshot();
    }
    try (SchedulerHarness r = new SchedulerHarness(settings("host-rates.max", 2), snapshot)) {
      // The count is rebuilt from the restored table: still full.
      r.control(ControlMessage.hostRate(T0 + MIN, "d.example", 100));
      assertThat(r.deadLetters()).hasSize(1);
      r.control(ControlMessage.hostRate(T0 + MIN, "a.example", 0));
      r.control(ControlMessage.hostRate(T0 + MIN, "d.example", 100));
      assertThat(r.deadLetters()).hasSize(1);
      assertThat(r.fn.metrics().hostRateOverrides).isEqualTo(2);
    }
  }
}
