package io.recrawl.sim.policy;

import io.recrawl.sim.SimPolicy;
import java.util.List;

/** Creates policies by their command-line names. */
public final class Policies {

  /** Every policy, in the order results list them. */
  public static final List<String> NAMES =
      List.of(
          CrawlValuePolicy.NAME,
          OptimalStaticPolicy.NAME,
          OptimalDailyPolicy.NAME,
          ShapePolicy.UNIFORM,
          ShapePolicy.PROPORTIONAL,
          ShapePolicy.IMPORTANCE,
          GreedyPolicy.NAME,
          StormCrawlerDefaultPolicy.NAME,
          StormCrawlerAdaptivePolicy.NAME,
          NutchAdaptivePolicy.NAME,
          LambdaCrawlPolicy.NAME);

  private Policies() {}

  public static SimPolicy create(String name) {
    switch (name) {
      case CrawlValuePolicy.NAME:
        return new CrawlValuePolicy();
      case OptimalStaticPolicy.NAME:
        return new OptimalStaticPolicy();
      case OptimalDailyPolicy.NAME:
        return new OptimalDailyPolicy();
      case ShapePolicy.UNIFORM:
      case ShapePolicy.PROPORTIONAL:
      case ShapePolicy.IMPORTANCE:
        return new ShapePolicy(name);
      case GreedyPolicy.NAME:
        return new GreedyPolicy();
      case StormCrawlerDefaultPolicy.NAME:
        return new StormCrawlerDefaultPolicy();
      case StormCrawlerAdaptivePolicy.NAME:
        return new StormCrawlerAdaptivePolicy();
      case NutchAdaptivePolicy.NAME:
        return new NutchAdaptivePolicy();
      case LambdaCrawlPolicy.NAME:
        return new LambdaCrawlPolicy();
      default:
        throw new IllegalArgumentException(
            "unknown policy '" + name + "'; expected one of " + String.join(", ", NAMES));
    }
  }
}
