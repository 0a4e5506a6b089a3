package io.recrawl.estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Compares the change-rate estimator with the naive one (changes seen / time observed) and with Cho
 * and Garcia-Molina's improved estimator on synthetic Poisson histories: true rates log-uniform,
 * crawl gaps regular or exponential.
 */
public final class EstimatorEvaluation {

  /** How the crawl gaps of a synthetic history are drawn. */
  public enum Gaps {
    REGULAR,
    EXPONENTIAL
  }

  /**
   * One family of histories.
   *
   * @param gapTimesRate the mean crawl gap as a multiple of the page's mean time between changes
   *     1/delta
   * @param crawls the number of observed intervals in each history
   */
  public record Scenario(Gaps gaps, double gapTimesRate, int crawls) {}

  /**
   * Errors of one estimator over one scenario. Relative errors are of est/true - 1; log errors are
   * of ln(est/true) over the positive estimates only; {@code zeroFraction} counts the estimates of
   * 0.
   */
  public record Errors(
      double relBias, double relRmse, double logBias, double logRmse, double zeroFraction) {}

  /**
   * The result for one scenario. {@code cho} is Cho and Garcia-Molina's improved estimator for
   * regular gaps, -ln((n - X + 0.5) / (n + 0.5)) / mean gap, applied to the mean gap when gaps
   * vary. {@code oursLastModified} is ours when every changed fetch also reports the exact time of
   * the last change (a trustworthy Last-Modified), used through {@link
   * ChangeRateEstimator#observeChangeAt}.
   */
  public record Row(
      Scenario scenario, Errors ours, Errors naive, Errors cho, Errors oursLastModified) {}

  private final ChangeRateEstimator estimator;
  private final double minRate;
  private final double maxRate;
  private final int pages;
  private final long seed;

  /**
   * @param minRate the smallest true change rate (per day)
   * @param maxRate the largest true change rate (per day)
   * @param pages histories simulated per scenario
   */
  public EstimatorEvaluation(
      ChangeRateEstimator estimator, double minRate, double maxRate, int pages, long seed) {
    if (!(minRate > 0) || !(maxRate >= minRate) || pages <= 0) {
      throw new IllegalArgumentException("need 0 < minRate <= maxRate and pages > 0");
    }
    this.estimator = estimator;
    this.minRate = minRate;
    this.maxRate = maxRate;
    this.pages = pages;
    this.seed = seed;
  }

  /**
   * Regular and exponential gaps, at 0.2, 1 and 5 times 1/delta, with histories of 10 and 50
   * crawls.
   */
  public static List<Scenario> standardScenarios() {
    List<Scenario> out = new ArrayList<>();
    for (int crawls : new int[] {10, 50}) {
      for (Gaps gaps : Gaps.values()) {
        for (double g : new double[] {0.2, 1.0, 5.0}) {
          out.add(new Scenario(gaps, g, crawls));
        }
      }
    }
    return out;
  }

  public List<Row> evaluate(List<Scenario> scenarios) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < scenarios.size(); i++) {
      // The Last-Modified draws use their own stream, so the other columns do not depend on them.
      rows.add(
          evaluate(
              scenarios.get(i),
              new SplittableRandom(seed * 1_000_003L + i),
              new SplittableRandom(~(seed * 1_000_003L + i))));
    }
    return rows;
  }

  Row evaluate(Scenario sc, SplittableRandom rnd, SplittableRandom lastModifiedRnd) {
    ErrorAccumulator ours = new ErrorAccumulator();
    ErrorAccumulator naive = new ErrorAccumulator();
    ErrorAccumulator cho = new ErrorAccumulator();
    ErrorAccumulator oursLm = new ErrorAccumulator();
    double lnMin = Math.log(minRate);
    double lnMax = Math.log(maxRate);
    for (int p = 0; p < pages; p++) {
      double truth = Math.exp(lnMin + (lnMax - lnMin) * rnd.nextDouble());
      double meanGap = sc.gapTimesRate() / truth;
      ChangeStats stats = estimator.prior();
      ChangeStats statsLm = estimator.prior();
      int changes = 0;
      double time = 0;
      for (int c = 0; c < sc.crawls(); c++) {
        double gap =
            sc.gaps() == Gaps.REGULAR ? meanGap : -meanGap * Math.log(1 - rnd.nextDouble());
        // P(at least one change of a Poisson(truth) process in the gap)
        boolean changed = rnd.nextDouble() < -Math.expm1(-truth * gap);
        stats = estimator.observe(stats, gap, changed);
        if (changed) {
          // Time from the last change to the fetch: exponential(truth) conditioned on being <= gap.
          double u = lastModifiedRnd.nextDouble();
          double since = -Math.log1p(u * Math.expm1(-truth * gap)) / truth;
          statsLm = estimator.observeChangeAt(statsLm, gap, Math.min(since, gap));
        } else {
          statsLm = estimator.observe(statsLm, gap, false);
        }
        changes += changed ? 1 : 0;
        time += gap;
      }
      ours.add(estimator.rate(stats), truth);
      oursLm.add(estimator.rate(statsLm), truth);
      naive.add(changes / time, truth);
      int n = sc.crawls();
      cho.add(-Math.log((n - changes + 0.5) / (n + 0.5)) / (time / n), truth);
    }
    return new Row(sc, ours.errors(), naive.errors(), cho.errors(), oursLm.errors());
  }

  /** A markdown table of the rows, one line per scenario and estimator. */
  public static String table(List<Row> rows) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        "| gaps | mean gap × δ | crawls | estimator | rel. bias | rel. RMSE | log bias | log RMSE | share of 0 |\n");
    sb.append("|---|---:|---:|---|---:|---:|---:|---:|---:|\n");
    for (Row r : rows) {
      line(sb, r.scenario(), "ours", r.ours());
      line(sb, r.scenario(), "naive", r.naive());
      line(sb, r.scenario(), "Cho-GM", r.cho());
      line(sb, r.scenario(), "ours + Last-Modified", r.oursLastModified());
    }
    return sb.toString();
  }

  private static void line(StringBuilder sb, Scenario s, String name, Errors e) {
    sb.append(
        String.format(
            Locale.ROOT,
            "| %s | %.1f | %d | %s | %+.3f | %.3f | %s | %s | %.1f%% |%n",
            s.gaps().name().toLowerCase(Locale.ROOT),
            s.gapTimesRate(),
            s.crawls(),
            name,
            e.relBias(),
            e.relRmse(),
            fmt(e.logBias(), true),
            fmt(e.logRmse(), false),
            100 * e.zeroFraction()));
  }

  private static String fmt(double v, boolean signed) {
    if (Double.isNaN(v)) {
      return "n/a";
    }
    return String.format(Locale.ROOT, signed ? "%+.3f" : "%.3f", v);
  }

  /** Running sums of relative and log errors. */
  private static final class ErrorAccumulator {
    private long n;
    private double rel;
    private double rel2;
    private long positive;
    private double log;
    private double log2;

    void add(double estimate, double truth) {
      double e = estimate / truth - 1;
      n++;
      rel += e;
      rel2 += e * e;
      if (estimate > 0) {
        double l = Math.log(estimate / truth);
        positive++;
        log += l;
        log2 += l * l;
      }
    }

    Errors errors() {
      double logBias = positive == 0 ? Double.NaN : log / positive;
      double logRmse = positive == 0 ? Double.NaN : Math.sqrt(log2 / positive);
      return new Errors(
          rel / n, Math.sqrt(rel2 / n), logBias, logRmse, (n - positive) / (double) n);
    }
  }
}
