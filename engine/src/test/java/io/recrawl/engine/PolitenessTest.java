package io.recrawl.engine;

import static io.recrawl.engine.EngineTestSupport.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.engine.local.LocalFrontier;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** What servers say (429, 503, Retry-After, crawl-delay, outages, response times), obeyed. */
class PolitenessTest {

  private static final String HOST = "a.example";

  private static StatusEvent answer(
      String url, CrawlStatus status, long time, Integer code, Map<String, String> metadata) {
    Map<String, List<String>> md = new HashMap<>();
    metadata.forEach((k, v) -> md.put(k, List.of(v)));
    return new StatusEvent(url, HOST, status, time, md, null, null, code);
  }

  private static StatusEvent tooMany(String url, long time, Map<String, String> metadata) {
    return answer(url, CrawlStatus.FETCH_ERROR, time, 429, metadata);
  }

  /** A frontier with ten pages of one host discovered and their first requests out by T0 + 1 h. */
  private static LocalFrontier tenPages(Map<String, Object> config, Sink sink) {
    LocalFrontier f = new LocalFrontier(EngineConfig.with(config));
    f.setGlobalLambda(0.01);
    for (int i = 0; i < 10; i++) {
      f.onStatus(discovered("http://a.example/p" + i, T0), sink);
    }
    f.advanceTo(T0 + HOUR, sink);
    return f;
  }

  private static List<CrawlRequest> between(Sink sink, long from, long to) {
    List<CrawlRequest> out = new ArrayList<>();
    for (CrawlRequest r : sink.out) {
      if (r.time() >= from && r.time() < to) {
        out.add(r);
      }
    }
    return out;
  }

  @Test
  void retryAfterInSecondsBlocksTheWholeHostUntilTheInstantItNames() {
    Sink sink = new Sink();
    LocalFrontier f = tenPages(Map.of("host.max-rate", 1440), sink); // one a minute
    long at = T0 + HOUR;
    // Its header name in StormCrawler's case, which is not the engine's.
    f.onStatus(tooMany("http://a.example/p0", at, Map.of("protocol.Retry-After", "3600")), sink);
    f.advanceTo(at + 3 * HOUR, sink);
    assertThat(between(sink, at, at + HOUR)).isEmpty();
    assertThat(between(sink, at + HOUR, at + 3 * HOUR)).isNotEmpty();
  }

  @Test
  void retryAfterAsAnHttpDateInEachOfItsThreeFormsBlocksUntilThatDate() {
    Instant until = Instant.ofEpochMilli(T0 + 3 * HOUR).plusSeconds(0);
    for (String pattern :
        List.of("EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'")) {
      String date =
          DateTimeFormatter.ofPattern(pattern, java.util.Locale.US)
              .withZone(ZoneOffset.UTC)
              .format(until);
      assertBlockedUntil(date, until.toEpochMilli());
    }
    String asctime =
        DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", java.util.Locale.US)
            .withZone(ZoneOffset.UTC)
            .format(until);
    assertBlockedUntil(asctime, until.toEpochMilli());
  }

  private static void assertBlockedUntil(String retryAfter, long until) {
    Sink sink = new Sink();
    LocalFrontier f = tenPages(Map.of("host.max-rate", 1440), sink);
    long at = T0 + HOUR;
    f.onStatus(
        tooMany("http://a.example/p0", at, Map.of("protocol.retry-after", retryAfter)), sink);
    f.advanceTo(until + HOUR, sink);
    assertThat(between(sink, at, until)).as(retryAfter).isEmpty();
    assertThat(between(sink, until, until + HOUR)).as(retryAfter).isNotEmpty();
  }

  @Test
  void anAbsurdRetryAfterIsClampedToTheCapNotIgnored() {
    for (String value : List.of("soon", "-5", "99999999999999999999")) {
      Sink sink = new Sink();
      LocalFrontier f =
          tenPages(Map.of("host.max-rate", 1440, "politeness.retry-after.max", "2 h"), sink);
      long at = T0 + HOUR;
      f.onStatus(tooMany("http://a.example/p0", at, Map.of("protocol.retry-after", value)), sink);
      f.advanceTo(at + 4 * HOUR, sink);
      assertThat(between(sink, at, at + 2 * HOUR)).as(value).isEmpty();
      assertThat(between(sink, at + 2 * HOUR, at + 4 * HOUR)).as(value).isNotEmpty();
    }
  }

  @Test
  void aRetryAfterDateInThePastMeansNow() {
    long at = T0 + HOUR;
    // A server whose clock is a few seconds behind the crawler's, and one that is far behind.
    for (long ago : List.of(5_000L, 30 * DAY)) {
      String date =
          DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", java.util.Locale.US)
              .withZone(ZoneOffset.UTC)
              .format(Instant.ofEpochMilli(at - ago));
      Sink sink = new Sink();
      LocalFrontier f =
          tenPages(Map.of("host.max-rate", 1440, "politeness.retry-after.max", "1 d"), sink);
      f.onStatus(tooMany("http://a.example/p0", at, Map.of("protocol.retry-after", date)), sink);
      assertThat(f.store(HOST).host().blockedUntil).as(date).isEqualTo(at);
      // Once the leases of the requests out when it answered run out (one at a time after a 429).
      f.advanceTo(at + HOUR, sink);
      assertThat(between(sink, at, at + 30 * MIN)).as(date).isNotEmpty();
    }
  }

  @Test
  void pushBackWithoutRetryAfterBacksOffDoublingWithJitterUpToTheCap() {
    EngineConfig cfg = EngineConfig.with(Map.of());
    HostPoliteness politeness = new HostPoliteness(cfg, new HostThreshold(cfg));
    HostState h = new HostState();
    long previous = 0;
    for (int n = 1; n <= 20; n++) {
      h.pushBacks = n;
      long backoff = politeness.backoffMs(h, HOST, T0 + n);
      long nominal = Math.min(cfg.maxBackoffMs, cfg.backoffMs << Math.min(n - 1, 30));
      assertThat(backoff)
          .isBetween((long) (nominal * 0.75), Math.min(cfg.maxBackoffMs, (long) (nominal * 1.25)));
      if (n <= 8) {
        assertThat(backoff).isGreaterThan(previous); // doubling outruns a quarter's jitter
      }
      previous = backoff;
    }
    // Hosts blocked at one instant do not all come back at one instant.
    h.pushBacks = 3;
    java.util.Set<Long> returns = new java.util.HashSet<>();
    for (int i = 0; i < 50; i++) {
      returns.add(politeness.backoffMs(h, "host" + i + ".example", T0));
    }
    assertThat(returns.size()).isGreaterThan(40);
  }

  @Test
  void pushBacksInARowBlockLongerAndAreForgivenAfterSuccessfulFetches() {
    Sink sink = new Sink();
    LocalFrontier f = tenPages(Map.of("host.max-rate", 1440, "politeness.backoff.jitter", 0), sink);
    HostState h = f.store(HOST).host();
    long at = T0 + HOUR;
    f.onStatus(tooMany("http://a.example/p0", at, Map.of()), sink);
    assertThat(h.blockedUntil).isEqualTo(at + MIN);
    f.onStatus(tooMany("http://a.example/p1", at + 2 * MIN, Map.of()), sink);
    assertThat(h.blockedUntil).isEqualTo(at + 4 * MIN); // doubled
    for (int i = 2; i < 10; i++) {
      f.onStatus(fetched("http://a.example/p" + i, at + 5 * MIN, true), sink);
    }
    f.onStatus(fetched("http://a.example/p0", at + 5 * MIN, true), sink);
    f.onStatus(fetched("http://a.example/p1", at + 5 * MIN, true), sink);
    f.onStatus(tooMany("http://a.example/p2", at + 6 * MIN, Map.of()), sink);
    assertThat(h.blockedUntil).isEqualTo(at + 7 * MIN); // ten fetches forgave: one minute again
  }

  @Test
  void leasesThatRunOutDuringABlockWaitForItToEnd() {
    Sink sink = new Sink();
    // Leases of a minute run out long before the block (a day) ends.
    LocalFrontier f =
        tenPages(Map.of("host.max-rate", 1440, "lease", "1 min", "lease.max", "1 min"), sink);
    long at = T0 + HOUR;
    f.onStatus(tooMany("http://a.example/p0", at, Map.of("protocol.retry-after", "86400")), sink);
    f.advanceTo(at + 2 * DAY, sink);
    assertThat(between(sink, at, at + DAY)).isEmpty();
    assertThat(between(sink, at + DAY, at + 2 * DAY)).isNotEmpty();
  }

  @Test
  void ratesHaveAFloorAndPacingNeverSwitchesOffUnderEndlessPushBack() {
    Sink sink = new Sink();
    LocalFrontier f =
        tenPages(Map.of("host.max-rate", 1440, "politeness.backoff.max", "1 min"), sink);
    long t = T0 + HOUR;
    for (int i = 0; i < 2000; i++) {
      t += MIN;
      f.onStatus(tooMany("http://a.example/p" + (i % 10), t, Map.of()), sink);
    }
    HostState h = f.store(HOST).host();
    assertThat(f.engine().thresholds().maxRate(h, t)).isEqualTo(1.0); // host.min-rate
    sink.out.clear();
    f.advanceTo(t + 5 * DAY, sink);
    assertThat(sink.out).hasSizeBetween(4, 6); // one a day, not a flood
    for (int i = 1; i < sink.out.size(); i++) {
      assertThat(sink.out.get(i).time() - sink.out.get(i - 1).time()).isGreaterThanOrEqualTo(DAY);
    }
  }

  @Test
  void aTinyHostRateOverrideIsHeldAtTheFloor() {
    Sink sink = new Sink();
    LocalFrontier f = tenPages(Map.of(), sink);
    f.setHostRate(HOST, 1e-12, sink);
    sink.out.clear();
    f.advanceTo(T0 + 10 * DAY, sink);
    assertThat(sink.out).hasSizeBetween(9, 11); // host.min-rate: one a day
  }

  @Test
  void aCrawlDelayAboveTheMaximumParksTheHostUntilRobotsSayOtherwise() {
    Counting why = new Counting();
    LocalFrontier f =
        new LocalFrontier(EngineConfig.with(Map.of("host.max-rate", 1440))).observe(why);
    f.setGlobalLambda(0.01);
    Sink sink = new Sink();
    for (int i = 0; i < 10; i++) {
      f.onStatus(discovered("http://a.example/p" + i, T0), sink);
    }
    f.advanceTo(T0 + MIN, sink);
    long at = T0 + 2 * MIN;
    f.onStatus(
        answer(
            "http://a.example/p0",
            CrawlStatus.FETCHED,
            at,
            200,
            Map.of("robots.crawl.delay", "1e16")),
        sink);
    assertThat(why.parked).isEqualTo(1);
    sink.out.clear();
    f.advanceTo(at + DAY - MIN, sink);
    assertThat(sink.out).isEmpty();
    // A status with a sane crawl-delay unparks it, at the rate that delay allows.
    f.onStatus(
        answer(
            "http://a.example/p1",
            CrawlStatus.FETCHED,
            at + DAY - MIN,
            200,
            Map.of("robots.crawl.delay", "3600")),
        sink);
    f.advanceTo(at + 2 * DAY, sink);
    assertThat(sink.out).hasSizeGreaterThanOrEqualTo(10);
    for (int i = 1; i < sink.out.size(); i++) { // one an hour
      assertThat(sink.out.get(i).time() - sink.out.get(i - 1).time()).isGreaterThanOrEqualTo(HOUR);
    }
  }

  /**
   * A crawl-delay that asks for less than {@code host.min-rate} parks the host: the rate floor must
   * never raise a robots.txt limit. The crawler answers every request at once, always with the same
   * robots.txt.
   */
  @Test
  void aCrawlDelayLongerThanTheMinimumRateAllowsParksTheHostAndIsNeverExceeded() {
    Counting why = new Counting();
    LocalFrontier f =
        new LocalFrontier(EngineConfig.with(Map.of("host.max-rate", 1440, "host.min-rate", 24)))
            .observe(why);
    f.setGlobalLambda(0.01);
    Sink sink = new Sink();
    for (int i = 0; i < 10; i++) {
      f.onStatus(discovered("http://a.example/p" + i, T0), sink);
    }
    long crawlDelay = 2 * HOUR; // 12 a day, below host.min-rate's 24
    List<Long> fetches = new ArrayList<>();
    int answered = 0;
    for (long t = T0; t <= T0 + 4 * DAY; t += MIN) {
      f.advanceTo(t, sink);
      while (answered < sink.out.size()) {
        CrawlRequest r = sink.out.get(answered++);
        fetches.add(t);
        f.onStatus(
            answer(
                r.url(),
                CrawlStatus.FETCHED,
                t,
                200,
                Map.of("robots.crawl.delay", Long.toString(crawlDelay / 1000))),
            sink);
      }
    }
    assertThat(fetches).hasSizeGreaterThanOrEqualTo(2);
    for (int i = 1; i < fetches.size(); i++) {
      assertThat(fetches.get(i) - fetches.get(i - 1))
          .as("gap before fetch %d of %s", i, fetches)
          .isGreaterThanOrEqualTo(crawlDelay);
    }
    assertThat(why.parked).as("parked instead of crawled at host.min-rate").isPositive();
  }

  @Test
  void aHostOutageIsNotAPageError() {
    Sink sink = new Sink();
    LocalFrontier f = tenPages(Map.of("host.max-rate", 1440), sink);
    // Six hours in which every fetch of the host fails to connect.
    long start = T0 + HOUR;
    long end = start + 6 * HOUR;
    sink.out.clear();
    for (long t = start; t < end; t += MIN) {
      f.advanceTo(t, sink);
      for (CrawlRequest r : sink.out) {
        f.onStatus(answer(r.url(), CrawlStatus.FETCH_ERROR, t, null, Map.of()), sink);
      }
      sink.out.clear();
    }
    for (int i = 0; i < 10; i++) {
      PageState p = f.store(HOST).page("http://a.example/p" + i);
      assertThat(p.status).as("p" + i).isNotEqualTo((byte) CrawlStatus.ERROR.ordinal());
      assertThat((int) p.errors)
          .as("p" + i)
          .isLessThan(EngineConfig.with(Map.of()).maxFetchErrors - 1);
    }
    // After it, the pages are fetched again.
    sink.out.clear();
    f.advanceTo(end + DAY, sink);
    assertThat(sink.out.stream().map(CrawlRequest::url).distinct()).hasSize(10);
  }

  @Test
  void aPageThatFailsWhileItsHostAnswersOthersMovesTowardsError() {
    Sink sink = new Sink();
    LocalFrontier f = tenPages(Map.of("host.max-rate", 1440, "fetch-error.backoff", "1 min"), sink);
    long t = T0 + HOUR;
    for (int round = 0; round < 3; round++) {
      for (int i = 1; i < 10; i++) {
        f.onStatus(fetched("http://a.example/p" + i, t, true), sink);
      }
      f.onStatus(answer("http://a.example/p0", CrawlStatus.FETCH_ERROR, t, null, Map.of()), sink);
      t += HOUR;
    }
    assertThat(f.store(HOST).page("http://a.example/p0").status)
        .isEqualTo((byte) CrawlStatus.ERROR.ordinal());
  }

  @Test
  void responseTimesThatRiseWithTheRateStepItDownAndFlatOnesStepItBack() {
    Sink sink = new Sink();
    LocalFrontier f = tenPages(Map.of("host.max-rate", 1440), sink);
    HostThreshold thresholds = f.engine().thresholds();
    long t = T0 + HOUR;
    for (int i = 0; i < 20; i++) {
      f.onStatus(rt(t += MIN, 200), sink);
    }
    HostState h = f.store(HOST).host();
    assertThat(thresholds.maxRate(h, t)).isEqualTo(1440);
    // Five hours of responses a hundred times slower: a step down each hour while they stand out.
    for (int i = 0; i < 5 * 60; i++) {
      f.onStatus(rt(t += MIN, 20_000), sink);
    }
    double slowed = thresholds.maxRate(h, t);
    assertThat(slowed).isBetween(1440 * Math.pow(0.9, 5) - 1, 1440 * 0.81 + 1);
    // Flat again: back up, 1 % an hour, to the limit, which is then the configured one again.
    for (int i = 0; i < 80 * 60; i++) {
      f.onStatus(rt(t += MIN, 200), sink);
    }
    assertThat(thresholds.maxRate(h, t)).isEqualTo(1440);
    assertThat(h.capacityRate).isZero();
  }

  private static StatusEvent rt(long time, int ms) {
    return answer(
        "http://a.example/p0",
        CrawlStatus.FETCHED,
        time,
        200,
        Map.of("fetch.loadingTime", Integer.toString(ms)));
  }

  @Test
  void requestsQueuedBeforeABlockAndRefusedInItRepeatThePushBackThatSetIt() {
    Sink sink = new Sink();
    LocalFrontier f = tenPages(Map.of("host.max-rate", 1440, "politeness.backoff.jitter", 0), sink);
    HostState h = f.store(HOST).host();
    long at = T0 + HOUR;
    f.onStatus(tooMany("http://a.example/p0", at, Map.of()), sink);
    double halved = f.engine().thresholds().maxRate(h, at);
    for (int i = 1; i < 5; i++) { // the crawler's queue for the host, refused within the minute
      f.onStatus(tooMany("http://a.example/p" + i, at + i * 1000, Map.of()), sink);
    }
    assertThat(h.pushBacks).isEqualTo(1); // the back-off did not double
    assertThat(h.blockedUntil).isEqualTo(at + 4000 + MIN); // the last refusal's own back-off
    assertThat(f.engine().thresholds().maxRate(h, at + 5000)).isEqualTo(halved);
    assertThat(halved).isEqualTo(1440 * 0.9); // politeness.capacity.on-429
  }

  @Test
  void aPushBackDeliveredAgainAfterItsPageWentOutAgainLeavesTheRequestOutNowAlone() {
    Sink sink = new Sink();
    LocalFrontier f = new LocalFrontier(EngineConfig.with(Map.of("host.max-rate", 1440)));
    f.setGlobalLambda(0.01);
    String url = "http://a.example/p0";
    f.onStatus(discovered(url, T0), sink);
    f.advanceTo(T0 + MIN, sink);
    assertThat(sink.out).hasSize(1);
    long first = sink.out.get(0).time();
    StatusEvent refused = tooMany(url, first + 10_000, Map.of());
    f.onStatus(refused, sink);
    f.advanceTo(first + 10 * MIN, sink);
    assertThat(sink.out).as("again once the block ended").hasSize(2);
    CrawlRequest again = sink.out.get(1);
    // The same 429 once more: a record sent twice, or a crawler whose clock runs slow.
    f.onStatus(refused, sink);
    f.advanceTo(again.lease() - 1, sink);
    assertThat(sink.out).as("sent while its request is still out").hasSize(2);
    HostState h = f.store(HOST).host();
    assertThat(h.inFlight).isEqualTo(1);
    assertThat(f.store(HOST).page(url).leaseUntil).isEqualTo(again.lease());
    // What it says of the host still counts, from the job's clock: the 429's own time is past.
    assertThat(h.blockedUntil).isGreaterThan(first + 10 * MIN);
  }

  @Test
  void aPushBackFromACrawlerWhoseClockIsBehindBlocksFromTheJobsClock() {
    Sink sink = new Sink();
    LocalFrontier f = tenPages(Map.of("host.max-rate", 1440), sink);
    long at = T0 + HOUR;
    // Two hours behind: counted from its own time, the block would be over before it arrived.
    f.onStatus(
        tooMany("http://a.example/p0", at - 2 * HOUR, Map.of("protocol.retry-after", "3600")),
        sink);
    f.advanceTo(at + 3 * HOUR, sink);
    assertThat(between(sink, at, at + HOUR)).isEmpty();
    assertThat(between(sink, at + HOUR, at + 3 * HOUR)).isNotEmpty();
    // Without Retry-After: the back-off, from now.
    f.onStatus(tooMany("http://a.example/p1", at, Map.of()), sink);
    HostState h = f.store(HOST).host();
    assertThat(h.blockedUntil).isGreaterThanOrEqualTo(at + 3 * HOUR + MIN / 2);
  }

  @Test
  void withPushBackOffTheLimitIsFixed() {
    Sink sink = new Sink();
    LocalFrontier f = tenPages(Map.of("host.max-rate", 1440, "politeness.push-back", false), sink);
    f.onStatus(
        tooMany("http://a.example/p0", T0 + HOUR, Map.of("protocol.retry-after", "3600")), sink);
    HostState h = f.store(HOST).host();
    assertThat(h.blockedUntil).isZero();
    assertThat(f.engine().thresholds().maxRate(h, T0 + HOUR)).isEqualTo(1440);
  }

  @Test
  void catchUpAfterDowntimeSendsEachUrlAtMostOnceWithinOneAdvanceAndKeepsPacing() {
    Sink sink = new Sink();
    LocalFrontier f = tenPages(Map.of("host.max-rate", 1440, "lease", "1 h"), sink);
    // The first requests went out; then no status for six hours, and the watermark jumps once.
    sink.out.clear();
    f.advanceInOneStep(T0 + 7 * HOUR, sink);
    assertThat(sink.out.stream().map(CrawlRequest::url).distinct().count())
        .isEqualTo(sink.out.size());
    for (int i = 1; i < sink.out.size(); i++) {
      assertThat(sink.out.get(i).time() - sink.out.get(i - 1).time()).isGreaterThanOrEqualTo(MIN);
    }
    // Once their leases (doubled: each had run out once) have run from the catch-up, the URLs
    // still unanswered go again.
    sink.out.clear();
    f.advanceTo(T0 + 7 * HOUR + 2 * HOUR + MIN, sink);
    assertThat(sink.out).isNotEmpty();
  }

  @Test
  void aLeaseRunsFromWhenItsRequestIsWrittenSoACatchUpAfterSeveralLeasesIsNotSentAgainAtOnce() {
    Sink sink = new Sink();
    LocalFrontier f = tenPages(Map.of("host.max-rate", 1440, "lease", "1 h"), sink);
    // Down for six leases: the watermark jumps once, and the catch-up is written at T0 + 7 h.
    sink.out.clear();
    f.advanceInOneStep(T0 + 7 * HOUR, sink);
    assertThat(sink.out).isNotEmpty();
    for (CrawlRequest r : sink.out) {
      assertThat(r.lease()).as(r.url()).isGreaterThanOrEqualTo(T0 + 8 * HOUR);
    }
    // The crawler works through them: time moves a minute at a time, no answer yet.
    sink.out.clear();
    for (long t = T0 + 7 * HOUR + MIN; t < T0 + 8 * HOUR; t += MIN) {
      f.advanceTo(t, sink);
    }
    assertThat(sink.out).extracting(CrawlRequest::url).isEmpty();
  }

  @Test
  void aHostHasInFlightAtMostHostInFlightOfItsRateHalfALeaseUnlessSet() {
    // One a minute, no status comes back: half an hour-long lease lets all ten go, three minutes
    // three (a crawler that takes the host's URLs slowly holds no more of them waiting).
    Sink halfLease = new Sink();
    tenPages(Map.of("host.max-rate", 1440, "lease", "1 h"), halfLease);
    assertThat(halfLease.out).extracting(CrawlRequest::url).doesNotHaveDuplicates().hasSize(10);
    Sink set = new Sink();
    tenPages(Map.of("host.max-rate", 1440, "lease", "1 h", "host.in-flight", "3 min"), set);
    assertThat(set.out).hasSize(3);
  }

  @Test
  void aBadPolitenessSettingIsRefusedNamingItsKey() {
    Map<String, Object> bad =
        Map.of(
            "host.min-rate",
            0.0001,
            "host.max-rate",
            1e9,
            "politeness.backoff.max",
            "1 s",
            "politeness.backoff.jitter",
            1.5,
            "politeness.outage.min-failures",
            17,
            "politeness.outage.failure-share",
            1,
            "politeness.capacity.on-429",
            1.2,
            "politeness.response-time.flat",
            10,
            "politeness.retry-after.max",
            "0",
            "robots.max-crawl-delay",
            "0");
    bad.forEach(
        (key, value) ->
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> EngineConfig.fromMap(Map.of(key, value), "recrawl.engine."))
                .as(key)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("recrawl.engine." + key));
  }

  /** Counts parked hosts. */
  private static final class Counting implements Consumer<EngineOutcome> {
    int parked;

    @Override
    public void accept(EngineOutcome o) {
      parked += o.parked();
    }
  }
}
