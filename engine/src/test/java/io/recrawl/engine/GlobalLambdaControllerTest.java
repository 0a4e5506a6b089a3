package io.recrawl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The controller in a closed loop with a model of the crawl: the measured crawl rate follows the
 * demand at the broadcast global lambda with a lag of about one period (pages in transit between
 * thresholds), and the demand curve is built from real host curves capped at their limits.
 */
class GlobalLambdaControllerTest {

  private static final ThresholdGrid GRID = new ThresholdGrid(1e-6, 1e6, 3);
  private static final double LAG = 0.6; // share of the new equilibrium reached in one period

  /**
   * The crawl delivers 3 % less than the curve says (pacing, leases): the controller must learn it.
   */
  private static final double MODEL_ERROR = 0.97;

  /** A frontier of hosts, each a capped demand curve. */
  private static final class Frontier {
    final List<double[]> capped = new ArrayList<>();
    final HostThreshold thresholds = new HostThreshold(EngineConfig.defaults());

    void addHost(Random rnd, int pages, double limit) {
      double[] curve = new double[GRID.size()];
      for (int j = 0; j < pages; j++) {
        double w = Math.exp(rnd.nextGaussian());
        double delta = Math.exp(rnd.nextGaussian() * 1.5 - 1);
        thresholds.addPageDemand(curve, w, delta, 0, +1);
      }
      for (int i = 0; i < curve.length; i++) {
        curve[i] = Math.min(limit, curve[i]);
      }
      capped.add(curve);
    }

    double[] total() {
      double[] t = new double[GRID.size()];
      for (double[] c : capped) {
        t = DemandLedger.sum(t, c);
      }
      return t;
    }
  }

  /** The default settings but no headroom, so the loop aims at the budget itself. */
  private static GlobalLambdaController controller(double budget) {
    return new GlobalLambdaController(GRID, budget, 1.0, 1.0, 0.1, 0.05, 0.0);
  }

  private static Frontier frontier(long seed) {
    Random rnd = new Random(seed);
    Frontier f = new Frontier();
    for (int h = 0; h < 300; h++) {
      int pages = 1 + (int) (2000 / Math.pow(h + 1, 0.9));
      double limit = h % 3 == 0 ? pages * 0.05 : Double.POSITIVE_INFINITY; // a third constrained
      f.addHost(rnd, pages, limit);
    }
    return f;
  }

  /** Runs the loop for some periods; returns the measured rates. */
  private static double[] run(
      GlobalLambdaController c, Frontier f, double[] measured0, int periods) {
    double measured = measured0[0];
    double[] trace = new double[periods];
    for (int t = 0; t < periods; t++) {
      double[] curve = f.total();
      double lambda = c.update(curve, measured);
      double demand = MODEL_ERROR * GRID.demandAt(curve, lambda);
      measured = Double.isNaN(measured) ? demand : (1 - LAG) * measured + LAG * demand;
      trace[t] = measured;
    }
    measured0[0] = measured;
    return trace;
  }

  private static void assertSettlesWithin(double[] trace, double budget, int periods) {
    for (int t = periods; t < trace.length; t++) {
      assertThat(Math.abs(trace[t] / budget - 1))
          .as("period %d: measured %s against budget %s", t, trace[t], budget)
          .isLessThan(0.02);
    }
  }

  @Test
  void convergesToTheBudgetAndStaysThere() {
    Frontier f = frontier(1);
    double budget = 0.2 * 20_000;
    GlobalLambdaController c = controller(budget);
    double[] m = {Double.NaN};
    double[] trace = run(c, f, m, 40);
    // Ten periods, not five: the feedback starts from a prior of no model error and learns the 3 %
    // at its learning rate (0.1 a period here) instead of taking its first period at face value.
    assertSettlesWithin(trace, budget, 10);
    assertThat(c.lambda()).isGreaterThan(0);
  }

  @Test
  void recoversWithinFivePeriodsAfterTheBudgetIsHalvedOrDoubled() {
    Frontier f = frontier(2);
    double budget = 4000;
    GlobalLambdaController c = controller(budget);
    double[] m = {Double.NaN};
    run(c, f, m, 20);
    c.setBudget(budget / 2);
    assertSettlesWithin(run(c, f, m, 30), budget / 2, 5);
    c.setBudget(budget);
    assertSettlesWithin(run(c, f, m, 30), budget, 5);
  }

  @Test
  void recoversWithinFivePeriodsAfterALargeHostIsAdded() {
    Frontier f = frontier(3);
    double budget = 4000;
    GlobalLambdaController c = controller(budget);
    double[] m = {Double.NaN};
    run(c, f, m, 20);
    double before = c.lambda();
    f.addHost(new Random(9), 20_000, Double.POSITIVE_INFINITY);
    double[] trace = run(c, f, m, 30);
    assertSettlesWithin(trace, budget, 5);
    assertThat(c.lambda()).isGreaterThan(before); // more demand for the same budget: a higher price
  }

  @Test
  void noOscillationGrowsOverTime() {
    Frontier f = frontier(4);
    double budget = 3000;
    GlobalLambdaController c = controller(budget);
    double[] m = {budget * 3}; // start far off
    double[] trace = run(c, f, m, 60);
    double early = 0;
    double late = 0;
    for (int t = 1; t < 20; t++) {
      early = Math.max(early, Math.abs(trace[t] - budget));
    }
    for (int t = 40; t < 60; t++) {
      late = Math.max(late, Math.abs(trace[t] - budget));
    }
    assertThat(late).isLessThanOrEqualTo(early);
    assertThat(late / budget).isLessThan(0.005);
  }

  @Test
  void theGlobalLambdaFallsToZeroWhenDemandFitsTheBudget() {
    Frontier f = new Frontier();
    Random rnd = new Random(5);
    for (int h = 0; h < 10; h++) {
      f.addHost(rnd, 50, 5.0); // every host constrained: total demand at most 50 a day
    }
    GlobalLambdaController c = controller(1000);
    double[] m = {Double.NaN};
    run(c, f, m, 10);
    assertThat(c.lambda()).isZero();
  }

  @Test
  void theDefaultHeadroomKeepsTheCrawlJustUnderTheBudget() {
    Frontier f = frontier(6);
    double budget = 4000;
    GlobalLambdaController c = new GlobalLambdaController(GRID, budget, 1.0); // daily periods
    double[] m = {Double.NaN};
    double[] trace = run(c, f, m, 60);
    for (int t = 30; t < 60; t++) {
      assertThat(trace[t] / budget).isBetween(0.995, 0.999);
    }
  }

  @Test
  void hourlyPeriodsDoNotPassTheNoiseOfHourlyCountsOnToLambda() {
    // Demand A / theta; each hour's measured rate is the prediction with 5 % noise.
    double[] curve = new double[GRID.size()];
    for (int i = 0; i < curve.length; i++) {
      curve[i] = 20_000 / GRID.threshold(i);
    }
    GlobalLambdaController c = new GlobalLambdaController(GRID, 10_000, 1.0 / 24);
    Random r = new Random(5);
    double measured = Double.NaN;
    double sum = 0;
    double sumSq = 0;
    int n = 0;
    for (int hour = 0; hour < 24 * 60; hour++) {
      double lambda = c.update(curve, measured);
      measured = GRID.demandAt(curve, lambda) * (1 + 0.05 * r.nextGaussian());
      if (hour >= 24 * 30) {
        double l = Math.log(lambda);
        sum += l;
        sumSq += l * l;
        n++;
      }
    }
    double sd = Math.sqrt(sumSq / n - (sum / n) * (sum / n));
    assertThat(sd).isLessThan(0.005); // averaging ten periods instead of ten days gives about 0.012
  }

  // ------------------------------------------------------------ the crawler's backlog, start-up

  /**
   * A crawler that fetches at most the budget and queues the rest, driven hour by hour: releases
   * follow the demand at the broadcast lambda ({@code modelError} times the curve, with hourly
   * noise for the clumps in which pages fall due), none while the first crawl's pages are all in
   * flight. Returns per hour: fetch rate, backlog, lambda.
   */
  private static double[][] crawl(
      GlobalLambdaController c,
      double[] curve,
      double budget,
      double firstCrawl,
      double modelError,
      double noise,
      boolean countInFlight,
      int hours,
      long seed) {
    Random rnd = new Random(seed);
    double period = 1.0 / 24;
    double queue = firstCrawl; // every page discovered at once, all in flight
    double firstLeft = firstCrawl;
    double fetched = Double.NaN;
    double[][] trace = new double[hours][];
    for (int t = 0; t < hours; t++) {
      double lambda = countInFlight ? c.update(curve, fetched, queue) : c.update(curve, fetched);
      double released =
          firstLeft > 0
              ? 0
              : Math.max(
                  0,
                  modelError
                      * GRID.demandAt(curve, lambda)
                      * (1 + noise * rnd.nextGaussian())
                      * period);
      queue += released;
      double f = Math.min(queue, budget * period);
      queue -= f;
      firstLeft = Math.max(0, firstLeft - f);
      fetched = f / period;
      trace[t] = new double[] {fetched, queue, lambda};
    }
    return trace;
  }

  private static double mean(double[][] trace, int from, int column) {
    double s = 0;
    for (int t = from; t < trace.length; t++) {
      s += trace[t][column];
    }
    return s / (trace.length - from);
  }

  @Test
  void theFirstCrawlsBacklogNeitherHoldsLambdaUpNorTeachesTheFeedback() {
    double budget = 4000;
    double[] curve = frontier(7).total();
    GlobalLambdaController c = new GlobalLambdaController(GRID, budget, 1.0 / 24);
    double curvePrice =
        GRID.thresholdFor(curve, budget * (1 - GlobalLambdaController.DEFAULT_HEADROOM));
    // Five days of budget in flight at the start, nothing else released meanwhile.
    double[][] trace = crawl(c, curve, budget, 5 * budget, 0.97, 0.0, true, 24 * 4, 1);
    for (double[] hour : trace) {
      assertThat(hour[2])
          .as("lambda during the first crawl")
          .isCloseTo(curvePrice, withinPercentage(0.1));
    }
    assertThat(c.armed()).isFalse();
    assertThat(c.bias()).isZero();
  }

  @Test
  void theStartUpEndsOnceTheBacklogIsDownToTwoHoursOfBudgetEvenAboveItsAllowance() {
    // With learned rates the frontier releases more than the curve predicts, and at the curve's
    // price the crawler keeps an hour or so queued, above the half-hour allowance: waiting for the
    // allowance, the controller never armed, and neither the feedback nor the backlog term, which
    // would bring the queue down, ever acted.
    double budget = 4000;
    double[] curve = frontier(7).total();
    GlobalLambdaController c = new GlobalLambdaController(GRID, budget, 1.0 / 24);
    c.update(curve, Double.NaN, 3 * budget);
    for (int hour = 0; hour < 48; hour++) {
      c.update(curve, budget, budget * 3 / 24); // three hours queued: still the first crawl's tail
    }
    assertThat(c.armed()).isFalse();
    for (int hour = 0; hour < 48; hour++) {
      c.update(curve, budget, budget / 24); // one hour queued, and it stays there
    }
    assertThat(c.armed()).isTrue();
  }

  @Test
  void theTroughAfterTheFirstCrawlIsNotLearnedAsModelError() {
    double budget = 4000;
    double[] curve = frontier(7).total();
    GlobalLambdaController c = new GlobalLambdaController(GRID, budget, 1.0 / 24);
    // Two days of budget in flight; then the frontier sends only half of what the curve predicts.
    double[][] trace = crawl(c, curve, budget, 2 * budget, 0.5, 0.0, true, 24 * 4, 3);
    assertThat(c.armed()).isTrue();
    // Armed after about two days; for the next three the feedback learns nothing.
    assertThat(c.bias()).isZero();
    assertThat(trace[trace.length - 1][2]).isEqualTo(trace[24 * 3][2]);
    // Past that, a lasting shortfall is learned.
    crawl(c, curve, budget, 0, 0.5, 0.0, true, 24 * 2, 4);
    assertThat(c.bias()).isLessThan(-0.05);
  }

  @Test
  void afterTheFirstCrawlTheBudgetIsSpentWithinAQuarterPercentAndTheBacklogStaysShort() {
    double budget = 4000;
    double[] curve = frontier(8).total();
    for (double modelError : new double[] {0.97, 1.03}) {
      GlobalLambdaController c = new GlobalLambdaController(GRID, budget, 1.0 / 24);
      double[][] trace = crawl(c, curve, budget, 5 * budget, modelError, 0.1, true, 24 * 60, 2);
      assertThat(c.armed()).isTrue();
      assertThat(mean(trace, 24 * 30, 0) / budget)
          .as("share of the budget spent, model error %s", modelError)
          .isBetween(0.995, 1.0);
      for (int t = 24 * 30; t < trace.length; t++) {
        assertThat(trace[t][1])
            .as("backlog at hour %d, model error %s", t, modelError)
            .isLessThan(budget / 4);
      }
    }
  }

  /**
   * A crawl in compressed time (a day in 20 s, a control period of 10 s) that sends 10 % less than
   * the curve says: with its day stated, the feedback waits three of its days and learns the
   * shortfall within a few more; in real days it would wait three real days, longer than the whole
   * run, and the crawl would spend 90 % of its budget throughout.
   */
  @Test
  void aCrawlInCompressedTimeLearnsItsShortfallInDaysOfItsOwn() {
    double budget = 4000;
    double[] curve = frontier(10).total();
    double second = 1.0 / 86_400;
    double[] compressed =
        compressedRun(new GlobalLambdaController(GRID, budget, 10 * second, 20 * second), curve);
    double[] realDays = compressedRun(new GlobalLambdaController(GRID, budget, 10 * second), curve);
    assertThat(compressed[0] / budget).isBetween(0.985, 1.0);
    assertThat(realDays[0] / budget).isBetween(0.89, 0.91);
  }

  /** 60 periods of a crawl that sends 0.9 of the curve with a few seconds of it in flight. */
  private static double[] compressedRun(GlobalLambdaController c, double[] curve) {
    double sent = Double.NaN;
    double mean = 0;
    for (int t = 0; t < 60; t++) {
      double lambda = c.update(curve, sent, 0.2);
      sent = 0.9 * GRID.demandAt(curve, lambda);
      mean += t >= 40 ? sent / 20 : 0;
    }
    return new double[] {mean};
  }

  @Test
  void aControllerRestoredFromItsSnapshotGoesOnExactlyAsIfNeverStopped() {
    double budget = 4000;
    double[] curve = frontier(9).total();
    GlobalLambdaController a = new GlobalLambdaController(GRID, budget, 1.0 / 24);
    // Past the start-up, with a learned model error: there is state to lose.
    crawl(a, curve, budget, 2 * budget, 0.9, 0.0, true, 24 * 8, 5);
    assertThat(a.bias()).isLessThan(-0.02);
    GlobalLambdaController b = new GlobalLambdaController(GRID, budget, 1.0 / 24);
    b.restore(a.snapshot());
    assertThat(b.lambda()).isEqualTo(a.lambda());
    assertThat(b.epoch()).isEqualTo(a.epoch());
    GlobalLambdaController fresh = new GlobalLambdaController(GRID, budget, 1.0 / 24);
    double freshFirst = fresh.update(curve, 3900, 50);
    for (int t = 0; t < 48; t++) {
      double measured = 3900 + 10 * t;
      double inFlight = 50 + t;
      double lambda = a.update(curve, measured, inFlight);
      assertThat(b.update(curve, measured, inFlight)).as("period %d", t).isEqualTo(lambda);
      if (t == 0) {
        // A controller that starts afresh prices differently: the snapshot carried what was
        // learned.
        assertThat(freshFirst).isNotCloseTo(lambda, withinPercentage(1));
      }
    }
    assertThat(b.snapshot()).containsExactly(a.snapshot());
  }
}
