package io.recrawl.engine;

import static io.recrawl.engine.EngineTestSupport.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.engine.local.LocalFrontier;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HostDemandTest {

  private static EngineConfig config(Map<String, Object> overrides) {
    return EngineConfig.with(overrides);
  }

  @Test
  void aHostWhoseDemandExceedsItsLimitGetsAPositiveHostLambda() {
    EngineConfig cfg = config(Map.of("host.max-rate", 10));
    LocalFrontier f = new LocalFrontier(cfg);
    Sink sink = new Sink();
    for (int i = 0; i < 200; i++) {
      f.onStatus(discovered("http://big.example/p" + i, T0), sink);
      f.onStatus(discovered("http://small" + i + ".example/", T0), sink);
    }
    HostEngine engine = f.engine();
    double lambda0 = 0.05;
    HostState big = f.store("big.example").host();
    HostState small = f.store("small0.example").host();
    assertThat(engine.thresholds().hostLambda(big, lambda0, T0)).isGreaterThan(0);
    assertThat(engine.thresholds().hostLambda(small, lambda0, T0)).isZero();
    // The big host's threshold is where its demand meets its limit.
    double theta = engine.thresholds().threshold(big, lambda0, T0);
    assertThat(cfg.grid.demandAt(big.curve, theta))
        .isCloseTo(10.0, org.assertj.core.data.Percentage.withPercentage(3));
  }

  @Test
  void aHostsDemandCurveCountsEachPageAtTheRateItsOwnPlanGivesIt() {
    EngineConfig cfg = config(Map.of());
    LocalFrontier f = new LocalFrontier(cfg);
    Sink sink = new Sink();
    java.util.Random rnd = new java.util.Random(5);
    for (int i = 0; i < 40; i++) {
      f.onStatus(discovered("http://a.example/p" + i, T0), sink);
    }
    f.onStatus(
        new StatusEvent(
            "http://a.example/known",
            "a.example",
            CrawlStatus.DISCOVERED,
            T0,
            Map.of(StatusEvent.CHANGE_RATE_KEY, List.of("0.5")),
            null,
            2.0,
            null),
        sink);
    // Learned pages: two or three fetches each, changed or not, at gaps of hours to weeks.
    for (int i = 0; i < 40; i++) {
      long t = T0;
      for (int k = 0; k < 2 + i % 2; k++) {
        t += (long) (HOUR * Math.exp(rnd.nextDouble() * Math.log(24 * 21)));
        f.onStatus(fetched("http://a.example/p" + i, t, rnd.nextBoolean()), sink);
      }
    }
    InMemoryHostStore store = f.store("a.example");
    HostState h = store.host();
    double maxRate = DAY / (double) cfg.minRevisitMs; // revisit.min-interval
    double[] expected = new double[cfg.grid.size()];
    int learned = 0;
    for (int i = -1; i < 40; i++) {
      PageState p = store.page(i < 0 ? "http://a.example/known" : "http://a.example/p" + i);
      for (int g = 0; g < expected.length; g++) {
        double theta = cfg.grid.threshold(g);
        double rate;
        if (p.curveShape > 0) {
          // Counted from the posterior it was planned with when last seen: Gamma(shape, shape /
          // mean).
          double tau =
              cfg.objective.expectedTimeToThreshold(
                  p.weight, p.curveShape, p.curveShape / p.curveRate, theta);
          rate = tau == Double.POSITIVE_INFINITY ? 0 : 1 / tau;
        } else {
          rate = cfg.objective.optimalRate(p.weight, p.curveRate, theta);
        }
        expected[g] += Math.min(maxRate, rate);
      }
      if (i >= 0) {
        learned++;
        assertThat(p.curveShape).as("p%s", i).isGreaterThan(0);
      } else {
        assertThat(p.curveShape).isZero();
        assertThat((double) p.curveRate)
            .isCloseTo(0.5, org.assertj.core.data.Percentage.withPercentage(0.1));
      }
    }
    assertThat(learned).isEqualTo(40);
    for (int g = 0; g < expected.length; g++) {
      assertThat(h.curve[g])
          .as("theta %s", cfg.grid.threshold(g))
          .isCloseTo(expected[g], org.assertj.core.data.Offset.offset(5e-3 * expected[g] + 1e-9));
    }
    // The last page fetched was counted under the posterior it is planned with now.
    PageState last = store.page("http://a.example/p39");
    assertThat((double) last.curveShape)
        .isCloseTo(
            f.engine().valuation().changeStats(h, last).shape(),
            org.assertj.core.data.Percentage.withPercentage(1));
  }
}
