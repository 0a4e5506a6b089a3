package io.recrawl.optimum;

import io.recrawl.value.CrawlValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The exact static optimum of the crawl-rate problem, from its KKT conditions.
 *
 * <p>At threshold theta a page's rate is {@code objective.optimalRate(w, delta, theta)} within its
 * revisit bounds, and host i's demand D_i(theta) is the sum over its pages, non-increasing in
 * theta. Let theta_i^c be where D_i meets k_i (0 if it never exceeds k_i). Host i's threshold is
 * max(lambda_0, theta_i^c), its host lambda is max(0, theta_i^c - lambda_0), and it then uses
 * min(k_i, D_i(lambda_0)). The global lambda is therefore the root of T(lambda_0) = sum_i min(k_i,
 * D_i(lambda_0)) = k_0, or 0 if T(0) fits the budget; only then are the constrained hosts' own
 * thresholds solved. Both searches run on log demand against log threshold (see {@link
 * ThresholdSearch}) and land on the feasible side.
 */
public final class StaticOptimum {

  /** Solves on every core (hosts in parallel); the result does not depend on the thread count. */
  public static final StaticOptimum PARALLEL = new StaticOptimum(true);

  /** Solves on the calling thread only. */
  public static final StaticOptimum SEQUENTIAL = new StaticOptimum(false);

  /** About this many pages estimate the global lambda before the full passes start. */
  private static final int SAMPLE_PAGES = 20_000;

  private final boolean parallel;

  private StaticOptimum(boolean parallel) {
    this.parallel = parallel;
  }

  /** Solves with the default: all cores. */
  public static OptimumResult solve(OptimumProblem problem) {
    return PARALLEL.run(problem);
  }

  /**
   * Solves the problem.
   *
   * @throws IllegalArgumentException when it is unbounded: an unconstrained host with uncapped
   *     pages and an infinite global budget
   */
  public OptimumResult run(OptimumProblem problem) {
    HostPages hp = new HostPages(problem, parallel);
    int hosts = hp.hosts;
    double[] limit = problem.hostLimit;
    double budget = problem.budget;

    String infeasible = checkFloors(hp, limit, budget);
    if (infeasible != null) {
      return infeasibleResult(problem, hp, infeasible);
    }

    double[] perHost = new double[hosts];
    double totalAtZero = totalDemand(hp, limit, 0.0, perHost);
    if (totalAtZero == Double.POSITIVE_INFINITY && budget == Double.POSITIVE_INFINITY) {
      for (int i = 0; i < hosts; i++) {
        if (perHost[i] == Double.POSITIVE_INFINITY) {
          throw new IllegalArgumentException(
              "unbounded: host "
                  + i
                  + " has no max rate, pages without a max rate,"
                  + " and the global budget is infinite; give the host a limit or set a budget");
        }
      }
    }
    ThresholdRoot global = ThresholdRoot.exact(0.0);
    if (totalAtZero > budget) {
      double guess = sampledGlobalGuess(hp, limit, budget);
      global =
          ThresholdSearch.solve(
              t -> totalDemand(hp, limit, t, perHost), budget, 0.0, totalAtZero, guess);
    }
    double lambda0 = global.theta;

    // Hosts over their limit at lambda_0 get their own threshold theta_i^c > lambda_0.
    double[] ratePos = new double[hp.page.length];
    double[] demandAtGlobal = new double[hosts];
    hp.forEachHost(i -> demandAtGlobal[i] = hp.demandInto(i, lambda0, ratePos));
    int[] constrained =
        IntStream.range(0, hosts).filter(i -> demandAtGlobal[i] > limit[i]).toArray();
    ThresholdRoot[] hostRoot = new ThresholdRoot[hosts];
    Arrays.fill(hostRoot, global);
    if (global.fraction > 0) {
      // lambda_0 ends on a narrow bracket: each host takes its share of the mix, never past its
      // limit.
      ThresholdRoot g = global;
      hp.forEachHost(
          i -> {
            double below = hp.demand(i, g.lowTheta);
            double capped = Math.min(limit[i], below);
            double f =
                below > demandAtGlobal[i]
                    ? g.fraction * (capped - demandAtGlobal[i]) / (below - demandAtGlobal[i])
                    : 0;
            hostRoot[i] = g.withFraction(Math.max(0, f));
          });
    }
    hp.forEachHost(
        constrained,
        i -> {
          double guess =
              lambda0 > 0 && Double.isFinite(demandAtGlobal[i])
                  ? lambda0
                      * square(demandAtGlobal[i] / limit[i]) // D ~ theta^(-1/2) for small theta
                  : hostUniformRateGuess(hp, i, limit[i]);
          hostRoot[i] =
              ThresholdSearch.solve(
                  t -> hp.demand(i, t), limit[i], lambda0, demandAtGlobal[i], guess);
        });

    double[] hostDemand = new double[hosts];
    hp.forEachHost(
        i -> {
          if (hostRoot[i].theta == lambda0 && hostRoot[i].fraction == 0) {
            hostDemand[i] = demandAtGlobal[i]; // the rates stored at lambda_0 stand
            return;
          }
          double sum = 0;
          for (int pos = hp.start[i]; pos < hp.start[i + 1]; pos++) {
            ratePos[pos] = hp.rate(pos, hostRoot[i]);
            sum += ratePos[pos];
          }
          hostDemand[i] = sum;
        });
    double[] hostLambda = new double[hosts];
    for (int i = 0; i < hosts; i++) {
      hostLambda[i] = hostRoot[i].theta - lambda0;
    }
    KktResidual kkt =
        KktResidual.measure(hp, ratePos, limit, budget, lambda0, hostLambda, hostDemand);
    return finish(
        problem,
        hp,
        ratePos,
        OptimumResult.Status.OPTIMAL,
        null,
        lambda0,
        hostLambda,
        hostDemand,
        kkt);
  }

  /** T(theta) = sum_i min(k_i, D_i(theta)); fills {@code perHost} with each term. */
  private static double totalDemand(HostPages hp, double[] limit, double theta, double[] perHost) {
    hp.forEachHost(i -> perHost[i] = hp.demandUpTo(i, theta, limit[i]));
    double sum = 0;
    for (double d : perHost) {
      sum += d; // summed in host order, so the result does not depend on the thread count
    }
    return sum;
  }

  /**
   * Reports hosts whose floors exceed their limit, or floors that exceed the budget; null if none.
   */
  private static String checkFloors(HostPages hp, double[] limit, double budget) {
    double[] floors = new double[hp.hosts];
    hp.forEachHost(i -> floors[i] = hp.floorDemand(i));
    List<String> over = new ArrayList<>();
    double total = 0;
    for (int i = 0; i < hp.hosts; i++) {
      total += floors[i];
      if (floors[i] > limit[i]) {
        if (over.size() < 5) {
          over.add("host " + i + " (floors " + floors[i] + " > max rate " + limit[i] + ")");
        } else if (over.size() == 5) {
          over.add("...");
        }
      }
    }
    if (!over.isEmpty()) {
      return "the minimum revisit rates exceed host limits: " + String.join(", ", over);
    }
    if (total > budget) {
      return "the minimum revisit rates total "
          + total
          + " crawls/day, over the global budget "
          + budget;
    }
    return null;
  }

  /**
   * A first estimate of lambda_0 from a strided sample of pages, each standing for {@code stride}
   * pages of its host; it saves most of the full passes over the pages.
   */
  private static double sampledGlobalGuess(HostPages hp, double[] limit, double budget) {
    int n = hp.page.length;
    int stride = Math.max(1, n / SAMPLE_PAGES);
    double fallback = uniformRateGuess(hp, stride, budget);
    if (stride == 1) {
      return fallback; // small problems: the full passes are as cheap as a sample
    }
    java.util.function.DoubleUnaryOperator sampled =
        theta -> {
          double sum = 0;
          for (int i = 0; i < hp.hosts; i++) {
            int first = (hp.start[i] + stride - 1) / stride * stride;
            double host = 0;
            for (int pos = first; pos < hp.start[i + 1]; pos += stride) {
              host += stride * hp.rate(pos, theta);
            }
            sum += Math.min(limit[i], host);
          }
          return sum;
        };
    double atZero = sampled.applyAsDouble(0.0);
    if (!(atZero > budget)) {
      return fallback;
    }
    return ThresholdSearch.solve(sampled, budget, 0.0, atZero, fallback).theta;
  }

  /**
   * The geometric mean crawl value of every {@code stride}-th page when crawled at the uniform
   * rate.
   */
  private static double uniformRateGuess(HostPages hp, int stride, double totalRate) {
    int n = hp.page.length;
    double tau = n / totalRate;
    return geometricMeanValue(hp, 0, n, stride, tau);
  }

  /** The same guess for one host: its pages crawled uniformly at its max rate. */
  private static double hostUniformRateGuess(HostPages hp, int host, double hostLimit) {
    double tau = hp.size(host) / hostLimit;
    return geometricMeanValue(hp, hp.start[host], hp.start[host + 1], 1, tau);
  }

  private static double geometricMeanValue(HostPages hp, int from, int to, int stride, double tau) {
    double logSum = 0;
    int count = 0;
    for (int pos = from; pos < to; pos += stride) {
      double v = hp.objective.crawlValue(hp.weight[pos], hp.changeRate[pos], tau);
      if (v > 0 && Double.isFinite(v)) {
        logSum += Math.log(v);
        count++;
      }
    }
    return count == 0 ? 1.0 : Math.exp(logSum / count);
  }

  private static double square(double x) {
    return x * x;
  }

  private static OptimumResult infeasibleResult(OptimumProblem problem, HostPages hp, String why) {
    double[] ratePos = hp.minRate.clone();
    double[] hostDemand = new double[hp.hosts];
    double total = 0;
    double limits = 0;
    for (int i = 0; i < hp.hosts; i++) {
      for (int pos = hp.start[i]; pos < hp.start[i + 1]; pos++) {
        hostDemand[i] += ratePos[pos];
      }
      total += hostDemand[i];
      if (Double.isFinite(problem.hostLimit[i])) {
        limits = Math.max(limits, (hostDemand[i] - problem.hostLimit[i]) / problem.hostLimit[i]);
      }
    }
    double overBudget = Math.max(0, (total - problem.budget) / problem.budget);
    double[] hostLambda = new double[hp.hosts];
    Arrays.fill(hostLambda, Double.NaN); // no prices exist
    KktResidual kkt = new KktResidual(Math.max(0, limits), overBudget, 0, 0);
    return finish(
        problem,
        hp,
        ratePos,
        OptimumResult.Status.INFEASIBLE,
        why,
        Double.NaN,
        hostLambda,
        hostDemand,
        kkt);
  }

  private static OptimumResult finish(
      OptimumProblem problem,
      HostPages hp,
      double[] ratePos,
      OptimumResult.Status status,
      String why,
      double globalLambda,
      double[] hostLambda,
      double[] hostDemand,
      KktResidual kkt) {
    double[] rates = new double[ratePos.length];
    double objective = 0;
    double fresh = 0;
    double weights = 0;
    for (int pos = 0; pos < ratePos.length; pos++) {
      double r = ratePos[pos];
      rates[hp.page[pos]] = r;
      double w = hp.weight[pos];
      double d = hp.changeRate[pos];
      objective += problem.objective.utility(w, d, r);
      fresh += w * CrawlValue.freshness(d, 1.0 / r);
      weights += w;
    }
    return new OptimumResult(
        status, why, rates, globalLambda, hostLambda, hostDemand, objective, fresh / weights, kkt);
  }
}
