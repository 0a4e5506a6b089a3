package io.recrawl.flink.scheduler;

import static io.recrawl.flink.scheduler.SchedulerHarness.DAY;
import static io.recrawl.flink.scheduler.SchedulerHarness.HOUR;
import static io.recrawl.flink.scheduler.SchedulerHarness.T0;
import static io.recrawl.flink.scheduler.SchedulerHarness.event;
import static io.recrawl.flink.scheduler.SchedulerHarness.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.engine.HostState;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Engine settings changed between a savepoint and its restore (see {@link StateSettings} and
 * docs/configuration.md): each key the restored state depends on is refused with a message naming
 * it, or adapted to; the others may change freely.
 */
class SettingsAcrossRestoreTest {

  private static final String HOST = "a.example";

  /** Pages fetched with evidence (demand curves, host prior sums) and a timer; its snapshot. */
  private static OperatorSubtaskState state(boolean ours) throws Exception {
    try (SchedulerHarness s =
        new SchedulerHarness(new HostSchedulerFunction(Map.of(), 0.0, false), null, ours)) {
      for (int i = 0; i < 20; i++) {
        String url = "https://" + HOST + "/p" + i;
        s.status(url, CrawlStatus.DISCOVERED, T0);
        s.status(event(url, CrawlStatus.FETCHED, T0 + HOUR, i % 2 == 0));
      }
      s.advance(T0 + HOUR);
      return s.snapshot();
    }
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "curve.min-threshold, 1e-5",
    "curve.max-threshold, 1e7",
    "curve.points-per-decade, 5",
    "objective, harmonic-staleness",
    "revisit.min-interval, 2 h",
    "revisit.max-interval, 30 d",
    "due.bucket, 5 min"
  })
  void aChangeTheStateCannotFollowIsRefusedNamingTheKey(String key, String value) throws Exception {
    OperatorSubtaskState saved = state(true);
    assertThatThrownBy(() -> new SchedulerHarness(settings(key, value), saved).close())
        .satisfies(
            t -> {
              assertThat(chain(t)).anyMatch(c -> c instanceof SuppressRestartsException);
              assertThat(messages(t)).contains("recrawl.engine." + key);
            });
  }

  @Test
  void anotherPartitionModeIsRefusedNamingTheKey() throws Exception {
    OperatorSubtaskState saved;
    try (SchedulerHarness s =
        new SchedulerHarness(
            new HostSchedulerFunction(Map.of(), 0.0, false).keyedBy("byHost"), null, true)) {
      s.status("https://" + HOST + "/p", CrawlStatus.DISCOVERED, T0);
      saved = s.snapshot();
    }
    HostSchedulerFunction byDomain = new HostSchedulerFunction(Map.of(), 0.0, false);
    assertThatThrownBy(
            () -> new SchedulerHarness(byDomain.keyedBy("byDomain"), saved, true).close())
        .satisfies(
            t -> {
              assertThat(chain(t)).anyMatch(c -> c instanceof SuppressRestartsException);
              assertThat(messages(t)).contains("recrawl.partition.mode was byHost");
            });
    // The same mode restores, and so does a caller that does not say (tests, older wiring).
    new SchedulerHarness(
            new HostSchedulerFunction(Map.of(), 0.0, false).keyedBy("byHost"), saved, true)
        .close();
    new SchedulerHarness(new HostSchedulerFunction(Map.of(), 0.0, false), saved, true).close();
  }

  @Test
  void aSavepointWithoutSettingsOnAnotherGridIsRefusedByItsCurves() throws Exception {
    OperatorSubtaskState saved = state(false); // Flink's plain operator keeps no settings
    assertThatThrownBy(
            () -> new SchedulerHarness(settings("curve.points-per-decade", 5), saved).close())
        .satisfies(t -> assertThat(messages(t)).contains("curve.points-per-decade"));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({"estimator.prior-rate, 2.0", "estimator.prior-shape, 3.0"})
  void otherPriorsForgetTheHostPriorSums(String key, String value) throws Exception {
    OperatorSubtaskState saved = state(true);
    try (SchedulerHarness s = new SchedulerHarness(settings(key, value), saved)) {
      HostState h = host(s);
      assertThat(h.learnedPages).isEqualTo(HostState.LEARNED_UNKNOWN);
      assertThat(h.learnedRateSum).isZero();
      runsOn(s);
    }
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "host.max-rate, 1000",
    "lease, 2 h",
    "timer.horizon, 3 d",
    "estimator.max-shape, 50",
    "estimator.expected-value, false",
    "revisit.min-interval, 60 min" // the same value, written otherwise
  })
  void otherKeysMayChange(String key, String value) throws Exception {
    OperatorSubtaskState saved = state(true);
    try (SchedulerHarness s = new SchedulerHarness(settings(key, value), saved)) {
      assertThat(host(s).learnedPages).isNotEqualTo(HostState.LEARNED_UNKNOWN);
      runsOn(s);
    }
  }

  /** The restored scheduler fires its timer and takes new status. */
  private static void runsOn(SchedulerHarness s) throws Exception {
    s.advance(T0 + 30 * DAY);
    assertThat(s.newRequests()).isNotEmpty();
    StatusEvent e = event("https://" + HOST + "/new", CrawlStatus.DISCOVERED, T0 + 30 * DAY);
    s.status(e);
    s.advance(T0 + 31 * DAY);
    assertThat(s.deadLetters()).isEmpty();
  }

  private static HostState host(SchedulerHarness s) throws Exception {
    AbstractStreamOperator<?> op = (AbstractStreamOperator<?>) s.h.getOperator();
    op.setCurrentKey(HOST);
    ValueState<HostState> state =
        op.getKeyedStateBackend()
            .getPartitionedState(
                VoidNamespace.INSTANCE,
                VoidNamespaceSerializer.INSTANCE,
                SchedulerState.hostDescriptor());
    return state.value();
  }

  private static List<Throwable> chain(Throwable t) {
    List<Throwable> out = new ArrayList<>();
    for (Throwable c = t; c != null && !out.contains(c); c = c.getCause()) {
      out.add(c);
    }
    return out;
  }

  private static String messages(Throwable t) {
    StringBuilder b = new StringBuilder();
    chain(t).forEach(c -> b.append(c.getMessage()).append('\n'));
    return b.toString();
  }
}
