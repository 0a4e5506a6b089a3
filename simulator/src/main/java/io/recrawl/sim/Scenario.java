package io.recrawl.sim;

import io.recrawl.sim.workload.Workload;
import java.util.SplittableRandom;

/**
 * What changes mid-run: nothing ({@code stationary}), a large host appears ({@code new-host}), a
 * big host's max rate falls tenfold ({@code capacity-drop}), every page's change rate is multiplied
 * by a log-normal factor ({@code rate-drift}), or the budget rises by half ({@code budget-rise}).
 * The change happens halfway through the measured window, half a day off a day boundary so that a
 * daily batch re-solve lags it.
 */
public final class Scenario {

  public static final String STATIONARY = "stationary";
  public static final String NEW_HOST = "new-host";
  public static final String CAPACITY_DROP = "capacity-drop";
  public static final String RATE_DRIFT = "rate-drift";
  public static final String BUDGET_RISE = "budget-rise";

  /** The budget after {@code budget-rise}, as a multiple of the budget before. */
  static final double BUDGET_RISE_FACTOR = 1.5;

  /**
   * Servers with hidden capacities push back (429, 503 in maintenance windows); see {@link
   * ServerModel}. Nothing changes mid-run.
   */
  public static final String PUSH_BACK = "push-back";

  /** Standard deviation of ln(factor) in rate-drift. */
  static final double DRIFT_SIGMA = 1.0;

  private final String name;
  private final double changeTime;
  private final int host;
  private final double newMaxRate;
  private final double[] newRates;

  private Scenario(String name, double changeTime, int host, double newMaxRate, double[] newRates) {
    this.name = name;
    this.changeTime = changeTime;
    this.host = host;
    this.newMaxRate = newMaxRate;
    this.newRates = newRates;
  }

  public static Scenario build(String name, Workload w, double warmUp, double days, long seed) {
    double mid = Math.floor(warmUp + (days - warmUp) / 2) + 0.5;
    switch (name) {
      case STATIONARY:
      case PUSH_BACK:
        return new Scenario(name, Double.POSITIVE_INFINITY, -1, 0, null);
      case NEW_HOST:
        return new Scenario(name, mid, largest(w, false), 0, null);
      case BUDGET_RISE:
        return new Scenario(name, mid, -1, 0, null);
      case CAPACITY_DROP:
        {
          int h = largest(w, true);
          if (h < 0) {
            throw new IllegalArgumentException(
                "capacity-drop needs a workload with at least one limited host");
          }
          return new Scenario(name, mid, h, w.hostMaxRate(h) / 10, null);
        }
      case RATE_DRIFT:
        {
          SplittableRandom rnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
          double[] rates = new double[w.pages()];
          for (int p = 0; p < rates.length; p++) {
            double u = 1 - rnd.nextDouble();
            double z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd.nextDouble());
            rates[p] = w.changeRate(p) * Math.exp(DRIFT_SIGMA * z);
          }
          return new Scenario(name, mid, -1, 0, rates);
        }
      default:
        throw new IllegalArgumentException(
            "unknown scenario '"
                + name
                + "'; expected stationary, learned, new-host, capacity-drop, rate-drift,"
                + " budget-rise or push-back");
    }
  }

  /** The host with the most pages (among limited hosts only, if asked); -1 if none. */
  private static int largest(Workload w, boolean limitedOnly) {
    int[] sizes = w.hostSizes();
    int best = -1;
    for (int h = 0; h < sizes.length; h++) {
      if ((!limitedOnly || w.constrained(h)) && (best < 0 || sizes[h] > sizes[best])) {
        best = h;
      }
    }
    return best;
  }

  public String name() {
    return name;
  }

  public boolean stationary() {
    return newRates == null && host < 0 && !changesBudget();
  }

  /** Whether the budget changes ({@code budget-rise}). */
  public boolean changesBudget() {
    return BUDGET_RISE.equals(name);
  }

  /**
   * The budget after the change, as a multiple of the budget before (1 when it does not change).
   */
  public double budgetFactor() {
    return changesBudget() ? BUDGET_RISE_FACTOR : 1;
  }

  /** When the change happens, days; +infinity for stationary. */
  public double changeTime() {
    return changeTime;
  }

  /** The host that appears (new-host) or loses capacity (capacity-drop); -1 otherwise. */
  public int host() {
    return host;
  }

  public boolean hidesHost() {
    return NEW_HOST.equals(name);
  }

  /** Whether the servers push back (see {@link ServerModel}). */
  public boolean pushBack() {
    return PUSH_BACK.equals(name);
  }

  public boolean dropsCapacity() {
    return CAPACITY_DROP.equals(name);
  }

  public double newMaxRate() {
    return newMaxRate;
  }

  /** The rates after the drift, or null. */
  public double[] newRates() {
    return newRates;
  }
}
