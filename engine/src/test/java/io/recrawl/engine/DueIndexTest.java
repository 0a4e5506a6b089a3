package io.recrawl.engine;

import static io.recrawl.engine.EngineTestSupport.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.engine.local.LocalFrontier;
import io.recrawl.wire.CrawlStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DueIndexTest {

  private static EngineConfig config(Map<String, Object> overrides) {
    return EngineConfig.with(overrides);
  }

  @Test
  void checksComeThreeQuartersOfTheWaitAheadBetweenTheRecheckIntervalAndTheHorizon() {
    EngineConfig cfg = config(Map.of("timer.recheck", "6 h", "timer.horizon", "7 d"));
    DueIndex index = new DueIndex(cfg, new PageValuation(cfg, new LearnedRates(cfg)));
    assertThat(index.checkTime(T0 - HOUR, T0)).isEqualTo(T0);
    assertThat(index.checkTime(T0 + 5 * HOUR, T0))
        .isEqualTo(T0 + 5 * HOUR); // near: the due time itself
    assertThat(index.checkTime(T0 + 8 * HOUR, T0))
        .isEqualTo(T0 + 6 * HOUR); // not before the recheck interval
    assertThat(index.checkTime(T0 + 4 * DAY, T0))
        .isEqualTo(T0 + 3 * DAY); // three quarters of the way
    assertThat(index.checkTime(T0 + 100 * DAY, T0)).isEqualTo(T0 + 7 * DAY); // at most the horizon
    assertThat(index.checkTime(Long.MAX_VALUE, T0))
        .isEqualTo(T0 + 7 * DAY); // never: once per horizon
  }

  @Test
  void theEndOfTheLastBucketSaturatesInsteadOfWrappingIntoThePast() {
    EngineConfig cfg = config(Map.of());
    DueIndex index = new DueIndex(cfg, new PageValuation(cfg, new LearnedRates(cfg)));
    long last = Long.MAX_VALUE / cfg.bucketMs; // the bucket of a page due never
    assertThat(index.bucketEnd(last)).isEqualTo(Long.MAX_VALUE);
    assertThat(index.bucketEnd(last - 1)).isEqualTo(last * cfg.bucketMs);
    assertThat(index.bucketEnd(T0 / cfg.bucketMs)).isBetween(T0 + 1, T0 + cfg.bucketMs);
  }

  @Test
  void pagesDueOverWeeksShareFewDueBuckets() {
    // The host record holds one entry per due bucket and is rewritten at every event: it must stay
    // small however the host's due times spread.
    LocalFrontier f =
        new LocalFrontier(config(Map.of("estimator.prior-shape", 1e6, "estimator.max-shape", 1e7)));
    f.setGlobalLambda(0.05);
    Sink sink = new Sink();
    java.util.Random r = new java.util.Random(3);
    for (int i = 0; i < 5000; i++) {
      long t = T0 + (long) (r.nextDouble() * HOUR);
      f.onStatus(
          new io.recrawl.wire.StatusEvent(
              "http://a.example/p" + i,
              "a.example",
              CrawlStatus.FETCHED,
              t,
              Map.of(
                  io.recrawl.wire.StatusEvent.CHANGE_RATE_KEY,
                  List.of(Double.toString(Math.exp(-4 * r.nextDouble())))),
              true,
              Math.exp(3 * r.nextGaussian()),
              200),
          sink);
    }
    HostState h = f.store("a.example").host();
    assertThat(h.due.bucketCount()).isLessThan(120);
  }

  @Test
  void readyBucketsRankUnboundedValuesAboveFiniteOnesAndByWeightAmongThemselves() {
    assertThat(DueIndex.readyBucket(Double.POSITIVE_INFINITY, 0.001))
        .isGreaterThan(DueIndex.readyBucket(1e300, 1));
    assertThat(DueIndex.readyBucket(Double.POSITIVE_INFINITY, 2))
        .isGreaterThan(DueIndex.readyBucket(Double.POSITIVE_INFINITY, 1));
    assertThat(DueIndex.readyBucket(Double.POSITIVE_INFINITY, 1e-30))
        .isLessThanOrEqualTo(DueIndex.readyBucket(Double.POSITIVE_INFINITY, 1e-20));
    assertThat(DueIndex.readyBucket(Double.POSITIVE_INFINITY, 1e30)).isEqualTo(0xFFFFFFFFL);
    assertThat(DueIndex.readyBucket(2, 1)).isGreaterThan(DueIndex.readyBucket(1, 100));
    assertThat(DueIndex.readyBucket(0, 1)).isZero();
  }
}
