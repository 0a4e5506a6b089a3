package io.recrawl.flink.bench;

import io.recrawl.optimum.OptimumProblem;
import io.recrawl.optimum.OptimumResult;
import io.recrawl.optimum.StaticOptimum;
import io.recrawl.value.Objective;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Times the exact static optimum on a generated workload: Zipf-sized hosts, log-normal change
 * rates, Pareto weights, a fraction of hosts with a politeness limit, and a global budget.
 */
public final class SolverBenchmark {

  public static final String OPTIONS =
      "[--pages 1000000] [--hosts 10000] [--constrained-fraction 0.3] [--seed 1]"
          + " [--budget-per-page 0.2] [--objective freshness] [--runs 3] [--sequential]";

  private SolverBenchmark() {}

  /** The generated workload, in the solver's input form. */
  static final class Workload {
    final double[] weight;
    final double[] changeRate;
    final int[] hostIndex;
    final double[] hostLimit;
    final int limitedHosts;

    Workload(
        double[] weight,
        double[] changeRate,
        int[] hostIndex,
        double[] hostLimit,
        int limitedHosts) {
      this.weight = weight;
      this.changeRate = changeRate;
      this.hostIndex = hostIndex;
      this.hostLimit = hostLimit;
      this.limitedHosts = limitedHosts;
    }
  }

  public static int run(String[] args) {
    int pages = 1_000_000;
    int hosts = 10_000;
    double constrainedFraction = 0.3;
    long seed = 1;
    double budgetPerPage = 0.2;
    String objectiveName = "freshness";
    int runs = 3;
    boolean sequential = false;
    try {
      for (int a = 0; a < args.length; a++) {
        String opt = args[a];
        if (opt.equals("--sequential")) {
          sequential = true;
          continue;
        }
        if (a + 1 >= args.length) {
          throw new IllegalArgumentException("option " + opt + " needs a value");
        }
        String v = args[++a];
        try {
          switch (opt) {
            case "--pages":
              pages = Integer.parseInt(v);
              break;
            case "--hosts":
              hosts = Integer.parseInt(v);
              break;
            case "--constrained-fraction":
              constrainedFraction = Double.parseDouble(v);
              break;
            case "--seed":
              seed = Long.parseLong(v);
              break;
            case "--budget-per-page":
              budgetPerPage = Double.parseDouble(v);
              break;
            case "--objective":
              objectiveName = v;
              break;
            case "--runs":
              runs = Integer.parseInt(v);
              break;
            default:
              throw new IllegalArgumentException("unknown option " + opt);
          }
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(opt + ": not a number: '" + v + "'");
        }
      }
      if (pages < 1 || hosts < 1 || hosts > pages) {
        throw new IllegalArgumentException("need 1 <= --hosts <= --pages");
      }
      if (!(constrainedFraction >= 0 && constrainedFraction <= 1)) {
        throw new IllegalArgumentException("--constrained-fraction must be in [0, 1]");
      }
      if (!(budgetPerPage > 0) || runs < 1) {
        throw new IllegalArgumentException("--budget-per-page must be > 0 and --runs >= 1");
      }
    } catch (IllegalArgumentException e) { // includes NumberFormatException
      System.err.println("recrawl bench solver: " + e.getMessage());
      System.err.println("usage: bin/recrawl bench solver " + OPTIONS);
      return 2;
    }
    Objective objective;
    try {
      objective = Objective.byName(objectiveName);
    } catch (IllegalArgumentException e) {
      System.err.println("recrawl bench solver: " + e.getMessage());
      return 2;
    }

    long t0 = System.nanoTime();
    Workload w = generate(pages, hosts, constrainedFraction, seed);
    double budget = budgetPerPage * pages;
    OptimumProblem problem =
        OptimumProblem.builder(w.weight, w.changeRate, w.hostIndex, w.hostLimit)
            .budget(budget)
            .objective(objective)
            .build();
    long t1 = System.nanoTime();
    System.out.printf(
        Locale.ROOT,
        "workload: %,d pages on %,d hosts, %,d hosts with a limit, budget %.0f crawls/day,"
            + " objective %s, seed %d (generated in %.2f s)%n",
        pages,
        hosts,
        w.limitedHosts,
        budget,
        objective.name(),
        seed,
        (t1 - t0) / 1e9);
    java.lang.management.OperatingSystemMXBean os =
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    System.out.printf(
        Locale.ROOT,
        "machine: %d cores available to the JVM, load average %.1f, solver threads: %s%n",
        Runtime.getRuntime().availableProcessors(),
        os.getSystemLoadAverage(),
        sequential ? "1 (--sequential)" : "all");

    StaticOptimum solver = sequential ? StaticOptimum.SEQUENTIAL : StaticOptimum.PARALLEL;
    OptimumResult r = null;
    for (int run = 1; run <= runs; run++) {
      long cpu = processCpuNanos(os);
      long s = System.nanoTime();
      r = solver.run(problem);
      double secs = (System.nanoTime() - s) / 1e9;
      double cpuSecs = (processCpuNanos(os) - cpu) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "run %d: solved in %.3f s wall, %.3f s CPU%s%n",
          run,
          secs,
          cpuSecs,
          run == 1 ? " (cold JVM)" : "");
    }
    int never = 0;
    for (double rate : r.rates()) {
      if (rate == 0) {
        never++;
      }
    }
    System.out.printf(Locale.ROOT, "status %s%n", r.status());
    System.out.printf(Locale.ROOT, "global lambda %.9g%n", r.globalLambda());
    System.out.printf(
        Locale.ROOT,
        "constrained hosts (host lambda > 0): %,d of %,d with a limit%n",
        r.constrainedHosts(),
        w.limitedHosts);
    System.out.printf(
        Locale.ROOT,
        "total rate %.6f of budget %.0f crawls/day; pages never crawled %.1f%%%n",
        r.totalRate(),
        budget,
        100.0 * never / pages);
    System.out.printf(Locale.ROOT, "weighted freshness %.6f%n", r.weightedFreshness());
    System.out.printf(
        Locale.ROOT,
        "KKT residual %.3g (host limits %.3g, budget %.3g, slackness %.3g, stationarity %.3g)%n",
        r.kktResidual(),
        r.kkt().hostLimits(),
        r.kkt().budget(),
        r.kkt().slackness(),
        r.kkt().stationarity());
    return 0;
  }

  /** CPU time of the whole JVM (all threads, including the JIT and GC), or -1 where unavailable. */
  private static long processCpuNanos(java.lang.management.OperatingSystemMXBean os) {
    if (os instanceof com.sun.management.OperatingSystemMXBean) {
      return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
    }
    return -1;
  }

  /**
   * Zipf(1) host sizes (at least one page each), change rates log-normal with median 0.2/day and
   * sigma 1.5 clipped to [0.001, 20], weights Pareto(1.5) (at least 1), and a random {@code
   * constrainedFraction} of hosts limited to 0.05 x size + 1 crawls/day.
   */
  static Workload generate(int pages, int hosts, double constrainedFraction, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] size = new int[hosts];
    double harmonic = 0;
    for (int i = 0; i < hosts; i++) {
      harmonic += 1.0 / (i + 1);
    }
    int assigned = 0;
    int spare = pages - hosts; // every host gets one page, the rest are shared out by Zipf weight
    for (int i = 0; i < hosts; i++) {
      size[i] = 1 + (int) Math.floor(spare / harmonic / (i + 1));
      assigned += size[i];
    }
    size[0] += pages - assigned; // rounding leftovers go to the largest host
    double[] weight = new double[pages];
    double[] changeRate = new double[pages];
    int[] hostIndex = new int[pages];
    double[] limit = new double[hosts];
    int limited = 0;
    int j = 0;
    for (int i = 0; i < hosts; i++) {
      if (rnd.nextDouble() < constrainedFraction) {
        limit[i] = 0.05 * size[i] + 1;
        limited++;
      } else {
        limit[i] = Double.POSITIVE_INFINITY;
      }
      for (int k = 0; k < size[i]; k++, j++) {
        hostIndex[j] = i;
        changeRate[j] = Math.min(20, Math.max(1e-3, 0.2 * Math.exp(1.5 * gaussian(rnd))));
        weight[j] = Math.pow(1 - rnd.nextDouble(), -1 / 1.5);
      }
    }
    return new Workload(weight, changeRate, hostIndex, limit, limited);
  }

  private static double gaussian(SplittableRandom rnd) {
    // Box-Muller; SplittableRandom has no nextGaussian on Java 17.
    double u = 1 - rnd.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd.nextDouble());
  }
}
