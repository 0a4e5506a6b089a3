package io.recrawl.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class RateGridTest {

  private static double[] uniform() {
    double[] p = new double[RateGrid.POINTS];
    Arrays.fill(p, 1.0 / RateGrid.POINTS);
    return p;
  }

  /**
   * A crawl in compressed time: pages that change thousands of times a day, fetched every few
   * seconds, under a prior of that order. Each is learned near its rate, the fast as well as the
   * slow: on a grid of fixed changes a day, every estimate stopped at its top, 100 a day.
   */
  @Test
  void aCrawlWhosePagesChangeEverySecondsIsLearnedOnItsPriorsGrid() {
    double prior = 17_280; // one change every 5 s
    RateGrid.Prior grid = new RateGrid.Prior(1.0, new ChangeStats(1, 1 / prior));
    SplittableRandom rnd = new SplittableRandom(3);
    double interval = 10.0 / 86_400; // a fetch every 10 s
    for (double truth : new double[] {50_000, 17_280, 2_000, 200}) {
      RateGrid.Evidence e = RateGrid.Evidence.NONE;
      for (int fetch = 0; fetch < 400; fetch++) {
        boolean changed = rnd.nextDouble() < -Math.expm1(-truth * interval);
        e = RateGrid.observe(e, interval, changed, 200);
      }
      ChangeStats s = grid.project(grid.posterior(e), 200);
      assertThat(s.shape() / s.rate())
          .as("learned rate of a page at %s a day", truth)
          .isBetween(truth / 1.5, truth * 1.5);
    }
  }

  @Test
  void theDefaultPriorsGridIsTheGridOfOneChangeADay() {
    RateGrid.Prior grid = new RateGrid.Prior(1.0, new ChangeStats(1, 1));
    RateGrid.Evidence e = RateGrid.observe(RateGrid.Evidence.NONE, 3.0, true, 200);
    assertThat(grid.unit()).isEqualTo(1);
    assertThat(grid.posterior(e)).containsExactly(RateGrid.posterior(e, grid.probabilities()));
  }

  @Test
  void aCopyPutsThePriorBackExactly() {
    RateGrid.Prior prior = new RateGrid.Prior(1.0);
    RateGrid.Evidence none = RateGrid.Evidence.NONE;
    prior.replace(none, RateGrid.observe(none, 3.0, true, 1e4));
    RateGrid.Prior kept = prior.copy();
    double[] mass = prior.mass();
    double[] probabilities = prior.probabilities().clone();
    prior.replace(none, RateGrid.observe(none, 0.5, false, 1e4));
    assertThat(prior.mass()).isNotEqualTo(mass);
    prior.copyFrom(kept);
    assertThat(prior.mass()).containsExactly(mass);
    assertThat(prior.probabilities()).containsExactly(probabilities);
    // And it goes on as the original would have.
    RateGrid.Prior twin = kept.copy();
    RateGrid.Evidence e = RateGrid.observe(none, 2.0, true, 1e4);
    prior.replace(e, none);
    twin.replace(e, none);
    assertThat(prior.mass()).containsExactly(twin.mass());
  }

  @Test
  void theGridPosteriorIsBayesRuleObservationByObservation() {
    // Equal gaps: the geometric mean is exact, so the posterior must equal the product of the
    // likelihoods of each fetch, computed here independently.
    double[] prior = new double[RateGrid.POINTS];
    for (int k = 0; k < prior.length; k++) {
      prior[k] = 1 + k % 3; // any prior
    }
    double[] verdicts = {1, 0, 1, 1, 0, 0, 1};
    double gap = 2.5;
    RateGrid.Evidence e = RateGrid.Evidence.NONE;
    double[] brute = prior.clone();
    for (double v : verdicts) {
      e = RateGrid.observe(e, gap, v == 1, 200);
      for (int k = 0; k < brute.length; k++) {
        double d = RateGrid.rate(k);
        brute[k] *= v == 1 ? 1 - Math.exp(-d * gap) : Math.exp(-d * gap);
      }
    }
    // a dated change: delta e^{-delta s}
    e = RateGrid.observeChangeAt(e, 0.7, 200);
    double sum = 0;
    for (int k = 0; k < brute.length; k++) {
      brute[k] *= RateGrid.rate(k) * Math.exp(-RateGrid.rate(k) * 0.7);
      sum += brute[k];
    }
    double[] post = RateGrid.posterior(e, normalised(prior));
    for (int k = 0; k < brute.length; k++) {
      assertThat(post[k]).isCloseTo(brute[k] / sum, within(1e-12));
    }
  }

  private static double[] normalised(double[] p) {
    double s = Arrays.stream(p).sum();
    return Arrays.stream(p).map(x -> x / s).toArray();
  }

  @Test
  void theProjectionKeepsTheTwoMomentsThePlanRestsOn() {
    double[] post =
        RateGrid.posterior(
            RateGrid.observe(
                RateGrid.observe(RateGrid.Evidence.NONE, 20, true, 200), 3, false, 200),
            uniform());
    double mean = 0;
    double inverse = 0;
    for (int k = 0; k < post.length; k++) {
      mean += post[k] * RateGrid.rate(k);
      inverse += post[k] / RateGrid.rate(k);
    }
    ChangeStats g = RateGrid.project(post, 1e9);
    assertThat(g.shape() / g.rate()).isCloseTo(mean, within(1e-12 * mean));
    assertThat(g.rate() / (g.shape() - 1)).isCloseTo(inverse, within(1e-9 * inverse));
  }

  @Test
  void theLearnedPriorFindsBothModesOfABimodalCrawl() {
    // Pages change 0.02 or 2 times a day (half each); each is seen 6 times, 3 days apart.
    SplittableRandom rnd = new SplittableRandom(3);
    RateGrid.Prior prior = new RateGrid.Prior(1.0);
    for (int round = 0; round < 3; round++) { // pages re-observed: the prior's terms refreshed
      rnd = new SplittableRandom(3);
      for (int page = 0; page < 2000; page++) {
        double rate = page % 2 == 0 ? 0.02 : 2;
        RateGrid.Evidence e = RateGrid.Evidence.NONE;
        for (int i = 0; i < 6; i++) {
          RateGrid.Evidence next =
              RateGrid.observe(e, 3, rnd.nextDouble() < -Math.expm1(-rate * 3), 200);
          prior.replace(e, next);
          e = next;
        }
      }
    }
    double[] p = prior.probabilities();
    double fast = 0;
    double slow = 0;
    double mid = 0;
    for (int k = 0; k < p.length; k++) {
      double d = RateGrid.rate(k);
      if (d > 0.5) {
        fast += p[k]; // 3-day gaps that always show a change cannot tell 2 a day from 50
      } else if (d < 0.1) {
        slow += p[k];
      } else {
        mid += p[k];
      }
    }
    assertThat(fast).isGreaterThan(0.4);
    assertThat(slow).isGreaterThan(0.4);
    assertThat(mid).isLessThan(0.1);
  }

  @Property(tries = 300)
  void moreUnchangedTimeLowersTheRateAndAChangeRaisesIt(
      @ForAll @DoubleRange(min = 0, max = 500) double unchanged,
      @ForAll @IntRange(min = 0, max = 50) int changed,
      @ForAll @DoubleRange(min = 0.01, max = 100) double gap,
      @ForAll @DoubleRange(min = 0.01, max = 50) double more) {
    double[] prior = uniform();
    RateGrid.Evidence e = new RateGrid.Evidence(unchanged, changed, Math.log(gap), 0);
    ChangeStats base = RateGrid.project(RateGrid.posterior(e, prior), 200);
    ChangeStats quieter =
        RateGrid.project(RateGrid.posterior(RateGrid.observe(e, more, false, 1e9), prior), 200);
    ChangeStats busier =
        RateGrid.project(RateGrid.posterior(RateGrid.observe(e, gap, true, 1e9), prior), 200);
    for (ChangeStats s : new ChangeStats[] {base, quieter, busier}) {
      assertThat(s.shape()).isFinite().isGreaterThan(0);
      assertThat(s.rate()).isFinite().isGreaterThan(0);
    }
    double m = base.shape() / base.rate();
    assertThat(quieter.shape() / quieter.rate()).isLessThanOrEqualTo(m * (1 + 1e-9));
    assertThat(busier.shape() / busier.rate()).isGreaterThanOrEqualTo(m * (1 - 1e-9));
  }
}
