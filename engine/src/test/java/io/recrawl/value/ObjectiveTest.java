package io.recrawl.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ObjectiveTest {

  private static final List<Objective> ALL =
      List.of(Freshness.INSTANCE, HarmonicStaleness.INSTANCE, ChangesCaught.INSTANCE);

  /** d utility / d rho by a five-point central difference. */
  private static double derivative(Objective o, double w, double delta, double rho) {
    double h = rho * 1e-3;
    double f2 = o.utility(w, delta, rho + 2 * h);
    double f1 = o.utility(w, delta, rho + h);
    double b1 = o.utility(w, delta, rho - h);
    double b2 = o.utility(w, delta, rho - 2 * h);
    return (-f2 + 8 * f1 - 8 * b1 + b2) / (12 * h);
  }

  @Test
  void crawlValueIsTheDerivativeOfUtilityAtRateOneOverTau() {
    // The blog's claim, for every objective: V(tau) = d/d rho [utility] at rho = 1/tau.
    SplittableRandom rnd = new SplittableRandom(2024);
    for (Objective o : ALL) {
      for (int i = 0; i < 5_000; i++) {
        double w = Math.exp(rnd.nextDouble(-4, 4));
        double delta = Math.exp(rnd.nextDouble(-6, 3));
        double x = Math.exp(rnd.nextDouble(Math.log(0.01), Math.log(30)));
        double tau = x / delta;
        double v = o.crawlValue(w, delta, tau);
        double numeric = derivative(o, w, delta, 1 / tau);
        assertThat(Math.abs(v - numeric) / v)
            .as("%s w=%s delta=%s tau=%s V=%s dU/drho=%s", o.name(), w, delta, tau, v, numeric)
            .isLessThan(1e-6);
      }
    }
  }

  @Test
  void freshnessValueIsWeightTimesDerivativeOfUnweightedFreshness() {
    SplittableRandom rnd = new SplittableRandom(5);
    for (int i = 0; i < 2_000; i++) {
      double w = Math.exp(rnd.nextDouble(-4, 4));
      double delta = Math.exp(rnd.nextDouble(-6, 3));
      double tau = Math.exp(rnd.nextDouble(Math.log(0.01), Math.log(30))) / delta;
      double dF = derivative(Freshness.INSTANCE, 1.0, delta, 1 / tau);
      assertThat(Math.abs(CrawlValue.value(w, delta, tau) - w * dF) / (w * dF)).isLessThan(1e-6);
    }
  }

  @Test
  void everyObjectiveInvertsItsValueFunction() {
    SplittableRandom rnd = new SplittableRandom(99);
    for (Objective o : ALL) {
      for (int i = 0; i < 10_000; i++) {
        double w = Math.exp(rnd.nextDouble(-5, 5));
        double delta = Math.exp(rnd.nextDouble(-7, 4));
        double ceiling = o.valueCeiling(w, delta);
        double theta =
            Double.isInfinite(ceiling)
                ? Math.exp(rnd.nextDouble(-20, 20))
                : ceiling * Math.pow(10, -rnd.nextDouble(0, 10)) * (1 - 1e-6);
        double tau = o.timeToThreshold(w, delta, theta);
        assertThat(tau).as("%s", o.name()).isFinite().isPositive();
        double v = o.crawlValue(w, delta, tau);
        assertThat(Math.abs(v - theta) / theta)
            .as("%s w=%s delta=%s theta=%s", o.name(), w, delta, theta)
            .isLessThan(1e-12);
        assertThat(o.optimalRate(w, delta, theta)).isEqualTo(1 / tau);
      }
    }
  }

  @Test
  void harmonicStalenessNeverStarvesAPage() {
    HarmonicStaleness h = HarmonicStaleness.INSTANCE;
    assertThat(h.valueCeiling(1, 1e-6)).isInfinite();
    assertThat(h.timeToThreshold(1e-3, 1e-6, 1e6)).isFinite();
    // Large x: V ~ w tau, so tau* ~ theta / w.
    assertThat(h.timeToThreshold(2, 1, 1e8) / 5e7)
        .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
    // Small x: V ~ w delta tau^2, so tau* ~ sqrt(theta / (w delta)).
    assertThat(h.timeToThreshold(1, 1e-3, 1e-9) / Math.sqrt(1e-6))
        .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
    assertThat(h.timeToThreshold(1, 0, 1)).isInfinite();
  }

  @Test
  void changesCaughtIsNeverWorthMoreThanItsWeight() {
    ChangesCaught c = ChangesCaught.INSTANCE;
    assertThat(c.valueCeiling(3, 0.2)).isEqualTo(3.0);
    assertThat(c.timeToThreshold(3, 0.2, 3.0)).isInfinite();
    assertThat(c.timeToThreshold(3, 50, 3.0)).isInfinite();
    assertThat(c.timeToThreshold(3, 0.2, 2.999)).isFinite();
    // It is freshness with weight w delta.
    assertThat(c.timeToThreshold(3, 0.2, 1.5))
        .isCloseTo(
            Freshness.INSTANCE.timeToThreshold(0.6, 0.2, 1.5),
            org.assertj.core.data.Percentage.withPercentage(1e-10));
  }

  @Test
  void largerThresholdsMeanLaterCrawls() {
    for (Objective o : ALL) {
      double prev = 0;
      for (double theta = 1e-6; theta < 0.9; theta *= 1.5) {
        double tau = o.timeToThreshold(1, 1, theta);
        assertThat(tau).as("%s theta=%s", o.name(), theta).isGreaterThan(prev);
        prev = tau;
      }
    }
  }

  @Test
  void objectivesAreFoundByName() {
    for (Objective o : ALL) {
      assertThat(Objective.byName(o.name())).isSameAs(o);
    }
    assertThatThrownBy(() -> Objective.byName("speed")).hasMessageContaining("speed");
  }
}
