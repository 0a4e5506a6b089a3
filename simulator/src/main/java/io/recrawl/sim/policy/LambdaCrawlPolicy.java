package io.recrawl.sim.policy;

import io.recrawl.value.HarmonicStaleness;

/**
 * Kolobov et al.'s LambdaCrawl (NeurIPS 2019): the rates that minimise harmonic staleness under the
 * same budget and host limits (the exact solver with {@link HarmonicStaleness}), executed
 * periodically and re-solved daily, so with learned rates it is LambdaLearnAndCrawl.
 */
public final class LambdaCrawlPolicy extends PeriodicPolicy {

  public static final String NAME = "lambdacrawl";

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
            HarmonicStaleness.INSTANCE,
            existing());
    return s.rates();
  }

  @Override
  protected boolean replans() {
    return true;
  }
}
