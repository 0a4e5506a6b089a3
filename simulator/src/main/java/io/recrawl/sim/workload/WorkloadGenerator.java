package io.recrawl.sim.workload;

import java.util.SplittableRandom;

/**
 * Generates a synthetic workload: Zipf host sizes, change rates from one of four families, heavy-
 * tailed weights, and a random fraction of hosts limited to {@code base + perPage x size} crawls
 * per day. The default family ({@link Family#LOGNORMAL}) is a population common in the recrawl
 * literature: median change rate 0.2 a day with sigma 1.5 in ln(rate), Pareto(1.5) weights, host
 * sizes proportional to 1/rank. The other families change the shape of the rate distribution and
 * bring weights and host sizes of their own, so that an estimator or a prior fitted to one family
 * is tested on another.
 */
public final class WorkloadGenerator {

  /** The shape of the change-rate distribution, with its own weights and host sizes. */
  public enum Family {
    /**
     * ln(rate) normal (median {@code rateMedian}, sigma {@code rateSigma}); Pareto(1.5) weights;
     * Zipf 1.0.
     */
    LOGNORMAL,
    /**
     * A two-component Gamma mixture: each host has its own share of fast pages, Beta(1, 3) (mean
     * 1/4); a fast page changes at Gamma(shape 2, mean 3) a day, a slow one at Gamma(shape 1.5,
     * mean 0.03). Pareto(1.2) weights (heavier), Zipf 0.8 (flatter).
     */
    BIMODAL,
    /**
     * Pareto change rates: 0.02 x U^(-1/0.7) a day (median 0.054, 6.5 % above one a day); each host
     * scales its pages' rates by e^{N(0, 0.5)}. Log-normal weights (sigma 1.2), Zipf 1.2 (steeper).
     */
    PARETO,
    /**
     * A web where a few big hosts hold most pages and a third of the hosts are tightly limited:
     * Zipf 1.3 host sizes; each limited host allows {@code base + perPage x e^{U(ln 0.4, ln 3)} x
     * size} crawls a day (2 to 15 % of its pages at the default 0.05); a fast group of pages (each
     * host's share Beta(1, 4), mean 1/5) changing at a log-normal rate of median 2 a day (sigma
     * 0.5) and a slow majority at median 0.03 a day (sigma 1.0); log-normal weights with sigma 2
     * (wide).
     */
    ZIPF_TIGHT;

    /** The family's name on the command line: lower case, '-' for '_'. */
    public String cliName() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    public static Family parse(String name) {
      for (Family f : values()) {
        if (f.cliName().equalsIgnoreCase(name) || f.name().equalsIgnoreCase(name)) {
          return f;
        }
      }
      throw new IllegalArgumentException(
          "--family must be lognormal, bimodal, pareto or zipf-tight; got '" + name + "'");
    }
  }

  /** Generator settings; every field has a documented default. */
  public static final class Options {
    public Family family = Family.LOGNORMAL;
    public int pages = 100_000;
    public int hosts = 1_000;
    public long seed = 1;

    /** Median change rate, per day. */
    public double rateMedian = 0.2;

    /** Standard deviation of ln(change rate). */
    public double rateSigma = 1.5;

    public double rateMin = 1e-3;
    public double rateMax = 20;

    /** Pareto shape of the weights (scale 1); smaller is heavier-tailed. */
    public double weightAlpha = 1.5;

    /** Zipf exponent of host sizes: host r (1-based) gets pages in proportion to r^-s. */
    public double zipf = 1.0;

    /** Fraction of hosts with a politeness limit. */
    public double constrainedFraction = 0.3;

    /** Tightness: a limited host allows base + perPage x (its pages) crawls per day. */
    public double constrainedPerPage = 0.05;

    public double constrainedBase = 1.0;

    /** Options with the family's own weights and host sizes (the other settings as defaults). */
    public static Options of(Family family) {
      Options o = new Options();
      o.family = family;
      switch (family) {
        case BIMODAL:
          o.weightAlpha = 1.2;
          o.zipf = 0.8;
          break;
        case PARETO:
          o.zipf = 1.2;
          break;
        case ZIPF_TIGHT:
          o.zipf = 1.3;
          o.constrainedFraction = 1.0 / 3;
          break;
        default:
          break;
      }
      return o;
    }

    void validate() {
      require(pages >= 1, "--pages must be >= 1");
      require(hosts >= 1 && hosts <= pages, "--hosts must be between 1 and --pages");
      require(rateMedian > 0 && rateSigma >= 0, "--rate-median must be > 0 and --rate-sigma >= 0");
      require(rateMin > 0 && rateMax >= rateMin, "need 0 < --rate-min <= --rate-max");
      require(weightAlpha > 0, "--weight-alpha must be > 0");
      require(zipf >= 0, "--zipf must be >= 0");
      require(
          constrainedFraction >= 0 && constrainedFraction <= 1,
          "--constrained-fraction must be in [0, 1]");
      require(
          constrainedPerPage >= 0
              && constrainedBase >= 0
              && constrainedPerPage + constrainedBase > 0,
          "--constrained-per-page and --constrained-base must be >= 0, not both 0");
    }

    private static void require(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException(message);
      }
    }
  }

  private WorkloadGenerator() {}

  public static Workload generate(Options o) {
    o.validate();
    SplittableRandom rnd = new SplittableRandom(o.seed);
    int[] sizes = zipfSizes(o.pages, o.hosts, o.zipf);
    String[] hostNames = new String[o.hosts];
    double[] maxRate = new double[o.hosts];
    int constrained = (int) Math.round(o.constrainedFraction * o.hosts);
    // Choose the limited hosts uniformly at random (partial Fisher-Yates), independent of size.
    int[] order = new int[o.hosts];
    for (int h = 0; h < o.hosts; h++) {
      order[h] = h;
      hostNames[h] = "h" + h + ".example";
      maxRate[h] = Double.POSITIVE_INFINITY;
    }
    for (int k = 0; k < constrained; k++) {
      int j = k + rnd.nextInt(o.hosts - k);
      int t = order[k];
      order[k] = order[j];
      order[j] = t;
      double perPage = o.constrainedPerPage;
      if (o.family == Family.ZIPF_TIGHT) {
        // Tightly limited, each host its own way: 0.4 to 3 times perPage, uniform in its log.
        perPage *= Math.exp(Math.log(0.4) + rnd.nextDouble() * Math.log(3 / 0.4));
      }
      maxRate[order[k]] = o.constrainedBase + perPage * sizes[order[k]];
    }
    String[] urls = new String[o.pages];
    int[] hostOf = new int[o.pages];
    double[] weight = new double[o.pages];
    double[] rate = new double[o.pages];
    int p = 0;
    for (int h = 0; h < o.hosts; h++) {
      // Host-level traits (not drawn for the log-normal family, whose draw is unchanged).
      double fastShare = 0;
      double hostScale = 1;
      if (o.family == Family.BIMODAL) {
        fastShare = 1 - Math.pow(1 - rnd.nextDouble(), 1.0 / 3); // Beta(1, 3)
      } else if (o.family == Family.PARETO) {
        hostScale = Math.exp(0.5 * gaussian(rnd));
      } else if (o.family == Family.ZIPF_TIGHT) {
        fastShare = 1 - Math.pow(1 - rnd.nextDouble(), 1.0 / 4); // Beta(1, 4)
      }
      for (int k = 0; k < sizes[h]; k++, p++) {
        urls[p] = "https://" + hostNames[h] + "/p" + k;
        hostOf[p] = h;
        double r;
        switch (o.family) {
          case BIMODAL:
            r =
                rnd.nextDouble() < fastShare
                    ? gamma(rnd, 2.0) * 3.0 / 2.0
                    : gamma(rnd, 1.5) * 0.03 / 1.5;
            weight[p] = Math.pow(1 - rnd.nextDouble(), -1.0 / o.weightAlpha);
            break;
          case PARETO:
            r = hostScale * 0.02 * Math.pow(1 - rnd.nextDouble(), -1.0 / 0.7);
            weight[p] = Math.exp(1.2 * gaussian(rnd));
            break;
          case ZIPF_TIGHT:
            r =
                rnd.nextDouble() < fastShare
                    ? 2.0 * Math.exp(0.5 * gaussian(rnd))
                    : 0.03 * Math.exp(1.0 * gaussian(rnd));
            weight[p] = Math.exp(2.0 * gaussian(rnd));
            break;
          default:
            r = o.rateMedian * Math.exp(o.rateSigma * gaussian(rnd));
            weight[p] = Math.pow(1 - rnd.nextDouble(), -1.0 / o.weightAlpha);
            break;
        }
        rate[p] = Math.min(o.rateMax, Math.max(o.rateMin, r));
      }
    }
    return new Workload(urls, hostOf, weight, rate, hostNames, maxRate);
  }

  /**
   * Host sizes proportional to rank^-s, at least one page each, summing exactly to {@code pages}.
   */
  static int[] zipfSizes(int pages, int hosts, double s) {
    double[] share = new double[hosts];
    double total = 0;
    for (int h = 0; h < hosts; h++) {
      share[h] = Math.pow(h + 1, -s);
      total += share[h];
    }
    int[] sizes = new int[hosts];
    int spare = pages - hosts; // every host gets one page first
    int given = 0;
    double[] remainder = new double[hosts];
    for (int h = 0; h < hosts; h++) {
      double exact = spare * share[h] / total;
      sizes[h] = 1 + (int) Math.floor(exact);
      remainder[h] = exact - Math.floor(exact);
      given += sizes[h] - 1;
    }
    // Largest remainders take the pages rounding left over; ties go to the bigger host.
    Integer[] idx = new Integer[hosts];
    for (int h = 0; h < hosts; h++) {
      idx[h] = h;
    }
    java.util.Arrays.sort(idx, (a, b) -> Double.compare(remainder[b], remainder[a]));
    for (int k = 0; given < spare; k++, given++) {
      sizes[idx[k]]++;
    }
    return sizes;
  }

  /** A Gamma(shape, 1) draw (Marsaglia and Tsang; shape >= 1). */
  static double gamma(SplittableRandom rnd, double shape) {
    double d = shape - 1.0 / 3;
    double c = 1 / Math.sqrt(9 * d);
    while (true) {
      double x = gaussian(rnd);
      double v = 1 + c * x;
      if (v <= 0) {
        continue;
      }
      v = v * v * v;
      double u = rnd.nextDouble();
      if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) {
        return d * v;
      }
    }
  }

  private static double gaussian(SplittableRandom rnd) {
    // Box-Muller: SplittableRandom has no nextGaussian on Java 17.
    double u = 1 - rnd.nextDouble();
    double v = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
