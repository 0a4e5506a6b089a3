package io.recrawl.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.recrawl.estimate.ChangeEvidence.Verdict;
import io.recrawl.value.HarmonicStaleness;
import io.recrawl.wire.CrawlStatus;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The core policy without StormCrawler: what a port to another crawler builds on. */
class RevisitPolicyTest {

  private static final long DAY = 86_400_000L;
  private static final long T0 = 1_714_521_600_000L; // 2024-05-01T00:00:00Z

  /** A plain map as the URL's metadata. */
  private static final class MapView implements MetadataView {
    final Map<String, String> map = new HashMap<>();

    @Override
    public String get(String key) {
      return map.get(key);
    }

    @Override
    public void set(String key, String value) {
      map.put(key, value);
    }

    @Override
    public void remove(String key) {
      map.remove(key);
    }
  }

  private static RevisitPolicy policy(Map<String, Object> conf) {
    return new RevisitPolicy(RevisitSettings.fromConf(conf));
  }

  @Test
  void redirectionKeepsTheEstimateAndTheLastFetch() {
    RevisitPolicy p = policy(Map.of("recrawl.scheduler.threshold", 0.01));
    MapView md = new MapView();
    md.set("signature", "A");
    long firstDue = p.schedule(CrawlStatus.FETCHED, md, T0).getAsLong();
    Map<String, String> before = new HashMap<>(md.map);
    OptionalLong redirected = p.schedule(CrawlStatus.REDIRECTION, md, T0 + DAY);
    assertThat(md.map).isEqualTo(before);
    // Same rule as after the fetch, counted from now.
    assertThat(redirected.getAsLong() - (T0 + DAY)).isEqualTo(firstDue - T0);
  }

  @Test
  void evidenceFollowsTheConfiguredProtocolPrefix() {
    RevisitPolicy p = policy(Map.of("protocol.md.prefix", "http."));
    MapView md = new MapView();
    md.set("http.etag", "\"a\"");
    p.schedule(CrawlStatus.FETCHED, md, T0);
    md.set("http.etag", "W/\"a\"");
    assertThat(p.evidence(md)).isEqualTo(Verdict.UNCHANGED);
    md.set("http.etag", "\"b\"");
    assertThat(p.evidence(md)).isEqualTo(Verdict.CHANGED);
    md.set("fetch.statusCode", "304");
    assertThat(p.evidence(md)).isEqualTo(Verdict.UNCHANGED);
  }

  @Test
  void unreadableHistoryFallsBackToThePrior() {
    RevisitPolicy p =
        policy(
            Map.of(
                "recrawl.objective",
                "harmonic-staleness",
                "recrawl.scheduler.threshold",
                0.2,
                "recrawl.scheduler.interval.max",
                -1));
    MapView md = new MapView();
    md.set(PageHistory.SHAPE, "lots");
    md.set(PageHistory.RATE, "-3");
    md.set(PageHistory.LAST_FETCH, "yesterday");
    md.set(PageHistory.ERRORS, "x");
    long due = p.schedule(CrawlStatus.FETCHED, md, T0).getAsLong();
    double expectedDays = HarmonicStaleness.INSTANCE.timeToThreshold(1, 1, 0.2);
    assertThat((due - T0) / (double) DAY).isCloseTo(expectedDays, within(1e-6));
    assertThat(md.get(PageHistory.SHAPE)).isEqualTo("1.0");
  }

  @Test
  void aClockThatGoesBackwardsAddsNoEvidence() {
    RevisitPolicy p = policy(Map.of());
    MapView md = new MapView();
    md.set("signature", "A");
    p.schedule(CrawlStatus.FETCHED, md, T0);
    String shape = md.get(PageHistory.SHAPE);
    String rate = md.get(PageHistory.RATE);
    md.set("signatureOld", "A");
    md.set("signature", "B");
    p.schedule(CrawlStatus.FETCHED, md, T0 - DAY);
    assertThat(md.get(PageHistory.SHAPE)).isEqualTo(shape);
    assertThat(md.get(PageHistory.RATE)).isEqualTo(rate);
  }

  @Test
  void datesBeyondWhatAnInstantHoldsAreNoDates() {
    RevisitPolicy p = policy(Map.of());
    MapView md = new MapView();
    md.set(PageHistory.LAST_FETCH, "+300000000-01-01T00:00:00Z");
    md.set("protocol.last-modified", "+999999999-12-31");
    md.set("protocol.date", "+300000000-01-01T00:00:00Z");
    md.set("signature", "A");

    assertThat(PageHistory.lastFetch(md)).isZero();
    assertThat(p.schedule(CrawlStatus.FETCHED, md, T0)).isPresent();
    assertThat(md.get(PageHistory.IF_MODIFIED_SINCE)).isNull();
    assertThat(PageHistory.lastFetch(md)).isEqualTo(T0);
  }
}
