package io.recrawl.sim.policy;

/**
 * Rates in proportion to a per-page shape, scaled to the budget within the host limits and executed
 * periodically: {@code uniform} (shape 1), {@code proportional} (the change rate), {@code
 * importance} (the weight). Re-planned daily, so proportional follows learned rates.
 */
public final class ShapePolicy extends PeriodicPolicy {

  public static final String UNIFORM = "uniform";
  public static final String PROPORTIONAL = "proportional";
  public static final String IMPORTANCE = "importance";

  private final String name;

  public ShapePolicy(String name) {
    if (!name.equals(UNIFORM) && !name.equals(PROPORTIONAL) && !name.equals(IMPORTANCE)) {
      throw new IllegalArgumentException(name);
    }
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  protected double[] plan(double now) {
    int n = ctx.workload().pages();
    double[] shape = new double[n];
    for (int p = 0; p < n; p++) {
      if (!ctx.exists(p)) {
        continue;
      }
      switch (name) {
        case UNIFORM:
          shape[p] = 1;
          break;
        case PROPORTIONAL:
          shape[p] = ctx.changeRate(p);
          break;
        default:
          shape[p] = ctx.workload().weight(p);
      }
    }
    return RateAllocator.allocate(shape, ctx.workload().hostIndex(), hostLimits(), ctx.budget());
  }

  @Override
  protected boolean replans() {
    return true;
  }
}
