package io.recrawl.flink.scheduler;

import static io.recrawl.flink.scheduler.SchedulerHarness.HOUR;
import static io.recrawl.flink.scheduler.SchedulerHarness.MIN;
import static io.recrawl.flink.scheduler.SchedulerHarness.T0;
import static io.recrawl.flink.scheduler.SchedulerHarness.settings;
import static io.recrawl.wire.CrawlStatus.DISCOVERED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.DeadLetter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.junit.jupiter.api.Test;

/**
 * The operator's side of "time and restore": the end of time and drained savepoints,
 * control-message epochs, and calls that fail after the engine released a page.
 */
class TimeAndRestoreTest {

  private static final List<String> URLS = new ArrayList<>();

  static {
    for (String host : List.of("a.example", "b.example", "c.example")) {
      for (int i = 0; i < 3; i++) {
        URLS.add("https://" + host + "/" + i);
      }
    }
  }

  /** Every page discovered and released, then the final watermark of a drain; its savepoint. */
  private static OperatorSubtaskState drained(boolean ours) throws Exception {
    try (SchedulerHarness s =
        new SchedulerHarness(new HostSchedulerFunction(Map.of(), 0.0, false), null, ours)) {
      for (String url : URLS) {
        s.status(url, DISCOVERED, T0);
      }
      s.advance(T0 + MIN);
      assertThat(s.newRequests()).extracting(CrawlRequest::url).hasSameElementsAs(URLS);
      s.advance(Long.MAX_VALUE); // flink stop --drain
      assertThat(s.newRequests()).as("the end of time releases nothing").isEmpty();
      return s.snapshot();
    }
  }

  /** After a restore, event time moves on; every lease runs out and its page goes again. */
  private static void everyHostWakesAfterRestore(OperatorSubtaskState savepoint) throws Exception {
    try (SchedulerHarness r = new SchedulerHarness(settings(), savepoint)) {
      assertThat(r.timers()).as("one wake-up timer per host").isEqualTo(3);
      r.advance(T0 + 12 * HOUR);
      assertThat(r.newRequests().stream().map(CrawlRequest::url).distinct())
          .hasSameElementsAs(URLS);
    }
  }

  @Test
  void drainedSavepointWakesEveryHost() throws Exception {
    everyHostWakesAfterRestore(drained(true));
  }

  @Test
  void aSavepointDrainedByAnOlderVersionWakesEveryHostAfterRestore() throws Exception {
    // Flink's plain operator, as the job ran before: the final watermark used up every timer.
    everyHostWakesAfterRestore(drained(false));
  }

  @Test
  void catchUpAfterDowntimeSendsEachUrlOnceAndKeepsPacing() throws Exception {
    try (SchedulerHarness s =
        new SchedulerHarness(settings("host.max-rate", 1440, "lease", "1 h"))) {
      for (String url : URLS) {
        s.status(url, DISCOVERED, T0);
      }
      s.advance(T0 + MIN);
      s.newRequests();
      // Six hours without a status or a tick, then one watermark: hours of wake-ups at once.
      s.advance(T0 + 6 * HOUR);
      List<CrawlRequest> out = s.newRequests();
      assertThat(out).isNotEmpty();
      assertThat(out.stream().map(CrawlRequest::url).distinct().count()).isEqualTo(out.size());
      Map<String, Long> last = new java.util.HashMap<>();
      for (CrawlRequest r : out) {
        Long previous = last.put(r.host(), r.time());
        if (previous != null) {
          assertThat(r.time() - previous).isGreaterThanOrEqualTo(MIN);
        }
      }
      // At least half of each lease is left after the catch-up: no advance within it sends a URL
      // again ...
      for (long t = T0 + 6 * HOUR + MIN; t < T0 + 6 * HOUR + 30 * MIN; t += MIN) {
        s.advance(t);
      }
      assertThat(s.newRequests()).isEmpty();
      // ... and once the leases are over, the unanswered go again.
      s.advance(T0 + 8 * HOUR + MIN);
      assertThat(s.newRequests()).isNotEmpty();
    }
  }

  @Test
  void aRestoreAfterADowntimeOfSeveralLeasesSendsNoUrlAgainWithinHalfALease() throws Exception {
    // One request a minute per host, 1 min leases, every page recrawled within 3 min.
    Map<String, Object> cfg =
        settings(
            "host.max-rate",
            1440,
            "lease",
            "1 min",
            "revisit.min-interval",
            "1 min",
            "revisit.max-interval",
            "3 min");
    OperatorSubtaskState savepoint;
    try (SchedulerHarness s = new SchedulerHarness(cfg)) {
      for (String url : URLS) {
        s.status(url, DISCOVERED, T0);
      }
      // A crawler that answers every request within a second, for five minutes.
      java.util.Set<String> fetched = new java.util.HashSet<>();
      for (long t = T0; t <= T0 + 5 * MIN; t += 10_000) {
        s.advance(t);
        for (CrawlRequest r : s.newRequests()) {
          s.status(
              SchedulerHarness.event(
                  r.url(), io.recrawl.wire.CrawlStatus.FETCHED, t + 1_000, true));
          fetched.add(r.url());
        }
      }
      assertThat(fetched).hasSameElementsAs(URLS);
      assertThat(s.fn.metrics().leaseExpiries.getCount()).isZero();
      savepoint = s.snapshot();
    }
    try (SchedulerHarness r = new SchedulerHarness(cfg, savepoint)) {
      // Down for five leases, in which every page fell due: the first watermark covers it all.
      long back = T0 + 10 * MIN;
      r.advance(back);
      List<String> caughtUp = r.newRequests().stream().map(CrawlRequest::url).toList();
      assertThat(caughtUp).isNotEmpty();
      // The crawler works through them; the watermark moves a second at a time, no answer yet.
      for (long t = back + 1000; t < back + MIN / 2; t += 1000) {
        r.advance(t);
      }
      assertThat(r.newRequests())
          .extracting(CrawlRequest::url)
          .doesNotContainAnyElementsOf(caughtUp);
    }
  }

  @Test
  void aDaysDowntimeIsCaughtUpInStepsOfBoundedWorkBetweenWhichRecordsAndCheckpointsGoOn()
      throws Exception {
    OperatorSubtaskState savepoint;
    int hosts = 300; // each host's first wake-up reads its 100 due pages: more than one step's work
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      for (int h = 0; h < hosts; h++) {
        for (int i = 0; i < 100; i++) {
          s.status("http://h" + h + ".example/" + i, DISCOVERED, T0);
        }
      }
      s.advance(T0 + 1_000);
      savepoint = s.snapshot();
    }
    try (SchedulerHarness r = new SchedulerHarness(settings(), savepoint)) {
      r.runCallbacks = false;
      r.advance(T0 + 24 * HOUR); // the first watermark after a day down
      assertThat(r.outputWatermark()).as("a first step only").isLessThan(T0 + 24 * HOUR);
      r.status("http://h0.example/new", DISCOVERED, T0 + 24 * HOUR); // records go on meanwhile
      r.snapshot(); // and checkpoints
      List<CrawlRequest> all = new ArrayList<>(r.newRequests());
      assertThat(all.size())
          .as("wake-ups due together beyond a step's work wait")
          .isLessThan(hosts);
      int steps = 1;
      int most = all.size();
      while (r.nextCallback()) {
        List<CrawlRequest> step = r.newRequests();
        all.addAll(step);
        most = Math.max(most, step.size());
        steps++;
      }
      assertThat(r.outputWatermark()).isEqualTo(T0 + 24 * HOUR);
      assertThat(steps).isGreaterThan(3);
      assertThat(most).isLessThanOrEqualTo((int) CatchUp.WORK_PER_STEP);
      // One advance however many steps: every URL at most once, each host's pacing kept.
      assertThat(all.stream().map(CrawlRequest::url).distinct().count()).isEqualTo(all.size());
      assertThat(all.size()).isGreaterThan(hosts * 90);
      io.recrawl.flink.testutil.CrawlRequests.assertSpacedPerHost(all, 1_000);
    }
  }

  @Test
  void aHostRateOutsideTheBoundsIsADeadLetter() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      s.control(ControlMessage.hostRate(T0, "a.example", 1e-12));
      s.control(ControlMessage.hostRate(T0, "b.example", 1e12));
      s.control(ControlMessage.hostRate(T0, "c.example", 24));
      assertThat(s.deadLetters())
          .extracting(DeadLetter::reason)
          .containsExactly(SchedulerOutputs.BAD_CONTROL, SchedulerOutputs.BAD_CONTROL);
      assertThat(s.deadLetters().get(0).detail()).contains("recrawl.engine.host.min-rate");
      var rates = s.h.getBroadcastState(SchedulerState.hostRatesDescriptor());
      assertThat(rates.contains("a.example") || rates.contains("b.example")).isFalse();
      assertThat(rates.get("c.example")).isEqualTo(24.0);
    }
  }

  @Test
  void aHostThatPushesBackIsCountedAndBlockedOnTheOutput() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings("host.max-rate", 1440))) {
      for (String url : URLS) {
        s.status(url, DISCOVERED, T0);
      }
      s.advance(T0 + MIN);
      List<CrawlRequest> first = s.newRequests();
      CrawlRequest a = first.stream().filter(r -> r.host().equals("a.example")).findFirst().get();
      s.status(
          new io.recrawl.wire.StatusEvent(
              a.url(),
              "a.example",
              io.recrawl.wire.CrawlStatus.FETCH_ERROR,
              T0 + 2 * MIN,
              Map.of("protocol.retry-after", List.of("3600")),
              null,
              null,
              429));
      assertThat(s.fn.metrics().hostsBlocked("429")).isEqualTo(1);
      for (long t = T0 + 3 * MIN; t <= T0 + 3 * HOUR; t += MIN) {
        s.advance(t);
      }
      for (CrawlRequest r : s.newRequests()) {
        if (r.host().equals("a.example")) {
          assertThat(r.time()).isGreaterThanOrEqualTo(T0 + 2 * MIN + HOUR);
        }
      }
    }
  }

  private static Double lambda0(SchedulerHarness s) throws Exception {
    return s.h
        .getBroadcastState(SchedulerState.globalDescriptor())
        .get(SchedulerState.GLOBAL_LAMBDA);
  }

  @Test
  void aLambdaWithAHugeEpochIsRefusedAndFreezesNothing() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      s.control(ControlMessage.lambda(T0, Long.MAX_VALUE / 2, 0.5));
      assertThat(s.deadLetters())
          .extracting(DeadLetter::reason)
          .containsExactly(SchedulerOutputs.BAD_CONTROL);
      s.control(ControlMessage.lambda(T0 + MIN, T0 + MIN, 0.2)); // the controller's next round
      assertThat(lambda0(s)).isEqualTo(0.2);
      s.control(ControlMessage.lambda(T0, T0, 0.9)); // a late message of an older round: stale
      assertThat(lambda0(s)).isEqualTo(0.2);
      s.control(ControlMessage.lambda(T0 + 2 * MIN, 3, 0.1)); // a counter's epoch (static: 0)
      assertThat(lambda0(s)).isEqualTo(0.2);
    }
  }

  @Test
  void aHugeEpochThatSurvivedARestoreIsReset() throws Exception {
    OperatorSubtaskState savepoint;
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      // As an older version kept it: any epoch was taken.
      s.h.getBroadcastState(SchedulerState.globalDescriptor()).put(SchedulerState.EPOCH, 9e15);
      s.h
          .getBroadcastState(SchedulerState.globalDescriptor())
          .put(SchedulerState.GLOBAL_LAMBDA, 0.5);
      savepoint = s.snapshot();
    }
    try (SchedulerHarness r = new SchedulerHarness(settings(), savepoint)) {
      assertThat(lambda0(r)).isEqualTo(0.5);
      r.control(ControlMessage.lambda(T0, T0, 0.2));
      assertThat(lambda0(r)).isEqualTo(0.2);
      r.control(ControlMessage.lambda(T0 - HOUR, T0 - HOUR, 0.9)); // stale again
      assertThat(lambda0(r)).isEqualTo(0.2);
    }
  }

  /** The scheduler with a failure after the engine, before the commit, when asked to. */
  static final class FailingScheduler extends HostSchedulerFunction {
    private static final long serialVersionUID = 1L;
    boolean fail;

    FailingScheduler(Map<String, ?> settings) {
      super(settings, 0.0, true);
    }

    @Override
    void beforeCommit(String host) {
      if (fail) {
        throw new IllegalStateException("failure after the engine's call");
      }
    }
  }

  @Test
  void aStatusCallRolledBackAfterARequestWentOutSendsNothing() throws Exception {
    FailingScheduler fn = new FailingScheduler(settings("lease", "1 d"));
    try (SchedulerHarness s = new SchedulerHarness(fn, null, true)) {
      s.control(ControlMessage.hostRate(T0, "a.example", 24)); // one an hour
      s.control(ControlMessage.lambda(T0, 1, 0.5));
      s.status("https://a.example/0", DISCOVERED, T0);
      s.advance(T0 + MIN);
      assertThat(s.newRequests()).hasSize(1);
      // The host is idle: a page discovered now goes out with the event, and then the call fails.
      fn.fail = true;
      s.status("https://a.example/1", DISCOVERED, T0 + 2 * HOUR);
      assertThat(s.deadLetters())
          .extracting(DeadLetter::reason)
          .containsExactly(SchedulerOutputs.REJECTED_BY_ENGINE);
      assertThat(s.newRequests()).as("rolled back: nothing went out").isEmpty();
      assertThat(s.decisions()).hasSize(1);
      assertThat(s.fn.metrics().requestsOut.getCount()).isEqualTo(1);
      // The same event again, without the failure: the page goes out, once.
      fn.fail = false;
      s.status("https://a.example/1", DISCOVERED, T0 + 2 * HOUR);
      assertThat(s.newRequests())
          .extracting(CrawlRequest::url)
          .containsExactly("https://a.example/1");
    }
  }

  @Test
  void aWakeUpRolledBackAfterARequestWentOutSendsNothing() throws Exception {
    FailingScheduler fn = new FailingScheduler(settings());
    try (SchedulerHarness s = new SchedulerHarness(fn, null, true)) {
      s.status("https://a.example/0", DISCOVERED, T0); // a new host's page goes at its wake-up
      fn.fail = true;
      assertThatThrownBy(() -> s.advance(T0 + MIN)).hasMessageContaining("after the engine");
      assertThat(s.newRequests()).as("the job restarts; nothing was sent").isEmpty();
      assertThat(s.decisions()).isEmpty();
    }
  }
}
