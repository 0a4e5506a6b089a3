package io.recrawl.sim.cli;

import io.recrawl.estimate.ChangeRateEstimator;
import io.recrawl.estimate.EstimatorEvaluation;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/recrawl estimator-report}: bias and RMSE of the change-rate estimator vs the naive and
 * Cho-GM ones.
 */
public final class EstimatorReport {

  private EstimatorReport() {}

  public static final String USAGE =
      String.join(
          "\n",
          "usage: bin/recrawl estimator-report [--seed S] [--pages N] [--min-rate R] [--max-rate R]",
          "                                    [--prior-rate R] [--prior-shape A] [--max-shape A] [--families]",
          "  --seed S         random seed (default 1)",
          "  --pages N        histories per scenario (default 20000)",
          "  --min-rate R     smallest true change rate, per day (default 0.01)",
          "  --max-rate R     largest true change rate, per day (default 10)",
          "  --prior-rate R   estimator prior mean rate, per day (default 1)",
          "  --prior-shape A  estimator prior weight, in observations (default 1)",
          "  --max-shape A    estimator shape cap (default 200)",
          "  --families       instead: the Gamma updated in place against the grid posterior with its learned",
          "                   prior, on the true rates of each workload family (--pages of each)");

  public static int run(String[] args) {
    Map<String, String> opts = new LinkedHashMap<>();
    opts.put("--seed", "1");
    opts.put("--pages", "20000");
    opts.put("--min-rate", "0.01");
    opts.put("--max-rate", "10");
    opts.put("--prior-rate", "1");
    opts.put("--prior-shape", "1");
    opts.put("--max-shape", "200");
    boolean families = false;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--families")) {
        families = true;
        continue;
      }
      if (args[i].equals("--help") || args[i].equals("-h")) {
        System.out.println(USAGE);
        return 0;
      }
      if (!opts.containsKey(args[i])) {
        System.err.println("estimator-report: unknown option '" + args[i] + "'\n" + USAGE);
        return 2;
      }
      if (i + 1 >= args.length) {
        System.err.println("estimator-report: " + args[i] + " needs a value\n" + USAGE);
        return 2;
      }
      opts.put(args[i], args[++i]);
    }
    long seed;
    int pages;
    double minRate;
    double maxRate;
    ChangeRateEstimator estimator;
    try {
      seed = Long.parseLong(opts.get("--seed"));
      pages = positiveInt(opts, "--pages");
      minRate = positive(opts, "--min-rate");
      maxRate = positive(opts, "--max-rate");
      if (maxRate < minRate) {
        throw new IllegalArgumentException("--max-rate must be >= --min-rate");
      }
      estimator =
          new ChangeRateEstimator(
              positive(opts, "--prior-rate"),
              positive(opts, "--prior-shape"),
              positive(opts, "--max-shape"));
    } catch (IllegalArgumentException e) {
      System.err.println("estimator-report: " + e.getMessage());
      return 2;
    }
    if (families) {
      System.out.printf(
          Locale.ROOT,
          "Change-rate estimates after a few crawls, on each workload family's true rates (%d pages, seed %d),"
              + " exponential gaps; both estimators see the same verdicts.%n%n",
          pages,
          seed);
      System.out.print(FamilyEstimates.report(pages, seed, estimator));
      return 0;
    }
    EstimatorEvaluation eval = new EstimatorEvaluation(estimator, minRate, maxRate, pages, seed);
    System.out.printf(
        Locale.ROOT,
        "Change-rate estimators on synthetic Poisson histories: %d pages per row, true rates log-uniform in"
            + " [%s, %s]/day, seed %d; ours = Gamma posterior mean (prior rate %s/day, prior shape %s, max shape %s),"
            + " naive = changes seen / time observed, Cho-GM = -ln((n - X + 0.5) / (n + 0.5)) / mean gap,"
            + " ours + Last-Modified = ours given the exact time of each last change.%n%n",
        pages,
        opts.get("--min-rate"),
        opts.get("--max-rate"),
        seed,
        opts.get("--prior-rate"),
        opts.get("--prior-shape"),
        opts.get("--max-shape"));
    System.out.print(
        EstimatorEvaluation.table(eval.evaluate(EstimatorEvaluation.standardScenarios())));
    return 0;
  }

  private static double positive(Map<String, String> opts, String key) {
    double v;
    try {
      v = Double.parseDouble(opts.get(key));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a number, got '" + opts.get(key) + "'");
    }
    if (!(v > 0) || Double.isNaN(v)) {
      throw new IllegalArgumentException(key + " must be > 0, got '" + opts.get(key) + "'");
    }
    return v;
  }

  private static int positiveInt(Map<String, String> opts, String key) {
    try {
      int v = Integer.parseInt(opts.get(key));
      if (v <= 0) {
        throw new IllegalArgumentException(key + " must be > 0, got '" + opts.get(key) + "'");
      }
      return v;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          key + " must be a whole number, got '" + opts.get(key) + "'");
    }
  }
}
