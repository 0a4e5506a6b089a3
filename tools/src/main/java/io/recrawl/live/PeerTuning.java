package io.recrawl.live;

import io.recrawl.sim.PolicyRun;
import io.recrawl.sim.SimPolicy;
import io.recrawl.sim.Simulator;
import io.recrawl.sim.policy.StormCrawlerAdaptivePolicy;
import io.recrawl.sim.policy.StormCrawlerAdaptivePolicy.Settings;
import io.recrawl.sim.policy.StormCrawlerDefaultPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * StormCrawler's schedulers at their best settings for one web, found on the simulator: the same
 * workload, host capacities and window as the live run, with a crawler held back by nothing but the
 * hosts (a memory frontier has no budget of its own). Each setting's intervals are scaled until it
 * spends the budget, so every setting is compared at equal spend; the best is the freshest.
 * DefaultScheduler has one key, its interval; AdaptiveScheduler is tried in every shape of {@link
 * #ADAPTIVE_SHAPES} (min and max against the default interval, the two rates).
 */
final class PeerTuning {

  /** AdaptiveScheduler's shapes, each with a default of one day: StormCrawler's own first. */
  static final List<Settings> ADAPTIVE_SHAPES = adaptiveShapes();

  /** Scale factors tried, against pages / budget: 1/10 to 10 times. */
  private static final double LOW = 0.1;

  private static final double HIGH = 10;
  private static final int STEPS = 14;

  /** A setting and what the simulator gave it. */
  record Choice(double scale, PolicyRun run) {}

  /** The best of each, and StormCrawler's own adaptive shape at the same spend for reference. */
  record Best(
      double defaultIntervalDays,
      PolicyRun defaultRun,
      Settings adaptive,
      PolicyRun adaptiveRun,
      Settings adaptiveStock,
      PolicyRun adaptiveStockRun,
      int runs) {}

  private final Simulator.Config uncapped;
  private final double target;
  private final double budgetInterval;
  private int runs;

  /** {@code capped}: the prediction's configuration, whose budget every setting is to spend. */
  PeerTuning(Simulator.Config capped) {
    uncapped = capped.copy();
    double capacity = 0;
    for (double r : capped.workload.hostMaxRates()) {
      capacity += r;
    }
    uncapped.budget = Math.max(capacity, capped.budget);
    target = capped.budget;
    budgetInterval = capped.workload.pages() / capped.budget;
  }

  Best sweep() {
    Choice def = atBudget(s -> new StormCrawlerDefaultPolicy(budgetInterval * s));
    Settings bestShape = null;
    Choice best = null;
    Choice stock = null;
    for (Settings shape : ADAPTIVE_SHAPES) {
      Settings unit = shape.scaled(budgetInterval);
      Choice c = atBudget(s -> new StormCrawlerAdaptivePolicy(unit.scaled(s)));
      if (stock == null) {
        stock = c;
      }
      if (best == null || c.run().weightedFreshness > best.run().weightedFreshness) {
        best = c;
        bestShape = unit.scaled(c.scale());
      }
    }
    return new Best(
        budgetInterval * def.scale(),
        def.run(),
        bestShape,
        best.run(),
        ADAPTIVE_SHAPES.get(0).scaled(budgetInterval * stock.scale()),
        stock.run(),
        runs);
  }

  /**
   * The smallest scale of the intervals at which the policy spends no more than the budget (spend
   * falls as intervals grow), by bisection on a log scale; the lowest scale if even it spends less.
   */
  private Choice atBudget(DoubleFunction<SimPolicy> policy) {
    Choice low = run(policy, LOW);
    if (low.run().crawlsPerDay <= target) {
      return low;
    }
    Choice high = run(policy, HIGH);
    if (high.run().crawlsPerDay > target) {
      return high;
    }
    for (int i = 0; i < STEPS; i++) {
      Choice mid = run(policy, Math.sqrt(low.scale() * high.scale()));
      if (mid.run().crawlsPerDay > target) {
        low = mid;
      } else {
        high = mid;
      }
    }
    return high;
  }

  private Choice run(DoubleFunction<SimPolicy> policy, double scale) {
    runs++;
    return new Choice(scale, new Simulator(uncapped).run(policy.apply(scale)));
  }

  private static List<Settings> adaptiveShapes() {
    Settings stock = Settings.defaultsScaledTo(1);
    List<Settings> shapes = new ArrayList<>(List.of(stock));
    for (double min : new double[] {stock.minDays(), 1.0 / 6, 1.0 / 2, 3.0 / 4}) {
      for (double max : new double[] {2, 4, stock.maxDays()}) {
        for (double[] rates : new double[][] {{0.5, 0.5}, {0.25, 0.25}, {0.25, 0.5}, {0.5, 0.25}}) {
          Settings shape = new Settings(1, min, max, rates[0], rates[1]);
          if (!shape.equals(stock)) {
            shapes.add(shape);
          }
        }
      }
    }
    return List.copyOf(shapes);
  }
}
