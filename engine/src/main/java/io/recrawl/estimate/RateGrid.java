package io.recrawl.estimate;

import java.util.Arrays;

/**
 * A change-rate posterior over a fixed grid in ln(delta), with a prior learned from the crawl
 * itself (empirical Bayes), projected onto the Gamma the rest of the engine plans with.
 *
 * <p>A page keeps four numbers, its evidence, not its posterior: U, the time it was seen unchanged
 * (unchanged gaps, and the time since a dated change); C, its "changed" verdicts; L, the mean ln
 * gap of those; X, its changes with a known time. Its likelihood is
 *
 * <pre>e^{-delta U} (1 - e^{-delta e^L})^C delta^X,</pre>
 *
 * exact but for the changed gaps replaced by their geometric mean. The posterior on the grid is
 * that times the prior, exactly, at any time and under any prior; its E[delta] and E[1/delta] give
 * the Gamma it is planned with (the two moments the crawl value rests on, as in {@link
 * ChangeRateEstimator#observe}). The prior is the mean of the posteriors of the pages with evidence
 * (each page counted once, its term refreshed whenever it is observed): the fixed point of this is
 * the crawl's own rate distribution, whatever shape it has, two modes or a heavy tail.
 *
 * <p>The grid spans six decades around the configured prior's mean rate (its unit): from {@link
 * #MIN_RATE} to {@link #MAX_RATE} times it. A crawl's time scale is its prior's, so a crawl whose
 * pages change every few seconds (a benchmark in compressed time) is learned as well as one whose
 * pages change every few days; on a fixed grid in changes a day its estimates stopped at the top
 * (docs/decisions/rate-grid-unit.md).
 */
public final class RateGrid {

  /** Grid points, from {@link #MIN_RATE} to {@link #MAX_RATE} units, evenly in ln(delta). */
  public static final int POINTS = 25;

  public static final double MIN_RATE = 1e-4;
  public static final double MAX_RATE = 100;

  private static final double[] RATE = new double[POINTS];
  private static final double[] LN_RATE = new double[POINTS];

  static {
    double step = Math.log(MAX_RATE / MIN_RATE) / (POINTS - 1);
    for (int k = 0; k < POINTS; k++) {
      LN_RATE[k] = Math.log(MIN_RATE) + k * step;
      RATE[k] = Math.exp(LN_RATE[k]);
    }
  }

  /** A page's evidence: exposure U (days), changed verdicts C, their mean ln gap L, dated X. */
  public record Evidence(double unchanged, double changed, double meanLnGap, double dated) {
    public static final Evidence NONE = new Evidence(0, 0, 0, 0);

    public boolean none() {
      return unchanged == 0 && changed == 0 && dated == 0;
    }
  }

  /** The evidence after a fetch with this verdict over {@code interval} days. */
  public static Evidence observe(Evidence e, double interval, boolean changed, double maxCount) {
    if (!(interval > 0) || Double.isInfinite(interval)) {
      return e;
    }
    Evidence n =
        changed
            ? new Evidence(
                e.unchanged(),
                e.changed() + 1,
                (e.meanLnGap() * e.changed() + Math.log(interval)) / (e.changed() + 1),
                e.dated())
            : new Evidence(e.unchanged() + interval, e.changed(), e.meanLnGap(), e.dated());
    return capped(n, maxCount);
  }

  /** The evidence after a change dated {@code sinceChange} days before the fetch, none since. */
  public static Evidence observeChangeAt(Evidence e, double sinceChange, double maxCount) {
    return capped(
        new Evidence(e.unchanged() + sinceChange, e.changed(), e.meanLnGap(), e.dated() + 1),
        maxCount);
  }

  /** Past maxCount events, all evidence is discounted alike so that a drifting rate is followed. */
  private static Evidence capped(Evidence e, double maxCount) {
    double events = e.changed() + e.dated();
    if (events <= maxCount) {
      return e;
    }
    double f = maxCount / events;
    return new Evidence(e.unchanged() * f, e.changed() * f, e.meanLnGap(), e.dated() * f);
  }

  /**
   * The posterior on the grid (normalised) for this evidence under {@code prior}, on a grid of
   * {@code unit} changes a day.
   */
  public static double[] posterior(Evidence e, double[] prior, double unit) {
    double[] log = new double[POINTS];
    double max = Double.NEGATIVE_INFINITY;
    double gap = Math.exp(e.meanLnGap());
    for (int k = 0; k < POINTS; k++) {
      double d = RATE[k] * unit;
      // ln(unit) is the same at every point: left out of delta^X.
      double l = Math.log(prior[k]) - d * e.unchanged() + e.dated() * LN_RATE[k];
      if (e.changed() > 0) {
        l += e.changed() * Math.log(-Math.expm1(-d * gap));
      }
      log[k] = l;
      max = Math.max(max, l);
    }
    double sum = 0;
    for (int k = 0; k < POINTS; k++) {
      log[k] = Math.exp(log[k] - max);
      sum += log[k];
    }
    for (int k = 0; k < POINTS; k++) {
      log[k] /= sum;
    }
    return log;
  }

  /** {@link #posterior(Evidence, double[], double)} on the grid of one change a day. */
  public static double[] posterior(Evidence e, double[] prior) {
    return posterior(e, prior, 1);
  }

  /**
   * The Gamma with the posterior's E[delta] and E[1/delta], its shape capped at {@code maxShape},
   * on a grid of {@code unit} changes a day.
   */
  public static ChangeStats project(double[] posterior, double maxShape, double unit) {
    double mean = 0;
    double meanInverse = 0;
    for (int k = 0; k < POINTS; k++) {
      mean += posterior[k] * RATE[k];
      meanInverse += posterior[k] / RATE[k];
    }
    double m = mean * meanInverse;
    double a = m > 1 ? Math.min(m / (m - 1), maxShape) : maxShape;
    return new ChangeStats(a, a / (mean * unit));
  }

  /** {@link #project(double[], double, double)} on the grid of one change a day. */
  public static ChangeStats project(double[] posterior, double maxShape) {
    return project(posterior, maxShape, 1);
  }

  /** The grid's rates, units. */
  public static double rate(int k) {
    return RATE[k];
  }

  /** The learned prior: the mean of the pages' posteriors. */
  public static final class Prior {
    private final double[] mass = new double[POINTS];
    private final double[] probability = new double[POINTS];
    private final double unit;
    private double pages;

    /** Starts uniform in ln(delta) on the grid of one change a day, worth {@code weight} pages. */
    public Prior(double weight) {
      unit = 1;
      Arrays.fill(mass, weight / POINTS);
      pages = weight;
      normalise();
    }

    /**
     * Starts from the configured Gamma prior on the grid (its density in ln(delta), proportional to
     * delta^shape e^(-delta shape/mean)), worth {@code weight} pages. Where the crawl cannot tell
     * rates apart (above one change per shortest gap, below one per the longest history), the
     * learned prior keeps this one's shape: the data never move it there. Its grid's unit is the
     * Gamma's mean.
     */
    public Prior(double weight, ChangeStats gamma) {
      unit = gamma.shape() / gamma.rate();
      double sum = 0;
      for (int k = 0; k < POINTS; k++) {
        // delta = RATE[k] x unit; the constant factors of unit^shape cancel in the normalisation.
        mass[k] = Math.exp(gamma.shape() * LN_RATE[k] - gamma.shape() * RATE[k]);
        sum += mass[k];
      }
      for (int k = 0; k < POINTS; k++) {
        mass[k] *= weight / sum;
      }
      pages = weight;
      normalise();
    }

    /** Its mass on each grid point (a copy): what a checkpoint keeps of it. */
    public double[] mass() {
      return mass.clone();
    }

    /**
     * Takes the mass a checkpoint kept ({@link #mass}); one of another length (another grid) is
     * ignored, and the prior starts again from where it was built.
     */
    public void restore(double[] kept) {
      if (kept.length != POINTS) {
        return;
      }
      double sum = 0;
      for (int k = 0; k < POINTS; k++) {
        mass[k] = Double.isFinite(kept[k]) ? Math.max(0, kept[k]) : 0;
        sum += mass[k];
      }
      if (!(sum > 0)) {
        return;
      }
      pages = sum;
      normalise();
    }

    private Prior(Prior other) {
      unit = other.unit;
      copyFrom(other);
    }

    /** A copy of this prior, independent of it. */
    public Prior copy() {
      return new Prior(this);
    }

    /** Its grid's unit, changes a day. */
    public double unit() {
      return unit;
    }

    /** The posterior on its grid for this evidence. */
    public double[] posterior(Evidence e) {
      return RateGrid.posterior(e, probability, unit);
    }

    /** The Gamma a posterior on its grid projects to, changes a day. */
    public ChangeStats project(double[] posterior, double maxShape) {
      return RateGrid.project(posterior, maxShape, unit);
    }

    /**
     * Becomes exactly {@code other}, a prior on the same grid (mass, probabilities and pages): with
     * a {@link #copy} taken before, undoes the changes made since.
     */
    public void copyFrom(Prior other) {
      if (other.unit != unit) {
        throw new IllegalArgumentException("priors on grids of other units");
      }
      System.arraycopy(other.mass, 0, mass, 0, POINTS);
      System.arraycopy(other.probability, 0, probability, 0, POINTS);
      pages = other.pages;
    }

    /** The prior's probabilities (a live view: do not change). */
    public double[] probabilities() {
      return probability;
    }

    /**
     * A page's evidence went from {@code before} to {@code after}: its term in the mean is
     * replaced, both computed under the current prior.
     */
    public void replace(Evidence before, Evidence after) {
      if (!before.none()) {
        double[] p = posterior(before);
        for (int k = 0; k < POINTS; k++) {
          mass[k] = Math.max(0, mass[k] - p[k]);
        }
        pages--;
      }
      if (!after.none()) {
        double[] p = posterior(after);
        for (int k = 0; k < POINTS; k++) {
          mass[k] += p[k];
        }
        pages++;
      }
      normalise();
    }

    private void normalise() {
      double sum = 0;
      for (double m : mass) {
        sum += m;
      }
      for (int k = 0; k < POINTS; k++) {
        // a floor keeps every rate possible
        probability[k] = Math.max(mass[k] / sum, 1e-6);
      }
    }
  }
}
