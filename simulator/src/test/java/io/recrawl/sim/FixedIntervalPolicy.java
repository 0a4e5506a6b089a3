package io.recrawl.sim;

import io.recrawl.sim.policy.PeriodicPolicy;
import java.util.Arrays;

/** Test policy: every page every {@code interval} days, on a grid with a random phase. */
final class FixedIntervalPolicy extends PeriodicPolicy {

  private final double interval;

  FixedIntervalPolicy(double interval) {
    this.interval = interval;
  }

  @Override
  public String name() {
    return "fixed-" + interval;
  }

  @Override
  protected double[] plan(double now) {
    double[] r = new double[ctx.workload().pages()];
    Arrays.fill(r, 1.0 / interval);
    return r;
  }

  @Override
  protected boolean replans() {
    return false;
  }
}
