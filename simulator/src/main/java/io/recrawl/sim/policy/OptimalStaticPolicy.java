package io.recrawl.sim.policy;

import io.recrawl.value.Freshness;

/**
 * The reference: the exact static optimum's rates, crawled at perfectly regular intervals. Solved
 * once at time 0 from the true change rates and the initial limits, and never again.
 */
public final class OptimalStaticPolicy extends PeriodicPolicy {

  public static final String NAME = "optimal-static";
  private Optimum.Solution solution;

  @Override
  public String name() {
    return NAME;
  }

  public Optimum.Solution solution() {
    return solution;
  }

  @Override
  protected double[] plan(double now) {
    solution =
        Optimum.solve(
            ctx.workload(),
            ctx.workload().changeRates(),
            hostLimits(),
            ctx.budget(),
            Freshness.INSTANCE,
            existing());
    setLambda0(solution.lambda0());
    return solution.rates();
  }

  @Override
  protected boolean replans() {
    return false;
  }
}
