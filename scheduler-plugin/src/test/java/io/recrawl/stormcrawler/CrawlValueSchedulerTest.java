package io.recrawl.stormcrawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.persistence.Scheduler;
import com.digitalpebble.stormcrawler.persistence.Status;
import io.recrawl.schedule.PageHistory;
import io.recrawl.value.Freshness;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CrawlValueSchedulerTest {

  private static final Instant T0 = Instant.parse("2024-05-01T00:00:00Z");

  /** A clock the test moves. */
  private static final class TestClock extends Clock {
    private Instant now = T0;

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }

    void advanceMinutes(double minutes) {
      now = now.plusMillis(Math.round(minutes * 60_000));
    }
  }

  private final TestClock clock = new TestClock();

  private CrawlValueScheduler scheduler(Map<String, Object> overrides) {
    Map<String, Object> conf = new HashMap<>();
    conf.put("recrawl.scheduler.threshold", 0.01);
    conf.putAll(overrides);
    CrawlValueScheduler s = new CrawlValueScheduler(clock);
    s.init(conf);
    return s;
  }

  /** Minutes from now until the scheduled date; +infinity for never. */
  private double minutes(Optional<Date> next) {
    return next.map(d -> (d.getTime() - clock.millis()) / 60_000.0)
        .orElse(Double.POSITIVE_INFINITY);
  }

  /** A 200 fetch as StormCrawler's parser leaves it: the new signature and (copied) the old one. */
  private static void parsed(Metadata md, String signature) {
    String old = md.getFirstValue("signature");
    md.remove("signatureOld");
    if (old != null) {
      md.setValue("signatureOld", old);
    }
    md.setValue("signature", signature);
    md.setValue("fetch.statusCode", "200");
  }

  @Test
  void discoveredIsDueNow() {
    Optional<Date> next = scheduler(Map.of()).schedule(Status.DISCOVERED, new Metadata());
    assertThat(next).contains(Date.from(T0));
  }

  @Test
  void firstFetchUsesThePriorRate() {
    CrawlValueScheduler s = scheduler(Map.of());
    Metadata md = new Metadata();
    parsed(md, "A");
    double m = minutes(s.schedule(Status.FETCHED, md));
    // Prior: one change a day, weight 1, theta 0.01 day.
    double expected = Freshness.INSTANCE.expectedTimeToThreshold(1, 1, 1, 0.01) * 1440;
    assertThat(m).isCloseTo(expected, within(0.01));
    assertThat(md.getFirstValue(PageHistory.LAST_FETCH)).isEqualTo(T0.toString());
    assertThat(md.getFirstValue(PageHistory.SHAPE)).isNotNull();
  }

  @Test
  void intervalsShrinkOnChangesAndGrowOnUnchangedEvidence() {
    CrawlValueScheduler s = scheduler(Map.of());
    Metadata md = new Metadata();
    parsed(md, "A");
    double interval = minutes(s.schedule(Status.FETCHED, md));

    // Three fetches that each find new content.
    for (String sig : new String[] {"B", "C", "D"}) {
      clock.advanceMinutes(interval);
      parsed(md, sig);
      double next = minutes(s.schedule(Status.FETCHED, md));
      assertThat(next).as("after change to %s", sig).isLessThan(interval);
      interval = next;
    }
    // A 304: the protocol gives no body, the parser does not run; signature keys are stale.
    clock.advanceMinutes(interval);
    md.setValue("fetch.statusCode", "304");
    double after304 = minutes(s.schedule(Status.FETCHED, md));
    assertThat(after304).isGreaterThan(interval);
    interval = after304;

    // A 200 whose signature is the same as before.
    clock.advanceMinutes(interval);
    parsed(md, "D");
    double afterSame = minutes(s.schedule(Status.FETCHED, md));
    assertThat(afterSame).isGreaterThan(interval);
    interval = afterSame;

    // ... and again, with the page now changing: shrinks again.
    clock.advanceMinutes(interval);
    parsed(md, "E");
    assertThat(minutes(s.schedule(Status.FETCHED, md))).isLessThan(interval);
  }

  @Test
  void withoutSignatureOldItKeepsItsOwnCopyOfTheSignature() {
    CrawlValueScheduler s = scheduler(Map.of());
    Metadata md = new Metadata();
    md.setValue("signature", "A");
    md.setValue("fetch.statusCode", "200");
    double first = minutes(s.schedule(Status.FETCHED, md));
    assertThat(md.getFirstValue(PageHistory.SIGNATURE)).isEqualTo("A");
    String shape = md.getFirstValue(PageHistory.SHAPE);

    clock.advanceMinutes(first);
    md.setValue("signature", "A"); // parser without keyNameCopy: only the new signature
    double same = minutes(s.schedule(Status.FETCHED, md));
    assertThat(same).isGreaterThan(first);
    assertThat(md.getFirstValue(PageHistory.SHAPE)).isEqualTo(shape); // unchanged keeps the shape

    clock.advanceMinutes(same);
    md.setValue("signature", "B");
    assertThat(minutes(s.schedule(Status.FETCHED, md))).isLessThan(same);
    assertThat(md.getFirstValue(PageHistory.SIGNATURE)).isEqualTo("B");
  }

  @Test
  void etagAndLastModifiedAreEvidenceWithoutSignatures() {
    CrawlValueScheduler s = scheduler(Map.of());
    Metadata md = new Metadata();
    md.setValue("fetch.statusCode", "200");
    md.setValue("protocol.etag", "\"v1\"");
    double first = minutes(s.schedule(Status.FETCHED, md));
    assertThat(md.getFirstValue(PageHistory.ETAG)).isEqualTo("\"v1\"");

    clock.advanceMinutes(first);
    md.setValue("protocol.etag", "\"v2\"");
    double afterNewEtag = minutes(s.schedule(Status.FETCHED, md));
    assertThat(afterNewEtag).isLessThan(first);

    // No ETag any more, but a Last-Modified older than the previous fetch: unchanged.
    clock.advanceMinutes(afterNewEtag);
    md.remove("protocol.etag");
    md.remove(PageHistory.ETAG);
    md.setValue("protocol.last-modified", "Wed, 01 May 2024 00:00:00 GMT");
    double afterOldLastModified = minutes(s.schedule(Status.FETCHED, md));
    assertThat(afterOldLastModified).isGreaterThan(afterNewEtag);

    // A Last-Modified after the previous fetch: changed.
    clock.advanceMinutes(afterOldLastModified);
    md.setValue("protocol.last-modified", clock.instant().minusSeconds(60).toString());
    assertThat(minutes(s.schedule(Status.FETCHED, md))).isLessThan(afterOldLastModified);
  }

  @Test
  void aChangedPagesLastModifiedGivesTheTimeOfTheChange() {
    // First fetch, then one ten hours later that finds new content last modified 4 h before the
    // response (by the server's own Date header, whatever the skew of its clock).
    for (boolean timing : new boolean[] {true, false}) {
      clock.now = T0;
      CrawlValueScheduler s = scheduler(Map.of("recrawl.scheduler.last-modified-timing", timing));
      Metadata md = new Metadata();
      parsed(md, "A");
      s.schedule(Status.FETCHED, md);
      double shape = Double.parseDouble(md.getFirstValue(PageHistory.SHAPE));
      double rate = Double.parseDouble(md.getFirstValue(PageHistory.RATE));
      clock.advanceMinutes(600);
      parsed(md, "B");
      Instant serverNow = clock.instant().plusSeconds(3600); // the server's clock is an hour fast
      md.setValue("protocol.date", serverNow.toString());
      md.setValue("protocol.last-modified", serverNow.minusSeconds(4 * 3600).toString());
      s.schedule(Status.FETCHED, md);
      double newShape = Double.parseDouble(md.getFirstValue(PageHistory.SHAPE));
      double newRate = Double.parseDouble(md.getFirstValue(PageHistory.RATE));
      if (timing) {
        // One change, four hours of no change since: conjugate.
        assertThat(newShape).isCloseTo(shape + 1, within(1e-9));
        assertThat(newRate).isCloseTo(rate + 4.0 / 24, within(1e-9));
      } else {
        assertThat(newRate).isNotCloseTo(rate + 4.0 / 24, within(1e-3));
      }
    }
  }

  @Test
  void aLastModifiedStampedAtResponseTimeIsNotATimeOfChange() {
    CrawlValueScheduler s = scheduler(Map.of());
    CrawlValueScheduler reference =
        scheduler(Map.of("recrawl.scheduler.last-modified-timing", false));
    Metadata md = new Metadata();
    Metadata ref = new Metadata();
    parsed(md, "A");
    parsed(ref, "A");
    s.schedule(Status.FETCHED, md);
    reference.schedule(Status.FETCHED, ref);
    clock.advanceMinutes(600);
    for (Metadata m : new Metadata[] {md, ref}) {
      parsed(m, "B");
      m.setValue("protocol.date", "Wed, 01 May 2024 10:00:00 GMT");
      m.setValue("protocol.last-modified", "Wed, 01 May 2024 10:00:00 GMT");
    }
    assertThat(s.schedule(Status.FETCHED, md)).isEqualTo(reference.schedule(Status.FETCHED, ref));
    assertThat(md.getFirstValue(PageHistory.SHAPE)).isEqualTo(ref.getFirstValue(PageHistory.SHAPE));
  }

  @Test
  void serverLastModifiedIsKeptForConditionalGets() {
    Metadata md = new Metadata();
    md.setValue("fetch.statusCode", "200");
    md.setValue("protocol.last-modified", "Tue, 30 Apr 2024 10:00:00 GMT");
    scheduler(Map.of()).schedule(Status.FETCHED, md);
    // As an ISO instant, the only form StormCrawler 2.4's HttpHeaders.formatHttpDate turns back
    // into
    // an If-Modified-Since header.
    assertThat(md.getFirstValue("last-modified")).isEqualTo("2024-04-30T10:00:00Z");
    assertThat(
            com.digitalpebble.stormcrawler.protocol.HttpHeaders.formatHttpDate(
                md.getFirstValue("last-modified")))
        .isEqualTo("Tue, 30 Apr 2024 10:00:00 GMT");

    Metadata off = new Metadata();
    off.setValue("fetch.statusCode", "200");
    off.setValue("protocol.last-modified", "Tue, 30 Apr 2024 10:00:00 GMT");
    scheduler(Map.of("recrawl.scheduler.set-last-modified", false)).schedule(Status.FETCHED, off);
    assertThat(off.getFirstValue("last-modified")).isNull();

    Metadata garbage = new Metadata();
    garbage.setValue("protocol.last-modified", "soon");
    scheduler(Map.of()).schedule(Status.FETCHED, garbage);
    assertThat(garbage.getFirstValue("last-modified")).isNull();
  }

  @Test
  void noEvidenceLeavesTheEstimateAlone() {
    CrawlValueScheduler s = scheduler(Map.of());
    Metadata md = new Metadata();
    md.setValue("fetch.statusCode", "200");
    double first = minutes(s.schedule(Status.FETCHED, md));
    String shape = md.getFirstValue(PageHistory.SHAPE);
    String rate = md.getFirstValue(PageHistory.RATE);
    clock.advanceMinutes(first);
    assertThat(minutes(s.schedule(Status.FETCHED, md))).isCloseTo(first, within(0.01));
    assertThat(md.getFirstValue(PageHistory.SHAPE)).isEqualTo(shape);
    assertThat(md.getFirstValue(PageHistory.RATE)).isEqualTo(rate);
    assertThat(md.getFirstValue(PageHistory.LAST_FETCH)).isEqualTo(clock.instant().toString());
  }

  @Test
  void fetchErrorsBackOffDoublingThenStop() {
    CrawlValueScheduler s =
        scheduler(Map.of("fetchInterval.fetch.error", 120, "max.fetch.errors", 3));
    Metadata md = new Metadata();
    parsed(md, "A");
    s.schedule(Status.FETCHED, md);
    String shape = md.getFirstValue(PageHistory.SHAPE);
    String last = md.getFirstValue(PageHistory.LAST_FETCH);

    clock.advanceMinutes(300);
    assertThat(minutes(s.schedule(Status.FETCH_ERROR, md))).isCloseTo(120, within(1e-6));
    assertThat(md.getFirstValue(PageHistory.ERRORS)).isEqualTo("1");
    clock.advanceMinutes(120);
    assertThat(minutes(s.schedule(Status.FETCH_ERROR, md))).isCloseTo(240, within(1e-6));
    assertThat(md.getFirstValue(PageHistory.ERRORS)).isEqualTo("2");
    // Errors are not change evidence and do not move the last fetch.
    assertThat(md.getFirstValue(PageHistory.SHAPE)).isEqualTo(shape);
    assertThat(md.getFirstValue(PageHistory.LAST_FETCH)).isEqualTo(last);
    clock.advanceMinutes(240);
    assertThat(s.schedule(Status.FETCH_ERROR, md)).isEmpty();
    assertThat(md.getFirstValue(PageHistory.ERRORS)).isNull();
  }

  @Test
  void aSuccessfulFetchForgetsPastErrors() {
    CrawlValueScheduler s =
        scheduler(Map.of("fetchInterval.fetch.error", 120, "max.fetch.errors", 3));
    Metadata md = new Metadata();
    s.schedule(Status.FETCH_ERROR, md);
    s.schedule(Status.FETCH_ERROR, md);
    parsed(md, "A");
    s.schedule(Status.FETCHED, md);
    assertThat(md.getFirstValue(PageHistory.ERRORS)).isNull();
    assertThat(minutes(s.schedule(Status.FETCH_ERROR, md))).isCloseTo(120, within(1e-6));
  }

  @Test
  void errorIsNeverUnlessARetryIsConfigured() {
    assertThat(scheduler(Map.of()).schedule(Status.ERROR, new Metadata())).isEmpty();
    assertThat(scheduler(Map.of("fetchInterval.error", -1)).schedule(Status.ERROR, new Metadata()))
        .isEmpty();
    Optional<Date> retry =
        scheduler(Map.of("fetchInterval.error", 44640)).schedule(Status.ERROR, new Metadata());
    assertThat(minutes(retry)).isCloseTo(44640, within(1e-6));
  }

  @Test
  void intervalsRespectTheBounds() {
    Metadata md = new Metadata();
    parsed(md, "A");
    // A tiny threshold would recrawl within minutes: the minimum holds it back.
    assertThat(
            minutes(
                scheduler(
                        Map.of(
                            "recrawl.scheduler.threshold",
                            1e-9,
                            "recrawl.scheduler.interval.min",
                            30))
                    .schedule(Status.FETCHED, md)))
        .isCloseTo(30, within(1e-6));
    // A threshold at the value ceiling (w/delta = 1 day with the prior) means never: the maximum
    // applies.
    Metadata md2 = new Metadata();
    parsed(md2, "A");
    assertThat(
            minutes(
                scheduler(
                        Map.of(
                            "recrawl.scheduler.threshold",
                            1.0,
                            "recrawl.scheduler.interval.max",
                            2880))
                    .schedule(Status.FETCHED, md2)))
        .isCloseTo(2880, within(1e-6));
    // No maximum: a page not worth a crawl at its mean rate is never scheduled...
    Metadata md3 = new Metadata();
    parsed(md3, "A");
    assertThat(
            scheduler(
                    Map.of(
                        "recrawl.scheduler.threshold",
                        1.0,
                        "recrawl.scheduler.interval.max",
                        -1,
                        "recrawl.scheduler.estimator.expected-value",
                        false))
                .schedule(Status.FETCHED, md3))
        .isEmpty();
    // ...but averaged over what is known of its rate (one prior observation) it is only put off.
    Metadata md5 = new Metadata();
    parsed(md5, "A");
    double putOff =
        minutes(
            scheduler(
                    Map.of(
                        "recrawl.scheduler.threshold", 1.0, "recrawl.scheduler.interval.max", -1))
                .schedule(Status.FETCHED, md5));
    assertThat(putOff / 1440)
        .isCloseTo(Freshness.INSTANCE.expectedTimeToThreshold(1, 1, 1, 1.0), within(1e-6))
        .isGreaterThan(2);
    // Fetch-error back-off stops at the maximum too.
    CrawlValueScheduler s =
        scheduler(
            Map.of(
                "fetchInterval.fetch.error",
                1000,
                "max.fetch.errors",
                10,
                "recrawl.scheduler.interval.max",
                2880));
    Metadata md4 = new Metadata();
    double last = 0;
    for (int i = 0; i < 5; i++) {
      last = minutes(s.schedule(Status.FETCH_ERROR, md4));
    }
    assertThat(last).isCloseTo(2880, within(1e-6));
  }

  @Test
  void intervalsStayWithinBoundsOverALongRandomCrawl() {
    CrawlValueScheduler s =
        scheduler(
            Map.of(
                "recrawl.scheduler.interval.min",
                120,
                "recrawl.scheduler.interval.max",
                4320,
                "max.fetch.errors",
                1000));
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(5);
    Metadata md = new Metadata();
    for (int i = 0; i < 500; i++) {
      int kind = rnd.nextInt(4);
      Status status = Status.FETCHED;
      if (kind == 0) {
        parsed(md, "S" + rnd.nextInt(3));
      } else if (kind == 1) {
        md.setValue("fetch.statusCode", "304");
      } else if (kind == 2) {
        parsed(md, "S" + i);
      } else {
        status = Status.FETCH_ERROR;
      }
      double m = minutes(s.schedule(status, md));
      assertThat(m).isBetween(status == Status.FETCH_ERROR ? 0.0 : 120.0, 4320.0);
      clock.advanceMinutes(m);
    }
  }

  @Test
  void heavierPagesAreRecrawledSooner() {
    Map<String, Object> conf = Map.of("recrawl.scheduler.weight.key", "pageRank");
    Metadata light = new Metadata();
    parsed(light, "A");
    Metadata heavy = new Metadata();
    parsed(heavy, "A");
    heavy.setValue("pageRank", "4.0");
    Metadata garbage = new Metadata();
    parsed(garbage, "A");
    garbage.setValue("pageRank", "lots");
    CrawlValueScheduler s = scheduler(conf);
    double l = minutes(s.schedule(Status.FETCHED, light));
    double h = minutes(s.schedule(Status.FETCHED, heavy));
    assertThat(h).isLessThan(l);
    assertThat(minutes(s.schedule(Status.FETCHED, garbage)))
        .isEqualTo(l); // falls back to the default weight
  }

  @Test
  void theObjectiveIsConfigurable() {
    Metadata a = new Metadata();
    parsed(a, "A");
    Metadata b = new Metadata();
    parsed(b, "A");
    // At theta = 1 day freshness never recrawls a page changing once a day; harmonic staleness
    // does.
    Map<String, Object> conf =
        new HashMap<>(
            Map.of(
                "recrawl.scheduler.threshold",
                1.0,
                "recrawl.scheduler.interval.max",
                -1,
                "recrawl.scheduler.estimator.expected-value",
                false));
    assertThat(scheduler(conf).schedule(Status.FETCHED, a)).isEmpty();
    conf.put("recrawl.objective", "harmonic-staleness");
    assertThat(scheduler(conf).schedule(Status.FETCHED, b)).isPresent();
  }

  @Test
  void stormCrawlerLoadsItFromSchedulerClass() {
    Map<String, Object> conf = new HashMap<>();
    conf.put("scheduler.class", "io.recrawl.stormcrawler.CrawlValueScheduler");
    conf.put("recrawl.scheduler.threshold", 0.05);
    Scheduler s = Scheduler.getInstance(conf);
    assertThat(s).isInstanceOf(CrawlValueScheduler.class);
    Metadata md = new Metadata();
    parsed(md, "A");
    long before = System.currentTimeMillis();
    Date next = s.schedule(Status.FETCHED, md).orElseThrow();
    double expectedMinutes = Freshness.INSTANCE.expectedTimeToThreshold(1, 1, 1, 0.05) * 1440;
    assertThat((next.getTime() - before) / 60_000.0).isCloseTo(expectedMinutes, within(1.0));
  }

  @Test
  void badConfigurationIsRefusedNamingTheKey() {
    assertRefused("recrawl.scheduler.threshold", "zero");
    assertRefused("recrawl.scheduler.threshold", -1);
    assertRefused("recrawl.objective", "speed");
    assertRefused("recrawl.scheduler.interval.min", -5);
    assertRefused("recrawl.scheduler.interval.max", 10); // below the default minimum of 60
    assertRefused("recrawl.scheduler.weight.default", 0);
    assertRefused("recrawl.scheduler.weight.key", " ");
    assertRefused("recrawl.scheduler.estimator.prior-rate", "NaN");
    assertRefused("recrawl.scheduler.estimator.max-shape", 0.5);
    assertRefused("fetchInterval.fetch.error", 0);
    assertRefused("max.fetch.errors", 2.5);
    assertRefused("fetchInterval.error", "sometimes");
    assertRefused("recrawl.scheduler.set-last-modified", "yes");
    assertRefused("recrawl.scheduler.last-modified-timing", 1);
  }

  private void assertRefused(String key, Object value) {
    Map<String, Object> conf = new HashMap<>();
    conf.put(key, value);
    assertThatThrownBy(() -> new CrawlValueScheduler(clock).init(conf))
        .as("%s = %s", key, value)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(key + ":");
  }
}
