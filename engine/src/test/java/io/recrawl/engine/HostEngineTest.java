package io.recrawl.engine;

import static io.recrawl.engine.EngineTestSupport.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.engine.local.LocalFrontier;
import io.recrawl.value.CrawlValue;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HostEngineTest {

  private static EngineConfig config(Map<String, Object> overrides) {
    return EngineConfig.with(overrides);
  }

  @Test
  void discoveredPagesAreReleasedOnceEachAndPacedAtTheHostLimit() {
    // 24 crawls a day = one an hour.
    LocalFrontier f = new LocalFrontier(config(Map.of("host.max-rate", 24)));
    f.setGlobalLambda(0.01);
    Sink sink = new Sink();
    for (int i = 0; i < 10; i++) {
      f.onStatus(discovered("http://a.example/p" + i, T0), sink);
    }
    f.advanceTo(T0 + 12 * HOUR, sink);
    Set<String> urls = new HashSet<>();
    for (CrawlRequest r : sink.out) {
      urls.add(r.url());
      assertThat(r.host()).isEqualTo("a.example");
    }
    assertThat(urls).hasSize(10);
    // Leases (1 h) expire while no status returns, so URLs are released again, but never faster
    // than the limit.
    for (int i = 1; i < sink.out.size(); i++) {
      assertThat(sink.out.get(i).time() - sink.out.get(i - 1).time()).isGreaterThanOrEqualTo(HOUR);
    }
  }

  @Test
  void everyReleaseSaysWhy() {
    Reasons why = new Reasons();
    LocalFrontier f = new LocalFrontier(config(Map.of("lease", "1 h"))).observe(why);
    f.setGlobalLambda(0.01);
    Sink sink = new Sink();
    f.onStatus(discovered("http://a.example/new", T0), sink);
    f.onStatus(discovered("http://a.example/lost", T0), sink);
    f.onStatus(discovered("http://a.example/failing", T0), sink);
    f.advanceTo(T0 + 10 * MIN, sink);
    assertThat(why.requests)
        .extracting(CrawlRequest::url)
        .containsOnly("http://a.example/new", "http://a.example/lost", "http://a.example/failing");
    assertThat(why.reasons).containsOnly(ReleaseReason.FIRST_CRAWL);
    // One comes back fetched, one failed, one never comes back.
    f.onStatus(fetched("http://a.example/new", T0 + 20 * MIN, true), sink);
    f.onStatus(
        event("http://a.example/failing", CrawlStatus.FETCH_ERROR, T0 + 20 * MIN, null), sink);
    f.advanceTo(T0 + 30 * DAY, sink);
    assertThat(why.lines())
        .contains(
            "http://a.example/lost LEASE_EXPIRED",
            "http://a.example/failing RETRY",
            "http://a.example/new DUE");
    // Every request the sink got was explained once, in the same order, with the host's limit then.
    assertThat(why.requests).isEqualTo(sink.out);
    assertThat(why.hostMaxRates).containsOnly(86_400.0);
  }

  @Test
  void aLimitedHostFillsAFreeSlotEarlyAndSaysSo() {
    Reasons why = new Reasons();
    // Four crawls a day for ten pages that change daily: the host's own limit sets its price.
    LocalFrontier f =
        new LocalFrontier(config(Map.of("host.max-rate", 4, "lease", "1 d"))).observe(why);
    f.setGlobalLambda(0.001);
    Sink sink = new Sink();
    for (int i = 0; i < 10; i++) {
      f.onStatus(
          new StatusEvent(
              "http://a.example/p" + i,
              "a.example",
              CrawlStatus.DISCOVERED,
              T0,
              Map.of(StatusEvent.CHANGE_RATE_KEY, List.of(String.valueOf(0.5 + 0.1 * i))),
              null,
              1.0 + i,
              null),
          sink);
    }
    // The crawler answers each request a minute after it gets it.
    for (long t = T0; t < T0 + 20 * DAY; t += MIN) {
      int before = sink.out.size();
      f.advanceTo(t, sink);
      for (CrawlRequest r : new ArrayList<>(sink.out.subList(before, sink.out.size()))) {
        f.onStatus(fetched(r.url(), t + MIN, true), sink);
      }
    }
    List<CrawlRequest> early = why.releasedFor(ReleaseReason.EARLY);
    assertThat(early).isNotEmpty();
    assertThat(why.hostMaxRates).containsOnly(4.0);
    for (CrawlRequest r : early) {
      assertThat(r.value()).isLessThan(r.threshold()); // below its host's threshold when it went
    }
  }

  @Test
  void aFreeSlotNeverTakesAPageBeforeItsMinimumRevisitInterval() {
    // A limited host with a free slot sends its best page early (pull-forward); a page fetched
    // within revisit.min-interval is not a candidate, however little the global price.
    Reasons why = new Reasons();
    LocalFrontier f =
        new LocalFrontier(
                config(Map.of("host.max-rate", 24, "revisit.min-interval", "6 h", "lease", "1 d")))
            .observe(why);
    f.setGlobalLambda(1e-9);
    Sink sink = new Sink();
    String url = "http://a.example/x";
    f.onStatus(discovered("http://a.example/y", T0), sink);
    f.onStatus(fetched(url, T0, true), sink);
    for (long t = T0; t < T0 + 12 * HOUR; t += MIN) {
      f.advanceTo(t, sink);
    }
    List<CrawlRequest> revisits = sink.out.stream().filter(r -> r.url().equals(url)).toList();
    assertThat(revisits).isNotEmpty();
    assertThat(revisits)
        .allSatisfy(r -> assertThat(r.time()).isGreaterThanOrEqualTo(T0 + 6 * HOUR));
  }

  @Test
  void aPageNeverWorthItsThresholdIsReleasedAtTheMaximumIntervalAndSaysSo() {
    Reasons why = new Reasons();
    LocalFrontier f =
        new LocalFrontier(config(Map.of("revisit.max-interval", "2 d", "lease", "1 d")))
            .observe(why);
    f.setGlobalLambda(1e5); // far above any page's value ceiling
    Sink sink = new Sink();
    f.onStatus(fetched("http://a.example/x", T0, false), sink);
    f.advanceTo(T0 + 2 * DAY + HOUR, sink);
    assertThat(why.reasons).containsExactly(ReleaseReason.MAX_INTERVAL);
  }

  @Test
  void aPageDiscoveredWhileItsHostIsIdleIsSentAtOnceButNeverFasterThanTheLimit() {
    // One crawl an hour; the lease outlasts the test, so every release is a first one.
    LocalFrontier f = new LocalFrontier(config(Map.of("host.max-rate", 24, "lease", "1 d")));
    f.setGlobalLambda(0.01);
    Sink sink = new Sink();
    // A new host's first page waits for the host's first wake-up, at the end of its due bucket.
    f.onStatus(discovered("http://a.example/p0", T0), sink);
    assertThat(sink.out).isEmpty();
    f.advanceTo(T0 + 2 * MIN, sink);
    assertThat(sink.out).hasSize(1);
    assertThat(sink.out.get(0).time()).isBetween(T0 + 1, T0 + MIN);
    // Two hours on the host is idle: a page discovered then goes out in the same call.
    f.onStatus(discovered("http://a.example/p1", T0 + 2 * HOUR), sink);
    assertThat(sink.out).hasSize(2);
    assertThat(sink.out.get(1).url()).isEqualTo("http://a.example/p1");
    assertThat(sink.out.get(1).time()).isEqualTo(T0 + 2 * HOUR);
    // Ten minutes later the pacing allows none: the next page waits for one spacing after the last.
    f.onStatus(discovered("http://a.example/p2", T0 + 2 * HOUR + 10 * MIN), sink);
    assertThat(sink.out).hasSize(2);
    f.advanceTo(T0 + 4 * HOUR, sink);
    assertThat(sink.out).hasSize(3);
    assertThat(sink.out.get(2).time()).isBetween(T0 + 3 * HOUR, T0 + 3 * HOUR + MIN);
  }

  @Test
  void ofABurstOfDiscoveriesOnlyTheFirstGoesAtOnceAndTheRestGoBestFirst() {
    LocalFrontier f = new LocalFrontier(config(Map.of("lease", "1 d")));
    f.setGlobalLambda(0.01);
    Sink sink = new Sink();
    f.onStatus(discovered("http://a.example/p0", T0), sink);
    f.advanceTo(T0 + 2 * MIN, sink);
    long at = T0 + HOUR;
    for (String[] page : new String[][] {{"light", "1"}, {"heavy", "5"}, {"middle", "3"}}) {
      f.onStatus(
          new StatusEvent(
              "http://a.example/" + page[0],
              "a.example",
              CrawlStatus.DISCOVERED,
              at,
              Map.of(),
              null,
              Double.valueOf(page[1]),
              null),
          sink);
    }
    assertThat(sink.out)
        .extracting(CrawlRequest::url)
        .containsExactly("http://a.example/p0", "http://a.example/light");
    f.advanceTo(at + 5 * MIN, sink);
    assertThat(sink.out)
        .extracting(CrawlRequest::url)
        .containsExactly(
            "http://a.example/p0",
            "http://a.example/light",
            "http://a.example/heavy",
            "http://a.example/middle");
  }

  @Test
  void aFetchedPageIsReleasedWhenItsCrawlValueReachesTheThreshold() {
    EngineConfig cfg =
        config(
            Map.of(
                "revisit.min-interval",
                "1 min",
                "estimator.prior-rate",
                2.0,
                "estimator.prior-shape",
                1e6,
                "estimator.max-shape",
                1e7));
    LocalFrontier f = new LocalFrontier(cfg);
    double lambda0 = 0.1;
    f.setGlobalLambda(lambda0);
    Sink sink = new Sink();
    f.onStatus(fetched("http://a.example/x", T0, true), sink);
    f.advanceTo(T0 + 30 * DAY, sink);
    assertThat(sink.out).isNotEmpty();
    CrawlRequest first = sink.out.get(0);
    double expectedDays = CrawlValue.timeToThreshold(1.0, 2.0, lambda0);
    double actualDays = (first.time() - T0) / (double) DAY;
    // Released within one due bucket (1 min) after the exact crossing.
    assertThat(actualDays).isBetween(expectedDays, expectedDays + 2.0 / 1440);
    assertThat(first.value()).isGreaterThanOrEqualTo(lambda0);
    assertThat(first.threshold()).isEqualTo(lambda0);
  }

  @Test
  void aThresholdRiseHoldsPagesBackAndAFallReleasesThemWithinTheHorizon() {
    EngineConfig cfg =
        config(
            Map.of(
                "timer.recheck",
                "1 h",
                "timer.horizon",
                "1 h",
                "lease",
                "1 d",
                "estimator.prior-shape",
                1e6,
                "estimator.max-shape",
                1e7));
    LocalFrontier f = new LocalFrontier(cfg);
    Sink sink = new Sink();
    f.setGlobalLambda(0.5); // w/delta = 1: tau* finite
    f.onStatus(fetched("http://a.example/x", T0, true), sink);
    double tauAtHalf = CrawlValue.timeToThreshold(1, 1, 0.5);
    // Raise the price above w/delta: the page is never worth a crawl.
    f.setGlobalLambda(2.0);
    f.advanceTo(T0 + 10 * DAY, sink);
    assertThat(sink.out).isEmpty();
    // Lower it again: the page is overdue and goes out within the horizon.
    long loweredAt = f.now();
    f.setGlobalLambda(0.5);
    f.advanceTo(loweredAt + 2 * HOUR, sink);
    assertThat(sink.out).hasSize(1);
    assertThat(sink.out.get(0).time() - loweredAt).isLessThanOrEqualTo(HOUR + 2 * MIN);
    assertThat(tauAtHalf).isLessThan(10);
  }

  @Test
  void aFarDuePageIsRecheckedOnTheWayAndCatchesAThresholdFallThere() {
    // One change every 10 days, weight 1: at lambda0 = value(20 d) the page is due 20 days out.
    double rate = 0.1;
    EngineConfig cfg =
        config(
            Map.of(
                "estimator.prior-rate",
                rate,
                "estimator.prior-shape",
                1e6,
                "estimator.max-shape",
                1e7,
                "estimator.optimism",
                0,
                "lease",
                "1 d",
                "timer.horizon",
                "30 d"));
    LocalFrontier f = new LocalFrontier(cfg);
    f.setGlobalLambda(CrawlValue.value(1, rate, 20));
    Sink sink = new Sink();
    f.onStatus(fetched("http://a.example/x", T0, true), sink);
    // The price falls on day 1 so that the page is due on day 16: the day-15 check catches it.
    f.advanceTo(T0 + DAY, sink);
    f.setGlobalLambda(CrawlValue.value(1, rate, 16));
    f.advanceTo(T0 + 30 * DAY, sink);
    assertThat(sink.out).isNotEmpty();
    double releasedDays = (sink.out.get(0).time() - T0) / (double) DAY;
    assertThat(releasedDays).isBetween(16.0, 16.0 + 2.0 / 1440);
  }

  @Test
  void anExpiredLeaseReleasesTheUrlAgainAndAStatusEndsTheLease() {
    EngineConfig cfg = config(Map.of("lease", "2 h"));
    LocalFrontier f = new LocalFrontier(cfg);
    f.setGlobalLambda(0.01);
    Sink sink = new Sink();
    f.onStatus(discovered("http://a.example/x", T0), sink);
    f.advanceTo(T0 + 5 * MIN, sink);
    assertThat(sink.out).hasSize(1);
    long firstRelease = sink.out.get(0).time();
    assertThat(sink.out.get(0).lease()).isEqualTo(firstRelease + 2 * HOUR);
    f.advanceTo(firstRelease + 2 * HOUR + 2 * MIN, sink);
    assertThat(sink.out).hasSize(2); // released again, once
    // The status comes back: no more releases until the page is due again.
    f.onStatus(fetched("http://a.example/x", f.now(), true), sink);
    f.advanceTo(f.now() + HOUR, sink);
    assertThat(sink.out).hasSize(2);
  }

  @Test
  void aStatusOlderThanThePagesLastVisitChangesNothingAndKeepsTheNewerLease() {
    // A FETCHED delivered twice (an at-least-once producer) or late (a slow fetcher thread) must
    // not end the lease of the request released since, nor move the page's last visit back: the
    // page would be due again at once and sent while its request is still in the crawler's queue.
    EngineConfig cfg = config(Map.of("lease", "2 h", "revisit.min-interval", "1 min"));
    LocalFrontier f = new LocalFrontier(cfg);
    f.setGlobalLambda(0.01);
    Sink sink = new Sink();
    String url = "http://a.example/x";
    f.onStatus(fetched(url, T0, true), sink);
    f.onStatus(fetched(url, T0 + HOUR, true), sink);
    for (long t = T0 + HOUR; sink.out.isEmpty() && t < T0 + 30 * DAY; t += 10 * MIN) {
      f.advanceTo(t, sink);
    }
    assertThat(sink.out).hasSize(1); // due again, and in flight
    long released = sink.out.get(0).time();
    f.onStatus(fetched(url, T0 + HOUR, true), sink); // the same status again
    f.onStatus(fetched(url, T0, false), sink); // an older one, late
    f.advanceTo(released + HOUR, sink);
    assertThat(sink.out).hasSize(1);
    assertThat(f.store("a.example").page(url).lastFetch).isEqualTo(T0 + HOUR);
    assertThat(f.store("a.example").page(url).inFlight()).isTrue();
  }

  @Test
  void anotherStatusAtTheSameInstantAsTheLastVisitIsApplied() {
    // A FETCHED and then an ERROR for the same URL in one millisecond (a parse failure after the
    // fetch) are two statuses, not one delivered twice.
    LocalFrontier f = new LocalFrontier(config(Map.of("error.remove", true)));
    Sink sink = new Sink();
    String url = "http://a.example/x";
    f.onStatus(fetched(url, T0, true), sink);
    f.onStatus(event(url, CrawlStatus.ERROR, T0, null), sink);
    assertThat(f.store("a.example") == null ? null : f.store("a.example").page(url)).isNull();
  }

  @Test
  void aFetchErrorDeliveredTwiceCountsOnceAndKeepsTheRetrysLease() {
    // A FETCH_ERROR is not a visit, so the last visit cannot tell it delivered again: counted
    // twice, it would double the back-off, bring the page nearer to ERROR, and end the lease of
    // the retry released since, which would then go again while it waits in the crawler's queue.
    EngineConfig cfg = config(Map.of("lease", "2 h", "fetch-error.backoff", "1 h"));
    LocalFrontier f = new LocalFrontier(cfg);
    f.setGlobalLambda(0.01);
    Sink sink = new Sink();
    String url = "http://a.example/x";
    f.onStatus(discovered(url, T0), sink);
    f.advanceTo(T0 + MIN, sink);
    StatusEvent error = event(url, CrawlStatus.FETCH_ERROR, T0 + 10 * MIN, null);
    f.onStatus(error, sink);
    f.advanceTo(T0 + 100 * MIN, sink);
    assertThat(sink.out).hasSize(2); // the first fetch, and the retry in flight
    f.onStatus(error, sink); // the same status again
    f.onStatus(event(url, CrawlStatus.FETCH_ERROR, T0 + 5 * MIN, null), sink); // an older one
    assertThat((int) f.store("a.example").page(url).errors).isEqualTo(1);
    assertThat(f.store("a.example").page(url).inFlight()).isTrue();
    f.advanceTo(T0 + 3 * HOUR, sink);
    assertThat(sink.out).hasSize(2);
    f.advanceTo(T0 + 4 * HOUR, sink);
    assertThat(sink.out).hasSize(3); // the retry's lease (2 h) ran out: once more
  }

  @Test
  void leasesThatRunOutInARowDoubleUpToTheMaximumAndAStatusResetsThem() {
    // A crawler that is down: the URL goes out again after 1 h, 2 h, 4 h, 8 h, then every 12 h.
    LocalFrontier f = new LocalFrontier(config(Map.of("lease", "1 h", "lease.max", "12 h")));
    f.setGlobalLambda(0.01);
    Sink sink = new Sink();
    f.onStatus(discovered("http://a.example/x", T0), sink);
    f.advanceTo(T0 + 3 * DAY, sink);
    List<Long> leases = new ArrayList<>();
    for (CrawlRequest r : sink.out) {
      leases.add(r.lease() - r.time());
    }
    assertThat(leases.subList(0, 6))
        .containsExactly(HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, 12 * HOUR, 12 * HOUR);
    // Three days of a silent crawler: 9 releases of the URL, not 72.
    assertThat(sink.out).hasSizeBetween(8, 10);
    // The crawler answers: the next release has the base lease again.
    f.onStatus(fetched("http://a.example/x", f.now(), true), sink);
    int before = sink.out.size();
    f.advanceTo(f.now() + 30 * DAY, sink);
    assertThat(sink.out.size()).isGreaterThan(before);
    CrawlRequest next = sink.out.get(before);
    assertThat(next.lease() - next.time()).isEqualTo(HOUR);
  }

  @Test
  void theLeaseCapIsADayOfLeasesByDefaultAndNeverBelowTheLease() {
    assertThat(config(Map.of()).maxLeaseMs).isEqualTo(DAY);
    assertThat(config(Map.of("lease", "3 d")).maxLeaseMs).isEqualTo(72 * DAY);
    assertThatThrownBy(() -> config(Map.of("lease", "2 h", "lease.max", "1 h")))
        .hasMessageStartingWith("lease.max: must be 0 or at least lease");
  }

  @Test
  void fetchErrorMaxIsAWholeNumberOfAtMost32() {
    assertThat(config(Map.of("fetch-error.max", 32)).maxFetchErrors).isEqualTo(32);
    for (Object bad : List.of(33, 128, 1000, 2.5, "1e12")) {
      assertThatThrownBy(
              () -> EngineConfig.fromMap(Map.of("fetch-error.max", bad), "recrawl.engine."))
          .as(String.valueOf(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("recrawl.engine.fetch-error.max: ");
    }
  }

  @Test
  void aFetchErrorBackOffThatSaturatesRetriesNeverRatherThanAtOnce() {
    long backoff = 100_000 * DAY;
    LocalFrontier f =
        new LocalFrontier(config(Map.of("fetch-error.backoff", "100000 d", "fetch-error.max", 32)));
    f.setGlobalLambda(0.01);
    Sink sink = new Sink();
    String url = "http://a.example/p0";
    f.onStatus(discovered(url, T0), sink);
    f.advanceTo(T0 + MIN, sink);
    // Each retry fails with a 404 (the host answers: the errors are the page's own), until the
    // doubled back-off is beyond Long.MAX_VALUE ms (the 21st error in a row).
    for (int errors = 1; ; errors++) {
      assertThat(sink.out).hasSize(errors);
      long at = sink.out.get(errors - 1).time() + 1000;
      f.onStatus(
          new StatusEvent(url, "a.example", CrawlStatus.FETCH_ERROR, at, Map.of(), null, null, 404),
          sink);
      long retry = Times.doubled(backoff, errors - 1);
      if (retry == Long.MAX_VALUE) {
        break;
      }
      // A date further than 2^31 due buckets ahead goes at that bound (DueIndex#maxAheadMs).
      f.advanceTo(at + Math.min(retry, ((1L << 31) - 1) * MIN) + MIN, sink);
    }
    assertThat(f.store("a.example").page(url).errors).isEqualTo((byte) 21);
    int before = sink.out.size();
    f.advanceTo(f.now() + 30 * DAY, sink);
    assertThat(sink.out.subList(before, sink.out.size())).as("retried at once").isEmpty();
  }

  @Test
  void removingEveryPageOfAHostLeavesNoStateAndNoTimer() {
    EngineConfig cfg = config(Map.of("error.remove", true));
    LocalFrontier f = new LocalFrontier(cfg);
    Sink sink = new Sink();
    for (int i = 0; i < 5; i++) {
      f.onStatus(discovered("http://a.example/p" + i, T0), sink);
    }
    assertThat(f.store("a.example").pageCount()).isEqualTo(5);
    for (int i = 0; i < 5; i++) {
      f.onStatus(event("http://a.example/p" + i, CrawlStatus.ERROR, T0 + MIN, null), sink);
    }
    assertThat(f.store("a.example")).isNull();
    assertThat(f.hostCount()).isZero();
    assertThat(f.ledger().snapshot()).containsOnly(0.0);
  }

  @Test
  void anExplanationSaysNeverWhenTheCeilingIsBelowTheThreshold() {
    LocalFrontier f = new LocalFrontier(config(Map.of()));
    Sink sink = new Sink();
    f.onStatus(fetched("http://a.example/x", T0, true), sink);
    InMemoryHostStore store = f.store("a.example");
    PageState p = store.page("http://a.example/x");
    PageExplanation never = PageExplanation.of(f.engine(), p, store.host(), 500.0, T0);
    assertThat(never.due()).isEqualTo(Long.MAX_VALUE);
    assertThat(never.reason()).startsWith("never");
    PageExplanation later = PageExplanation.of(f.engine(), p, store.host(), 0.1, T0);
    assertThat(later.due()).isGreaterThan(T0);
    assertThat(later.threshold()).isEqualTo(0.1);
    assertThat(later.reason()).contains("host lambda").contains("global lambda");
    // What the page asks of its host: nothing above its ceiling, one crawl per planned interval
    // below.
    assertThat(never.demandRate()).isZero();
    assertThat(later.demandRate())
        .isCloseTo(
            DAY / (double) (later.due() - T0),
            org.assertj.core.data.Percentage.withPercentage(0.1));
  }

  @Test
  void aLimitedHostUsesEverySlotAndDoesNotSpin() {
    // 400 pages that all look alike (never fetched): the host lambda must stay below their common
    // value ceiling, or the host would price all of them out and sit idle.
    LocalFrontier f = new LocalFrontier(config(Map.of("host.max-rate", 24, "lease", "1 d")));
    f.setGlobalLambda(0.01);
    Sink sink = new Sink();
    for (int i = 0; i < 400; i++) {
      f.onStatus(
          discovered("http://a.example/p" + i, T0), sink); // demand far above 24 a day: limited
    }
    // A crawler that answers every request within ten minutes.
    int answered = 0;
    for (long t = T0; t <= T0 + 3 * DAY; t += 10 * MIN) {
      f.advanceTo(t, sink);
      while (answered < sink.out.size()) {
        f.onStatus(fetched(sink.out.get(answered++).url(), t, false), sink);
      }
    }
    HostState h = f.store("a.example").host();
    assertThat(f.engine().thresholds().constrained(h, 0.01, f.now())).isTrue();
    // One release per hour, every hour...
    assertThat(sink.out).hasSizeBetween(3 * 24 - 1, 3 * 24 + 1);
    // ...and does not spin: its next wake-up is at least a dispatch slot away.
    assertThat(h.wakeAt - f.now()).isGreaterThan(0);
    assertThat(f.timerCount()).isEqualTo(1); // one timer per host
  }

  @Test
  void pagesThatAreNotCandidatesDoNotStopALimitedHostsFreeSlotsBeingUsed() {
    // 100 pages, each worth a crawl every few days, against a limit of 24 a day: the host's own
    // limit binds, and its free slots go to the best pages not yet due, once they are worth a crawl
    // at the global price (after about 90 minutes).
    LocalFrontier f =
        new LocalFrontier(
            config(Map.of("host.max-rate", 24, "lease", "1 d", "fetch-error.backoff", "12 h")));
    f.setGlobalLambda(0.001);
    Sink sink = new Sink();
    for (int i = 0; i < 100; i++) {
      f.onStatus(
          new io.recrawl.wire.StatusEvent(
              "http://a.example/p" + i,
              "a.example",
              CrawlStatus.FETCHED,
              T0,
              Map.of(io.recrawl.wire.StatusEvent.CHANGE_RATE_KEY, List.of("0.5")),
              false,
              1.0,
              null),
          sink);
    }
    // Ahead of them in the due queue: a page waiting 12 hours for its retry, and soon the leases of
    // the pages sent (nothing answers). Neither may be sent early, nor use up the search.
    f.onStatus(event("http://a.example/p0", CrawlStatus.FETCH_ERROR, T0, null), sink);
    f.advanceTo(T0 + 11 * HOUR + 30 * MIN, sink);
    assertThat(f.engine().thresholds().constrained(f.store("a.example").host(), 0.001, f.now()))
        .isTrue();
    // One an hour from the second hour on.
    assertThat(sink.out).hasSizeBetween(9, 11);
    assertThat(sink.out)
        .extracting(CrawlRequest::url)
        .doesNotHaveDuplicates()
        .doesNotContain("http://a.example/p0");
  }

  @Test
  void aCrawlerThatFallsBehindIsNotSentMoreThanHalfALeaseOfTheHostsLimit() {
    // 24 a day with a 1-day lease: at most 12 in flight; nothing comes back.
    LocalFrontier f = new LocalFrontier(config(Map.of("host.max-rate", 24, "lease", "1 d")));
    f.setGlobalLambda(0.01);
    Sink sink = new Sink();
    for (int i = 0; i < 100; i++) {
      f.onStatus(discovered("http://a.example/p" + i, T0), sink);
    }
    f.advanceTo(T0 + 20 * HOUR, sink);
    assertThat(sink.out).hasSize(12);
    assertThat(f.store("a.example").host().inFlight).isEqualTo(12);
    // An answer frees one place.
    f.onStatus(fetched(sink.out.get(0).url(), T0 + 20 * HOUR, false), sink);
    f.advanceTo(T0 + 22 * HOUR, sink);
    assertThat(sink.out).hasSize(13);
  }

  @Test
  void aPageDiscoveredAgainWithANewKnownRateIsRescheduledUnderIt() {
    LocalFrontier f =
        new LocalFrontier(config(Map.of("estimator.optimism", 0, "timer.horizon", "30 d")));
    double lambda0 =
        CrawlValue.value(1, 0.02, 20); // due 20 days after a fetch at one change in 50 days
    f.setGlobalLambda(lambda0);
    Sink sink = new Sink();
    String url = "http://a.example/x";
    f.onStatus(withRate(fetched(url, T0, true), "0.02"), sink);
    // A day later a sitemap says it changes two and a half times as often: due sooner. The day
    // since the fetch made 0.02 changes on average, as many as 0.4 days at the new rate, so the
    // page's age at the new rate counts from 0.6 days after the fetch.
    f.onStatus(withRate(discovered(url, T0 + DAY), "0.05"), sink);
    f.advanceTo(T0 + 30 * DAY, sink);
    assertThat(sink.out).isNotEmpty();
    double expected = 0.6 + CrawlValue.timeToThreshold(1, 0.05, lambda0);
    assertThat(expected).isBetween(2.0, 15.0);
    double releasedDays = (sink.out.get(0).time() - T0) / (double) DAY;
    assertThat(releasedDays).isBetween(expected, expected + 2.0 / 1440);
    // The same news again changes nothing: a duplicate.
    int before = sink.out.size();
    f.onStatus(withRate(discovered(url, T0 + 30 * DAY), "0.05"), sink);
    assertThat(sink.out).hasSize(before);
  }

  @Test
  void aPageWhoseKnownRateFallsIsAsStaleAsBeforeAndOverduePagesGoInValueOrderWithinARecheck() {
    // Three pages fetched together at one change a day; five days later a sitemap says they change
    // once in 50 days. Each has most likely changed since its fetch and will now stay changed: all
    // three are overdue, and their values differ by their weights.
    LocalFrontier f = new LocalFrontier(config(Map.of("lease", "1 d", "timer.recheck", "6 h")));
    double lambda0 = 1.0;
    f.setGlobalLambda(lambda0);
    Sink sink = new Sink();
    String[] urls = {"http://a.example/light", "http://a.example/middle", "http://a.example/heavy"};
    double[] weights = {0.2, 0.5, 0.9};
    for (int i = 0; i < urls.length; i++) {
      f.onStatus(
          withRate(
              new StatusEvent(
                  urls[i], "a.example", CrawlStatus.FETCHED, T0, Map.of(), true, weights[i], 200),
              "1"),
          sink);
    }
    // At one change a day a page's value never exceeds w/1, below the threshold: none is due.
    f.advanceTo(T0 + 5 * DAY, sink);
    assertThat(sink.out).isEmpty();
    long change = T0 + 5 * DAY;
    for (int i = 0; i < urls.length; i++) {
      f.onStatus(withRate(discovered(urls[i], change), "0.02"), sink);
    }
    // Not in one burst: nothing goes out at the re-plan itself.
    assertThat(sink.out).isEmpty();
    f.advanceTo(change + 6 * HOUR + 2 * MIN, sink);
    assertThat(sink.out).extracting(CrawlRequest::url).containsExactly(urls[2], urls[1], urls[0]);
    for (int i = 0; i < urls.length; i++) {
      // Five changes expected since the fetch: 250 days at the new rate, value w/0.02 (1 - 6 e^-5).
      double value = CrawlValue.value(weights[i], 0.02, 250);
      long due = change + (long) (6 * HOUR * lambda0 / value);
      CrawlRequest r = sink.out.get(urls.length - 1 - i);
      assertThat(r.time()).isBetween(due, due + 2 * MIN);
    }
  }

  @Test
  void pagesNeverFetchedWhoseValueIsUnboundedGoHeaviestFirst() {
    // Under the default prior (one observation's worth) a page never fetched may never change, so
    // its value is unbounded; its host's pages share that prior, and their weights rank them.
    LocalFrontier f = new LocalFrontier(config(Map.of("host.max-rate", 24, "lease", "1 d")));
    f.setGlobalLambda(0.5);
    Sink sink = new Sink();
    for (String[] page : new String[][] {{"light", "1"}, {"middle", "3"}, {"heavy", "5"}}) {
      f.onStatus(
          new StatusEvent(
              "http://a.example/" + page[0],
              "a.example",
              CrawlStatus.DISCOVERED,
              T0,
              Map.of(),
              null,
              Double.valueOf(page[1]),
              null),
          sink);
    }
    f.advanceTo(T0 + 3 * HOUR, sink);
    assertThat(sink.out)
        .extracting(CrawlRequest::url)
        .containsExactly(
            "http://a.example/heavy", "http://a.example/middle", "http://a.example/light");
  }

  private static io.recrawl.wire.StatusEvent withRate(io.recrawl.wire.StatusEvent e, String rate) {
    return new io.recrawl.wire.StatusEvent(
        e.url(),
        e.host(),
        e.status(),
        e.time(),
        Map.of(io.recrawl.wire.StatusEvent.CHANGE_RATE_KEY, List.of(rate)),
        e.changed(),
        e.weight(),
        e.httpStatus());
  }
}
