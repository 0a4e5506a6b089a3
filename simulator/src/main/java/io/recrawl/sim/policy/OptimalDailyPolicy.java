package io.recrawl.sim.policy;

import io.recrawl.value.Freshness;

/**
 * The blog's batch approach: the exact optimum re-solved once per simulated day from what is known
 * then (the pages that exist, the current limits, the planning change rates), executed
 * periodically.
 */
public final class OptimalDailyPolicy extends PeriodicPolicy {

  public static final String NAME = "optimal-static-daily";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  protected double[] plan(double now) {
    Optimum.Solution s =
        Optimum.solve(
            ctx.workload(),
            plannedChangeRates(),
            hostLimits(),
            ctx.budget(),
            Freshness.INSTANCE,
            existing());
    setLambda0(s.lambda0());
    return s.rates();
  }

  @Override
  protected boolean replans() {
    return true;
  }

  // A batch system only learns of changes at its next daily solve.
  @Override
  public void onPagesAppeared(int[] pages, double now) {}

  @Override
  public void onHostLimitChanged(int host, double maxRate, double now) {}

  @Override
  public void onTrueRatesChanged(double now) {}
}
