package io.recrawl.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

class ChangeRateEstimatorTest {

  @Test
  void swappingThePriorAfterUnchangedIntervalsIsExactlyLearningUnderTheOtherPrior() {
    ChangeRateEstimator defaults = new ChangeRateEstimator(1.0, 1.0, 200);
    ChangeRateEstimator slow = new ChangeRateEstimator(0.3, 1.0, 200);
    ChangeStats a = defaults.prior();
    ChangeStats b = slow.prior();
    for (double d : new double[] {2, 5, 0.5, 7}) {
      a = defaults.observe(a, d, false);
      b = slow.observe(b, d, false);
    }
    ChangeStats swapped = defaults.withPriorMean(a, 0.3);
    assertThat(swapped.shape()).isEqualTo(b.shape());
    assertThat(swapped.rate()).isCloseTo(b.rate(), org.assertj.core.data.Offset.offset(1e-12));
  }

  @Test
  void swappingThePriorAfterAChangeMovesTheEstimateTowardTheNewPrior() {
    ChangeRateEstimator e = ChangeRateEstimator.defaults();
    ChangeStats s = e.observe(e.prior(), 3, true);
    assertThat(e.rate(e.withPriorMean(s, 0.2))).isLessThan(e.rate(s));
    assertThat(e.rate(e.withPriorMean(s, 5))).isGreaterThan(e.rate(s));
    // A known rate needs no prior.
    ChangeStats known = e.known(0.25);
    assertThat(e.withPriorMean(known, 5)).isEqualTo(known);
  }

  private final ChangeRateEstimator est = ChangeRateEstimator.defaults();
  private final ChangeRateEstimator stationary =
      new ChangeRateEstimator(1.0, 1.0, Double.POSITIVE_INFINITY);

  @Test
  void priorIsTheConfiguredRate() {
    assertThat(
            new ChangeRateEstimator(0.25, 2, 10).rate(new ChangeRateEstimator(0.25, 2, 10).prior()))
        .isCloseTo(0.25, within(1e-15));
  }

  @Test
  void allUnchangedHistoryGivesAFiniteFallingRate() {
    ChangeStats s = est.prior();
    double prev = est.rate(s);
    for (int i = 1; i <= 30; i++) {
      s = est.observe(s, 1.0, false);
      double r = est.rate(s);
      assertThat(r).isPositive().isLessThan(prev);
      prev = r;
    }
    // Unchanged intervals are conjugate: Gamma(1, 1) becomes Gamma(1, 1 + 30).
    assertThat(prev).isCloseTo(1.0 / 31, within(1e-15));
  }

  @Test
  void allChangedHistoryGivesAFiniteRisingRate() {
    ChangeStats s = est.prior();
    double prev = est.rate(s);
    for (int i = 1; i <= 30; i++) {
      s = est.observe(s, 1.0, true);
      double r = est.rate(s);
      assertThat(r).isFinite().isGreaterThan(prev);
      prev = r;
    }
    // Thirty changes in thirty daily looks: the rate is surely above a few per day, but the
    // plain maximum likelihood (infinite) is not what we report.
    assertThat(prev).isBetween(2.0, 20.0);
    assertThat(prev).isCloseTo(exactPosteriorMean(1, 1, 30, 0, 1.0), within(0.15 * prev));
  }

  @Test
  void unchangedEvidenceLowersTheRateFromAnyState() {
    SplittableRandom rnd = new SplittableRandom(3);
    for (int i = 0; i < 1000; i++) {
      ChangeStats s =
          new ChangeStats(Math.exp(rnd.nextDouble(-2, 5)), Math.exp(rnd.nextDouble(-4, 4)));
      double d = Math.exp(rnd.nextDouble(-8, 5));
      assertThat(est.rate(est.observe(s, d, false))).isLessThan(est.rate(s));
      // A change seen after a gap much longer than 1/delta carries almost no information.
      double weight = Math.pow(s.rate() / (s.rate() + d), s.shape());
      if (weight > 1e-9) {
        assertThat(est.rate(est.observe(s, d, true))).isGreaterThan(est.rate(s));
      } else {
        assertThat(est.rate(est.observe(s, d, true)))
            .isGreaterThanOrEqualTo(est.rate(s) * (1 - 1e-12));
      }
    }
  }

  @Test
  void oneChangedStepMatchesTheExactPosteriorMeanAndMeanTimeBetweenChanges() {
    // Assumed density filtering keeps E[delta] and E[1/delta] of the exact posterior: the crawl
    // value's growth and its ceiling.
    double[][] cases = {
      {1, 1, 1}, {1, 1, 0.01}, {5, 2, 3}, {50, 20, 0.1}, {0.5, 3, 40}, {150, 1, 1e-4}, {1, 1.67, 18}
    };
    for (double[] c : cases) {
      double a = c[0];
      double b = c[1];
      double d = c[2];
      ChangeStats post = stationary.observe(new ChangeStats(a, b), d, true);
      double[] m = posteriorMoments(a, b, new double[] {d}, new double[0]);
      double mean = post.shape() / post.rate();
      double meanInverse = post.rate() / (post.shape() - 1);
      assertThat(mean).as("mean a=%s b=%s d=%s", a, b, d).isCloseTo(m[0], within(1e-7 * m[0]));
      assertThat(meanInverse)
          .as("E[1/delta] a=%s b=%s d=%s", a, b, d)
          .isCloseTo(m[2], within(1e-6 * m[2]));
    }
  }

  @Test
  void aChangeSeenAcrossALongGapDoesNotInflateTheMeanTimeBetweenChanges() {
    // Prior mean 0.6 a day, one "changed" after 18 days: the exact posterior has E[1/delta] = 4.5
    // days. Matching the variance instead gave shape 1.17 and E[1/delta] = 10.6 days.
    ChangeStats post = stationary.observe(new ChangeStats(1, 1 / 0.6), 18, true);
    assertThat(post.rate() / (post.shape() - 1)).isCloseTo(4.5, within(0.05));
    assertThat(post.shape()).isGreaterThan(1.4);
  }

  @Test
  void aChangeInAVanishingIntervalAddsOneEvent() {
    // The likelihood 1 - e^(-delta d) tends to delta d: Gamma(a, b) becomes Gamma(a + 1, b).
    ChangeStats post = stationary.observe(new ChangeStats(3, 40), 1e-12, true);
    assertThat(post.shape()).isCloseTo(4.0, within(1e-6));
    assertThat(post.rate()).isCloseTo(40.0, within(1e-5));
  }

  @Test
  void convergesToTheTrueRateWithRegularGaps() {
    assertConverges(0.7, d -> 1.0, 11);
    assertConverges(3.0, d -> 0.25, 12);
    assertConverges(0.02, d -> 20.0, 13);
  }

  @Test
  void convergesToTheTrueRateWithExponentialGaps() {
    assertConverges(0.7, d -> d * 1.5, 21);
    assertConverges(3.0, d -> d * 0.5, 22);
    assertConverges(0.02, d -> d * 40.0, 23);
  }

  /** gap.applyAsDouble(standard exponential draw) gives the next crawl gap. */
  private void assertConverges(double truth, DoubleUnaryOperator gap, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    ChangeStats s = stationary.prior();
    for (int i = 0; i < 20_000; i++) {
      double d = gap.applyAsDouble(-Math.log(1 - rnd.nextDouble()));
      s = stationary.observe(s, d, rnd.nextDouble() < -Math.expm1(-truth * d));
    }
    assertThat(stationary.rate(s) / truth).as("truth %s", truth).isCloseTo(1.0, within(0.05));
  }

  @Test
  void forgettingEstimatorIsUnbiasedOnAverage() {
    // With the shape capped the estimate keeps fluctuating, but it centres on the truth.
    SplittableRandom rnd = new SplittableRandom(31);
    double truth = 1.3;
    double sumLog = 0;
    int pages = 300;
    for (int p = 0; p < pages; p++) {
      ChangeStats s = est.prior();
      for (int i = 0; i < 1000; i++) {
        double d = 0.8 * -Math.log(1 - rnd.nextDouble());
        s = est.observe(s, d, rnd.nextDouble() < -Math.expm1(-truth * d));
      }
      assertThat(s.shape()).isLessThanOrEqualTo(200.0);
      sumLog += Math.log(est.rate(s) / truth);
    }
    assertThat(sumLog / pages).isCloseTo(0.0, within(0.03));
  }

  @Test
  void aKnownChangeTimeIsConjugate() {
    ChangeStats s = new ChangeStats(3, 10);
    assertThat(stationary.observeChangeAt(s, 2.0, 0.5)).isEqualTo(new ChangeStats(4, 10.5));
    assertThat(stationary.observeChangeAt(s, 2.0, 0.0)).isEqualTo(new ChangeStats(4, 10));
    // Outside [0, interval] the time is not believable: only "changed" is used.
    assertThat(stationary.observeChangeAt(s, 2.0, 2.5)).isEqualTo(stationary.observe(s, 2.0, true));
    assertThat(stationary.observeChangeAt(s, 2.0, -1)).isEqualTo(stationary.observe(s, 2.0, true));
    assertThat(stationary.observeChangeAt(s, 0, 0)).isEqualTo(s);
  }

  @Test
  void changeTimesMakeRareLooksInformative() {
    // Crawled every 10 days a page changing twice a day is "changed" every time: binary evidence
    // only says the rate is high, but the times of the last changes pin it down.
    SplittableRandom rnd = new SplittableRandom(41);
    double truth = 2.0;
    double gap = 10;
    ChangeStats binary = stationary.prior();
    ChangeStats timed = stationary.prior();
    for (int i = 0; i < 3000; i++) {
      double since = -Math.log(1 - rnd.nextDouble()) / truth; // time back to the last change
      boolean changed = since <= gap;
      binary = stationary.observe(binary, gap, changed);
      timed =
          changed
              ? stationary.observeChangeAt(timed, gap, since)
              : stationary.observe(timed, gap, false);
    }
    assertThat(stationary.rate(timed) / truth).isCloseTo(1.0, within(0.05));
    assertThat(Math.abs(Math.log(stationary.rate(binary) / truth)))
        .isGreaterThan(Math.abs(Math.log(stationary.rate(timed) / truth)));
  }

  @Test
  void capKeepsTheMeanAndLimitsTheShape() {
    ChangeRateEstimator capped = new ChangeRateEstimator(1, 1, 5);
    ChangeStats s = new ChangeStats(5, 10);
    ChangeStats next = capped.observe(s, 0.001, true);
    ChangeStats free = stationary.observe(s, 0.001, true);
    assertThat(free.shape()).isGreaterThan(5.0);
    assertThat(next.shape()).isEqualTo(5.0);
    assertThat(capped.rate(next)).isCloseTo(stationary.rate(free), within(1e-12));
  }

  @Test
  void meaninglessIntervalsAreIgnored() {
    ChangeStats s = est.prior();
    assertThat(est.observe(s, 0, true)).isEqualTo(s);
    assertThat(est.observe(s, -1, false)).isEqualTo(s);
    assertThat(est.observe(s, Double.NaN, true)).isEqualTo(s);
    assertThat(est.observe(s, Double.POSITIVE_INFINITY, false)).isEqualTo(s);
  }

  @Test
  void rejectsBadParameters() {
    assertThatThrownBy(() -> new ChangeRateEstimator(0, 1, 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ChangeRateEstimator(1, -1, 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ChangeRateEstimator(1, 2, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ChangeRateEstimator(Double.NaN, 1, 10))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * The exact posterior mean after {@code changed} changed and {@code unchanged} unchanged gaps of
   * length d.
   */
  private static double exactPosteriorMean(
      double a, double b, int changed, int unchanged, double d) {
    double[] ch = new double[changed];
    double[] un = new double[unchanged];
    java.util.Arrays.fill(ch, d);
    java.util.Arrays.fill(un, d);
    return posteriorMoments(a, b, ch, un)[0];
  }

  /**
   * Mean and variance of Gamma(a, b) x prod(1 - e^(-delta c)) x prod(e^(-delta u)), by quadrature
   * in log delta.
   */
  private static double[] posteriorMoments(
      double a, double b, double[] changed, double[] unchanged) {
    double sumU = 0;
    for (double u : unchanged) {
      sumU += u;
    }
    // Integrate over t = ln delta with the trapezoid rule on a wide, fine grid (smooth, decaying
    // integrand).
    double lo = -40;
    double hi = 12;
    int n = 400_000;
    double h = (hi - lo) / n;
    double z = 0;
    double m1 = 0;
    double m2 = 0;
    double mInv = 0;
    double[] logs = new double[n + 1];
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i <= n; i++) {
      double t = lo + i * h;
      double delta = Math.exp(t);
      double l =
          a * t - (b + sumU) * delta; // delta^(a-1) e^(-b delta) d delta = delta^a e^(-b delta) dt
      for (double c : changed) {
        l += Math.log(-Math.expm1(-delta * c));
      }
      logs[i] = l;
      max = Math.max(max, l);
    }
    for (int i = 0; i <= n; i++) {
      double delta = Math.exp(lo + i * h);
      double wgt = Math.exp(logs[i] - max) * ((i == 0 || i == n) ? 0.5 : 1.0);
      z += wgt;
      m1 += wgt * delta;
      m2 += wgt * delta * delta;
      mInv += wgt / delta;
    }
    double mean = m1 / z;
    return new double[] {mean, m2 / z - mean * mean, mInv / z};
  }
}
