package io.recrawl.flink.scheduler;

import static io.recrawl.flink.scheduler.SchedulerHarness.DAY;
import static io.recrawl.flink.scheduler.SchedulerHarness.HOUR;
import static io.recrawl.flink.scheduler.SchedulerHarness.MIN;
import static io.recrawl.flink.scheduler.SchedulerHarness.SEC;
import static io.recrawl.flink.scheduler.SchedulerHarness.T0;
import static io.recrawl.flink.scheduler.SchedulerHarness.event;
import static io.recrawl.flink.scheduler.SchedulerHarness.settings;
import static io.recrawl.wire.CrawlStatus.DISCOVERED;
import static io.recrawl.wire.CrawlStatus.ERROR;
import static io.recrawl.wire.CrawlStatus.FETCHED;
import static io.recrawl.wire.CrawlStatus.FETCH_ERROR;
import static io.recrawl.wire.CrawlStatus.REDIRECTION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.recrawl.flink.io.decisions.ReleaseDecision;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.DeadLetter;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.junit.jupiter.api.Test;

/**
 * The scheduler operator on RocksDB: status transitions, leases, thresholds, overrides, clean-up,
 * restore.
 */
class HostSchedulerFunctionTest {

  private static final String A = "https://a.example/page";

  @Test
  void aStatusDeliveredTwiceIsCountedAsStaleAndChangesNothing() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      s.status(event(A, FETCHED, T0, true));
      s.status(event(A, FETCHED, T0, true));
      assertThat(s.fn.metrics().staleStatuses.getCount()).isEqualTo(1);
      assertThat(s.fn.metrics().urls).isEqualTo(1);
    }
  }

  @Test
  void aCallThatFailsHalfWayLeavesTheLedgerAndTheLearnedPriorAsTheyWere() throws Exception {
    // The engine learns from the fetch and touches the host's demand, then its store fails; the
    // next call is another host's. Both must be as in a run that never saw the failed call.
    FailingFunction failing = new FailingFunction(settings());
    try (SchedulerHarness a = new SchedulerHarness(failing, null, true);
        SchedulerHarness b = new SchedulerHarness(settings())) {
      for (SchedulerHarness s : List.of(a, b)) {
        s.control(ControlMessage.tick(T0)); // the ledger is rebuilt at the first control message
        s.status(A, DISCOVERED, T0);
        s.advance(T0 + SEC);
        s.status(event(A, FETCHED, T0 + 2 * SEC, true));
        s.advance(T0 + DAY);
      }
      failing.failAt = 3;
      a.status(event(A, FETCHED, T0 + DAY, true));
      assertThat(failing.failed).isTrue();
      assertThat(a.deadLetters())
          .extracting(DeadLetter::reason)
          .containsExactly(SchedulerOutputs.REJECTED_BY_ENGINE);
      for (SchedulerHarness s : List.of(a, b)) {
        s.status("https://b.example/", DISCOVERED, T0 + DAY);
      }
      assertThat(a.fn.ledger().snapshot()).containsExactly(b.fn.ledger().snapshot());
      assertThat(a.fn.learnedPriorMass()).containsExactly(b.fn.learnedPriorMass());
    }
  }

  @Test
  void discoveredIsInsertIfAbsentAndReleasedOnce() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      s.status(A, DISCOVERED, T0);
      s.status(A, DISCOVERED, T0 + SEC);
      assertThat(s.newRequests()).isEmpty(); // nothing before event time reaches the wake-up
      s.advance(T0 + MIN);
      List<CrawlRequest> out = s.newRequests();
      assertThat(out).extracting(CrawlRequest::url).containsExactly(A);
      assertThat(out.get(0).host()).isEqualTo("a.example");
      assertThat(out.get(0).lease()).isEqualTo(out.get(0).time() + HOUR);
      assertThat(s.fn.metrics().duplicateDiscovered.getCount()).isEqualTo(1);
      assertThat(s.fn.metrics().urls).isEqualTo(1);
      assertThat(s.fn.metrics().hosts).isEqualTo(1);
      assertThat(s.timers()).isEqualTo(1); // the lease check: one timer per host
    }
  }

  @Test
  void fetchedSchedulesTheRevisitFromTheFetchTime() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings("revisit.min-interval", "1 h"))) {
      s.status(A, DISCOVERED, T0);
      s.advance(T0 + MIN);
      assertThat(s.newRequests()).hasSize(1);
      long fetch = T0 + 5 * MIN;
      s.status(event(A, FETCHED, fetch, true));
      // Unconstrained host, λ0 = 0: the threshold is 0 and the revisit bound (1 h) decides.
      s.advance(fetch + 59 * MIN);
      assertThat(s.newRequests()).isEmpty();
      s.advance(fetch + 62 * MIN);
      List<CrawlRequest> out = s.newRequests();
      assertThat(out).hasSize(1);
      assertThat(out.get(0).due()).isEqualTo(fetch + HOUR);
      assertThat(out.get(0).time()).isBetween(fetch + HOUR, fetch + HOUR + MIN);
    }
  }

  @Test
  void redirectionCountsAsAVisitWithoutContent() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings("revisit.min-interval", "2 h"))) {
      s.status(A, DISCOVERED, T0);
      s.advance(T0 + MIN);
      s.newRequests();
      long redirect = T0 + 3 * MIN;
      s.status(A, REDIRECTION, redirect);
      s.advance(redirect + 2 * HOUR - MIN);
      assertThat(s.newRequests()).isEmpty();
      s.advance(redirect + 2 * HOUR + 2 * MIN);
      assertThat(s.newRequests())
          .extracting(CrawlRequest::due)
          .containsExactly(redirect + 2 * HOUR);
    }
  }

  @Test
  void fetchErrorsBackOffThenBecomeError() throws Exception {
    try (SchedulerHarness s =
        new SchedulerHarness(
            settings(
                "fetch-error.backoff", "2 h", "fetch-error.max", "3", "timer.horizon", "12 h"))) {
      s.status(A, DISCOVERED, T0);
      s.advance(T0 + MIN);
      assertThat(s.newRequests()).hasSize(1);

      long e1 = T0 + 2 * MIN;
      s.status(A, FETCH_ERROR, e1);
      s.advance(e1 + 2 * HOUR - MIN);
      assertThat(s.newRequests()).isEmpty();
      s.advance(e1 + 2 * HOUR + MIN);
      assertThat(s.newRequests()).hasSize(1); // first retry after 2 h

      long e2 = e1 + 2 * HOUR + 2 * MIN;
      s.status(A, FETCH_ERROR, e2);
      s.advance(e2 + 4 * HOUR - MIN);
      assertThat(s.newRequests()).isEmpty(); // the back-off doubled
      s.advance(e2 + 4 * HOUR + MIN);
      assertThat(s.newRequests()).hasSize(1);

      long e3 = e2 + 4 * HOUR + 2 * MIN;
      s.status(A, FETCH_ERROR, e3); // the third error: ERROR, no more requests
      s.advance(e3 + 29 * DAY);
      assertThat(s.newRequests()).isEmpty();
      assertThat(s.fn.metrics().urls).isEqualTo(1); // kept (error.remove is false) ...
      s.advance(e3 + 31 * DAY);
      assertThat(s.newRequests()).isEmpty();
      assertThat(s.fn.metrics().urls).isZero(); // ... until error.purge-after (30 d)
      assertThat(s.fn.metrics().hosts).isZero();
      assertThat(s.timers()).isZero();
    }
  }

  @Test
  void errorStopsScheduling() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      s.status(A, DISCOVERED, T0);
      s.status("https://a.example/other", DISCOVERED, T0);
      s.advance(T0 + MIN);
      assertThat(s.newRequests()).hasSize(2);
      s.status(A, ERROR, T0 + 2 * MIN);
      s.status(event("https://a.example/other", FETCHED, T0 + 2 * MIN, true));
      s.advance(T0 + 10 * DAY);
      // Only the healthy page comes back (every revisit interval); the ERROR page never does.
      assertThat(s.newRequests())
          .extracting(CrawlRequest::url)
          .isNotEmpty()
          .containsOnly("https://a.example/other");
    }
  }

  @Test
  void expiredLeaseReleasesAgainButNeverTwiceInFlight() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings("lease", "1 h"))) {
      s.status(A, DISCOVERED, T0);
      s.advance(T0 + MIN);
      CrawlRequest first = s.newRequests().get(0);
      s.advance(first.lease() - SEC);
      assertThat(s.newRequests()).isEmpty(); // still in flight
      assertThat(s.fn.metrics().leaseExpiries.getCount()).isZero();
      s.advance(first.lease() + 2 * MIN);
      List<CrawlRequest> again = s.newRequests();
      assertThat(again).extracting(CrawlRequest::url).containsExactly(A);
      assertThat(again.get(0).time()).isGreaterThanOrEqualTo(first.lease());
      assertThat(s.fn.metrics().leaseExpiries.getCount()).isEqualTo(1);
    }
  }

  @Test
  void aCrawlerSilentForDaysIsSentEachUrlAHandfulOfTimesAndAStatusEndsIt() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings("lease", "1 h"))) {
      s.status(A, DISCOVERED, T0);
      // Event time moves three days in hourly steps; nobody answers.
      for (long t = T0 + MIN; t <= T0 + 3 * DAY; t += HOUR) {
        s.advance(t);
      }
      List<CrawlRequest> sent = s.newRequests();
      // Leases of 1, 2, 4, 8 and 16 h, then a day (24 × the lease): 7 releases in three days, not
      // 72.
      assertThat(sent)
          .extracting(r -> (r.lease() - r.time()) / HOUR)
          .containsExactly(1L, 2L, 4L, 8L, 16L, 24L, 24L);
      assertThat(s.fn.metrics().leaseExpiries.getCount()).isEqualTo(6);
      // The crawler answers; its next release of the URL has the base lease again.
      s.status(event(A, FETCHED, T0 + 3 * DAY + MIN, true));
      s.advance(T0 + 40 * DAY);
      List<CrawlRequest> after = s.newRequests();
      assertThat(after).isNotEmpty();
      // Written at the end of that advance: half a lease is left then.
      assertThat(after.get(0).lease()).isEqualTo(T0 + 40 * DAY + HOUR / 2);
    }
  }

  @Test
  void everyRequestHasADecisionThatSaysWhyAndAtWhichPrices() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings("host.max-rate", 6))) {
      s.control(ControlMessage.lambda(T0, 1, 0.05));
      for (int i = 0; i < 5; i++) {
        s.status("http://a.example/p" + i, DISCOVERED, T0);
      }
      s.advance(T0 + 5 * HOUR);
      List<CrawlRequest> first = s.newRequests();
      s.status(event(first.get(0).url(), FETCHED, T0 + 5 * HOUR, true));
      // Time moves on as ticks move it: a lease runs out in a later advance than its release.
      for (long t = T0 + 6 * HOUR; t <= T0 + 3 * DAY; t += HOUR) {
        s.advance(t);
      }
      List<CrawlRequest> all = new ArrayList<>(first);
      all.addAll(s.newRequests());
      List<ReleaseDecision> decisions = s.decisions();
      assertThat(decisions).hasSize(all.size());
      for (int i = 0; i < all.size(); i++) {
        CrawlRequest r = all.get(i);
        ReleaseDecision d = decisions.get(i);
        assertThat(d.url).isEqualTo(r.url());
        assertThat(d.time).isEqualTo(r.time());
        assertThat(d.value).isEqualTo(r.value());
        assertThat(d.globalLambda).isEqualTo(0.05);
        assertThat(d.hostLambda + d.globalLambda).isCloseTo(r.threshold(), within(1e-12));
        assertThat(d.hostMaxRate).isEqualTo(6.0);
      }
      assertThat(decisions.subList(0, first.size()))
          .extracting(d -> d.reason)
          .containsOnly("first_crawl");
      // The pages that never came back are sent again when their leases run out.
      assertThat(decisions).extracting(d -> d.reason).contains("lease_expired");
      // Five pages, each worth about three crawls a day at this price, on a host limited to six a
      // day: its demand exceeds its limit, so it has a price of its own.
      assertThat(decisions).anySatisfy(d -> assertThat(d.hostLambda).isGreaterThan(0));
      assertThat(decisions.get(0).toJson())
          .contains("\"reason\":\"first_crawl\"")
          .contains("\"host_lambda\":")
          .contains("\"host_max_rate\":6.0");
    }
  }

  @Test
  void withTheDecisionLogOffTheSameRequestsGoOutAndNoDecision() throws Exception {
    List<CrawlRequest> withLog;
    try (SchedulerHarness s = new SchedulerHarness(settings("host.max-rate", 6))) {
      s.control(ControlMessage.lambda(T0, 1, 0.05));
      s.status(A, DISCOVERED, T0);
      s.status(A + "2", DISCOVERED, T0);
      s.advance(T0 + DAY);
      withLog = s.newRequests();
      assertThat(s.decisions()).hasSameSizeAs(withLog).isNotEmpty();
    }
    try (SchedulerHarness s = new SchedulerHarness(settings("host.max-rate", 6), null, false)) {
      s.control(ControlMessage.lambda(T0, 1, 0.05));
      s.status(A, DISCOVERED, T0);
      s.status(A + "2", DISCOVERED, T0);
      s.advance(T0 + DAY);
      assertThat(s.newRequests()).isEqualTo(withLog);
      assertThat(s.decisions()).isEmpty();
    }
  }

  @Test
  void thresholdChangeOnTheBroadcastSideIsRecheckedAtTheNextWakeUp() throws Exception {
    try (SchedulerHarness s =
        new SchedulerHarness(settings("timer.horizon", "6 h", "estimator.prior-rate", "1.0"))) {
      s.status(A, DISCOVERED, T0);
      s.advance(T0 + MIN);
      assertThat(s.newRequests()).hasSize(1);
      // w/δ = 1 (weight 1, one change a day): with λ0 = 10 the page is never worth a crawl.
      s.control(ControlMessage.lambda(T0 + 2 * MIN, 1, 10.0));
      s.status(event(A, FETCHED, T0 + 3 * MIN, true));
      s.advance(T0 + 3 * DAY);
      assertThat(s.newRequests()).isEmpty();
      assertThat(s.timers()).isEqualTo(1); // still re-checked, once per horizon

      s.control(ControlMessage.lambda(T0 + 3 * DAY, 0, 0.0)); // stale epoch: ignored
      s.advance(T0 + 4 * DAY);
      assertThat(s.newRequests()).isEmpty();
      assertThat(s.fn.metrics().staleLambdas.getCount()).isEqualTo(1);

      long lowered = T0 + 4 * DAY;
      s.control(ControlMessage.lambda(lowered, 2, 0.1));
      s.advance(lowered + 6 * HOUR + 2 * MIN);
      List<CrawlRequest> out =
          s.newRequests(); // the first, then its lease expiries (no status comes back)
      assertThat(out).isNotEmpty();
      assertThat(out.get(0).time())
          .isLessThanOrEqualTo(lowered + 6 * HOUR + MIN); // within the horizon
      assertThat(out.get(0).threshold()).isCloseTo(0.1, within(1e-12));
      assertThat(out.get(0).value()).isGreaterThanOrEqualTo(0.1);
      assertThat(s.fn.metrics().globalLambda).isEqualTo(0.1);
    }
  }

  @Test
  void hostRateOverrideIsAppliedLazilyAndPacesReleases() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      // Override before the host exists: applied when its first page arrives.
      s.control(ControlMessage.hostRate(T0, "a.example", 1440)); // one a minute
      for (int i = 0; i < 5; i++) {
        s.status("https://a.example/" + i, DISCOVERED, T0);
        s.status("https://b.example/" + i, DISCOVERED, T0);
        s.status("https://c.example/" + i, DISCOVERED, T0);
      }
      s.advance(
          T0 + 40 * SEC); // the first wake-up (end of the first due bucket): one release per host
      assertThat(s.newRequests()).hasSize(3);
      // Override after c's first release: applied at c's next wake-up, before it releases again.
      s.control(ControlMessage.hostRate(T0 + 40 * SEC, "c.example", 1440));
      s.advance(T0 + HOUR);
      List<CrawlRequest> out = s.h.extractOutputValues();
      assertThat(gaps(out, "a.example")).hasSize(4).allMatch(g -> g >= MIN);
      assertThat(gaps(out, "b.example")).hasSize(4).allMatch(g -> g >= SEC && g < MIN);
      assertThat(gaps(out, "c.example")).hasSize(4).allMatch(g -> g >= MIN);

      s.control(ControlMessage.hostRate(T0 + HOUR, "a.example", 0)); // removes it
      assertThat(s.h.getBroadcastState(SchedulerState.hostRatesDescriptor()).contains("a.example"))
          .isFalse();
    }
  }

  @Test
  void aStatusEventReleasesAPageDiscoveredWhileItsHostIsIdleButNeverFasterThanAnOverride()
      throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings("lease", "1 d"))) {
      s.control(ControlMessage.hostRate(T0, "a.example", 24)); // one an hour
      // A price at which the host's few pages want less than its limit: its own lambda is 0. (On a
      // host whose limit binds, the wake-up decides which page gets a free slot.)
      s.control(ControlMessage.lambda(T0, 1, 0.5));
      s.status("https://a.example/0", DISCOVERED, T0);
      s.advance(T0 + MIN); // a new host's first page goes at its first wake-up
      assertThat(s.newRequests()).hasSize(1);
      s.status("https://a.example/1", DISCOVERED, T0 + 30 * MIN);
      assertThat(s.newRequests()).isEmpty(); // half an hour after the last: the override holds it
      s.advance(T0 + 2 * HOUR);
      assertThat(s.newRequests())
          .extracting(CrawlRequest::url)
          .containsExactly("https://a.example/1");
      // The host is idle again: a page discovered now goes out with the event, no timer needed.
      s.status("https://a.example/2", DISCOVERED, T0 + 2 * HOUR + 30 * MIN);
      List<CrawlRequest> atOnce = s.newRequests();
      assertThat(atOnce).extracting(CrawlRequest::url).containsExactly("https://a.example/2");
      assertThat(atOnce.get(0).time()).isEqualTo(T0 + 2 * HOUR + 30 * MIN);
      // Ten minutes later the next one waits for its slot.
      s.status("https://a.example/3", DISCOVERED, T0 + 2 * HOUR + 40 * MIN);
      assertThat(s.newRequests()).isEmpty();
      s.advance(T0 + 5 * HOUR);
      assertThat(s.newRequests())
          .extracting(CrawlRequest::url)
          .containsExactly("https://a.example/3");
      assertThat(gaps(s.h.extractOutputValues(), "a.example")).hasSize(3).allMatch(g -> g >= HOUR);
    }
  }

  private static List<Long> gaps(List<CrawlRequest> out, String host) {
    List<Long> times =
        out.stream().filter(r -> r.host().equals(host)).map(CrawlRequest::time).sorted().toList();
    return java.util.stream.IntStream.range(1, times.size())
        .mapToObj(i -> times.get(i) - times.get(i - 1))
        .toList();
  }

  @Test
  void badControlMessagesBecomeDeadLetters() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      s.control(ControlMessage.lambda(T0, 1, Double.NaN));
      s.control(ControlMessage.lambda(T0, 2, -1));
      s.control(ControlMessage.hostRate(T0, null, 10));
      s.control(ControlMessage.hostRate(T0, "a.example", Double.POSITIVE_INFINITY));
      List<DeadLetter> dead = s.deadLetters();
      assertThat(dead).hasSize(4).allMatch(d -> d.reason().equals(SchedulerOutputs.BAD_CONTROL));
      assertThat(s.fn.metrics().deadLetterCount(SchedulerOutputs.BAD_CONTROL)).isEqualTo(4);
      assertThat(s.fn.metrics().globalLambda).isEqualTo(0.0); // unchanged
      // The job goes on.
      s.status(A, DISCOVERED, T0);
      s.advance(T0 + MIN);
      assertThat(s.newRequests()).hasSize(1);
    }
  }

  @Test
  void stateAndTimersReturnToZeroWhenAHostsUrlsAreRemoved() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings("error.remove", true))) {
      for (int i = 0; i < 3; i++) {
        s.status("https://a.example/" + i, DISCOVERED, T0);
      }
      s.advance(T0 + MIN);
      assertThat(s.newRequests()).hasSize(3);
      s.status(event("https://a.example/0", FETCHED, T0 + 2 * MIN, false));
      assertThat(s.keyedStateEntries()).isGreaterThan(0);
      assertThat(s.timers()).isEqualTo(1);
      for (int i = 0; i < 3; i++) {
        s.status("https://a.example/" + i, ERROR, T0 + 3 * MIN);
      }
      assertThat(s.keyedStateEntries()).isZero();
      assertThat(s.timers()).isZero();
      assertThat(s.fn.metrics().urls).isZero();
      assertThat(s.fn.metrics().hosts).isZero();
      assertThat(s.fn.metrics().pagesRemoved.getCount()).isEqualTo(3);
      s.advance(T0 + 10 * DAY);
      assertThat(s.newRequests()).isEmpty();
    }
  }

  @Test
  void hostRecordsAreWrittenBackBeforeTheCheckpointBarrier() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      s.status(A, DISCOVERED, T0);
      int withoutHost = s.keyedStateEntriesNow(); // the page, its slot and the timer
      assertThat(s.keyedStateEntries())
          .isEqualTo(withoutHost + 1); // the barrier writes the host record
      assertThat(s.keyedStateEntriesNow()).isEqualTo(withoutHost + 1);
    }
  }

  @Test
  void leaseSlotsAreKeptWithTheHostRecordNotAsSlotEntries() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      s.status(A, DISCOVERED, T0);
      int discovered = s.keyedStateEntries(); // host record, page, its due slot, the timer
      s.advance(T0 + MIN);
      assertThat(s.newRequests()).hasSize(1);
      // Released: the due slot is deleted and the lease slot is not written to RocksDB...
      assertThat(s.keyedStateEntriesNow()).isEqualTo(discovered - 1);
      // ...until the barrier, with the host's other lease slots in one value.
      assertThat(s.keyedStateEntries()).isEqualTo(discovered);
      s.status(event(A, FETCHED, T0 + 2 * MIN, true));
      // The status removes the lease slot (the value goes at the next barrier) and indexes the
      // revisit.
      assertThat(s.keyedStateEntries()).isEqualTo(discovered);
    }
  }

  @Test
  void tickReportsTheSubtasksDemandAndReleases() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      s.status(A, DISCOVERED, T0);
      s.status("https://b.example/x", DISCOVERED, T0);
      s.advance(T0 + MIN);
      s.control(ControlMessage.tick(T0 + MIN));
      List<DemandReport> reports = s.demandReports();
      assertThat(reports).hasSize(1);
      assertThat(reports.get(0).released).isEqualTo(2);
      assertThat(reports.get(0).demand).isEqualTo(s.fn.ledger().snapshot());
      assertThat(reports.get(0).demand[0])
          .isGreaterThan(0); // two pages ask to be crawled at a low price
      assertThat(reports.get(0).subtasks).isEqualTo(1);
      assertThat(reports.get(0).since).isEqualTo(Long.MIN_VALUE);
      assertThat(reports.get(0).statuses).as("discoveries are no fetches").isZero();
      assertThat(reports.get(0).inFlight).isEqualTo(2.0);
      s.status(event(A, FETCHED, T0 + MIN + 1000, true));
      s.control(ControlMessage.tick(T0 + 2 * MIN));
      DemandReport second = s.demandReports().get(1);
      assertThat(second.released).isZero();
      assertThat(second.since).isEqualTo(T0 + MIN);
      assertThat(second.statuses).isEqualTo(1);
      assertThat(second.inFlight).isEqualTo(1.0);
    }
  }

  @Test
  void restoreKeepsPagesAndTimersAndRebuildsTheLedger() throws Exception {
    OperatorSubtaskState snapshot;
    double[] demandBefore;
    try (SchedulerHarness s = new SchedulerHarness(settings("estimator.optimism", 0))) {
      for (int i = 0; i < 4; i++) {
        s.status("https://a.example/" + i, DISCOVERED, T0);
        s.status("https://b.example/" + i, DISCOVERED, T0);
      }
      s.advance(T0 + MIN);
      s.status(event("https://a.example/0", FETCHED, T0 + 2 * MIN, true));
      s.control(ControlMessage.lambda(T0 + 2 * MIN, 7, 0.05));
      demandBefore = s.fn.ledger().snapshot();
      assertThat(s.fn.metrics().inFlightForBudget).isEqualTo(7.0); // all 8 released, one came back
      snapshot = s.snapshot();
    }
    try (SchedulerHarness r = new SchedulerHarness(settings("estimator.optimism", 0), snapshot)) {
      r.control(ControlMessage.tick(T0 + 3 * MIN));
      DemandReport report = r.demandReports().get(0);
      assertThat(report.inFlight).as("rebuilt from the hosts' records").isEqualTo(7.0);
      assertThat(report.since)
          .as("the count since the last report did not survive")
          .isEqualTo(Long.MIN_VALUE);
      for (int i = 0; i < demandBefore.length; i++) {
        assertThat(report.demand[i])
            .isCloseTo(demandBefore[i], within(1e-9 * (1 + demandBefore[i])));
      }
      assertThat(r.fn.metrics().urls).isEqualTo(8);
      assertThat(r.fn.metrics().hosts).isEqualTo(2);
      assertThat(r.fn.metrics().globalLambda)
          .isEqualTo(0.0); // gauge only moves on the next LAMBDA...
      assertThat(
              r.h
                  .getBroadcastState(SchedulerState.globalDescriptor())
                  .get(SchedulerState.GLOBAL_LAMBDA))
          .isEqualTo(0.05); // ...but λ0 itself was restored
      r.advance(T0 + 12 * HOUR);
      // Every page comes back: the released ones when their leases expire, the fetched one when
      // due.
      assertThat(r.newRequests().stream().map(CrawlRequest::url).distinct())
          .containsExactlyInAnyOrder(
              "https://a.example/0",
              "https://a.example/1",
              "https://a.example/2",
              "https://a.example/3",
              "https://b.example/0",
              "https://b.example/1",
              "https://b.example/2",
              "https://b.example/3");
    }
  }

  @Test
  void statusEventsAheadOfTheWatermarkDoNotPostponeTheHostsWakeUp() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      s.status("https://a.example/busy", DISCOVERED, T0);
      s.status("https://a.example/quiet", DISCOVERED, T0);
      s.advance(T0 + MIN);
      s.newRequests();
      // Three hours of statuses for one page arrive before event time moves (a file read at once).
      for (long t = T0 + 2 * MIN; t < T0 + 3 * HOUR; t += MIN) {
        s.status(event("https://a.example/busy", FETCHED, t, false));
      }
      s.advance(T0 + 3 * HOUR);
      // The quiet page's lease ran out after an hour: it is released then, not after the last
      // event.
      List<CrawlRequest> quiet =
          s.newRequests().stream().filter(r -> r.url().endsWith("quiet")).toList();
      assertThat(quiet).isNotEmpty();
      assertThat(quiet.get(0).time()).isLessThan(T0 + HOUR + 2 * MIN);
    }
  }

  @Test
  void theEndOfABoundedInputEndsTheSchedule() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      s.status(A, DISCOVERED, T0);
      s.advance(T0 + MIN);
      assertThat(s.newRequests()).hasSize(1);
      s.advance(Long.MAX_VALUE); // without the guard: a release every lease period, forever
      assertThat(s.newRequests()).isEmpty();
      assertThat(s.timers()).as("the host keeps its wake-up, for a restore").isEqualTo(1);
    }
  }

  @Test
  void metricsCountEventsRequestsBacklogAndReleaseLag() throws Exception {
    try (SchedulerHarness s =
        new SchedulerHarness(settings("host.max-rate", 1440))) { // one a minute
      for (int i = 0; i < 5; i++) {
        s.status("https://a.example/" + i, DISCOVERED, T0);
      }
      s.advance(T0 + 40 * SEC);
      SchedulerMetrics m = s.fn.metrics();
      assertThat(m.eventsIn.getCount()).isEqualTo(5);
      assertThat(m.requestsOut.getCount()).isEqualTo(1);
      assertThat(m.dueBacklog).isEqualTo(4); // due, waiting for a dispatch slot
      s.advance(T0 + 10 * MIN);
      assertThat(m.requestsOut.getCount()).isEqualTo(5);
      assertThat(m.dueBacklog).isZero();
      assertThat(m.releaseLagMs.getCount()).isEqualTo(5);
      // All five fetched at once: due together an hour later (the minimum revisit interval), then
      // released a minute apart, so the last one waited four spacings after it became due.
      for (int i = 0; i < 5; i++) {
        s.status(event("https://a.example/" + i, FETCHED, T0 + 11 * MIN, true));
      }
      s.advance(T0 + 2 * HOUR);
      assertThat(m.requestsOut.getCount()).isEqualTo(10);
      assertThat(m.releaseLagMs.getStatistics().getMax()).isBetween(4 * MIN, 6 * MIN);
    }
  }

  @Test
  void anEventTheEngineCannotDigestBecomesADeadLetter() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      // Built by hand (the codec would refuse it): no status.
      s.status(
          new io.recrawl.wire.StatusEvent(
              A, "a.example", null, T0, java.util.Map.of(), null, null, null));
      assertThat(s.deadLetters())
          .extracting(DeadLetter::reason)
          .containsExactly(SchedulerOutputs.REJECTED_BY_ENGINE);
      assertThat(s.deadLetters().get(0).raw()).contains(A);
      assertThat(s.fn.metrics().deadLetterCount(SchedulerOutputs.REJECTED_BY_ENGINE)).isEqualTo(1);
      assertThat(s.keyedStateEntries()).isZero(); // nothing half-written
      s.status(A, DISCOVERED, T0); // and the host goes on
      s.advance(T0 + MIN);
      assertThat(s.newRequests()).extracting(CrawlRequest::url).containsExactly(A);
    }
  }

  @Test
  void datesBeyondWhatAnInstantHoldsAreNoDatesNotAnEngineFailure() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      s.status(event(A, FETCHED, T0, true));
      for (String hostile : List.of("+300000000-01-01T00:00:00Z", "+999999999-12-31")) {
        long t = T0 + (hostile.length() + 1) * HOUR;
        s.status(
            new io.recrawl.wire.StatusEvent(
                A,
                "a.example",
                FETCHED,
                t,
                java.util.Map.of(
                    "protocol.last-modified", List.of(hostile),
                    "protocol.date", List.of(hostile),
                    "sitemap.lastmod", List.of(hostile)),
                null,
                null,
                200));
      }
      assertThat(s.deadLetters()).isEmpty();
      assertThat(s.fn.metrics().urls).isEqualTo(1);
    }
  }
}
