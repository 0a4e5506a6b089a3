package io.recrawl.live;

import io.recrawl.sim.PolicyRun;
import io.recrawl.sim.Reference;
import io.recrawl.sim.Scenario;
import io.recrawl.sim.Simulator;
import io.recrawl.sim.Start;
import io.recrawl.sim.policy.Policies;
import io.recrawl.sim.workload.Workload;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulator's prediction for a live run: the same workload and host limits (one request a
 * second, or the Crawl-delay, in crawls per simulated day), an empty index at the start, the budget
 * in crawls per simulated day, and the same window, with change rates learned as the live systems
 * learn them. Holds the exact static optimum too.
 */
final class LivePrediction {

  /**
   * The simulator's policies run on the budget: the job's model and the optimum's. StormCrawler's
   * schedulers are predicted by their runs in {@link PeerTuning}, at the settings they run with.
   */
  static final List<String> POLICIES = List.of("crawl-value", "optimal-static");

  final Simulator.Config config;
  final double secondsPerDay;
  final Reference optimum;
  final Map<String, PolicyRun> runs = new LinkedHashMap<>();
  private PeerTuning.Best peers;

  private LivePrediction(Simulator.Config config, double secondsPerDay, Reference optimum) {
    this.config = config;
    this.secondsPerDay = secondsPerDay;
    this.optimum = optimum;
  }

  /** The configuration and the optimum; no policy run yet. */
  static LivePrediction prepare(
      Workload w,
      double budgetPerSecond,
      double secondsPerDay,
      double warmupSeconds,
      double endSeconds,
      long seed) {
    Simulator.Config c = new Simulator.Config();
    c.workload = w;
    c.budget = budgetPerSecond * secondsPerDay;
    c.days = endSeconds / secondsPerDay;
    c.warmUp = warmupSeconds / secondsPerDay;
    c.oracleRates = false;
    c.traceChanges = w.history() != null; // the web serves a real history: predict on it too
    c.seed = seed;
    c.start = Start.EMPTY;
    c.scenario = Scenario.build(Scenario.STATIONARY, w, c.warmUp, c.days, seed);
    c.progress = new PrintStream(OutputStream.nullOutputStream());
    return new LivePrediction(c, secondsPerDay, Reference.compute(c));
  }

  /** The optimum's global price, in the crawl value's unit of simulated days. */
  double lambda0() {
    return optimum.lambda0;
  }

  /** StormCrawler's schedulers at their best settings on this web (kept for the prediction). */
  PeerTuning.Best tunePeers() {
    peers = new PeerTuning(config).sweep();
    return peers;
  }

  LivePrediction runAll() {
    Simulator sim = new Simulator(config);
    for (String p : POLICIES) {
      PolicyRun r = sim.run(Policies.create(p));
      r.policy = p;
      runs.put(p, r);
    }
    if (peers != null) {
      peers.defaultRun().policy = "stormcrawler-default";
      peers.adaptiveRun().policy = "stormcrawler-adaptive";
      runs.put("stormcrawler-default", peers.defaultRun());
      runs.put("stormcrawler-adaptive", peers.adaptiveRun());
    }
    return this;
  }

  /**
   * recrawl's gap between simulated and live, by cause, as the simulator's crawl-value sees it: the
   * same run with the live run's spend (its fetches a second), then with a status latency of {@code
   * latencySeconds} too (the watermark's out-of-orderness that every wake-up waits for, plus the
   * parser and Kafka). What the live run loses beyond is the rest: leases, the fetcher's queue,
   * estimates learned from other fetch times.
   */
  Map<String, PolicyRun> decompose(double liveFetchesPerSecond, double latencySeconds) {
    String policy = policyOf(LiveSystems.RECRAWL);
    PolicyRun sim = runs.get(policy);
    Map<String, PolicyRun> gap = new LinkedHashMap<>();
    if (sim == null || !(sim.crawlsPerDay > 0)) {
      return gap;
    }
    Simulator.Config spend = config.copy();
    spend.budget = config.budget * liveFetchesPerSecond * secondsPerDay / sim.crawlsPerDay;
    gap.put("at the live spend", new Simulator(spend).run(Policies.create(policy)));
    Simulator.Config late = spend.copy();
    late.statusLatencyDays = latencySeconds / secondsPerDay;
    gap.put(
        String.format(
            java.util.Locale.ROOT, "+ %s s status latency", LiveBench.fmt(latencySeconds)),
        new Simulator(late).run(Policies.create(policy)));
    return gap;
  }

  /** The simulator's policy that models a live system, or null. */
  static String policyOf(String system) {
    return switch (system) {
      case LiveSystems.RECRAWL, LiveSystems.RECRAWL_FRONTIER -> "crawl-value";
      case LiveSystems.DEFAULT, LiveSystems.URLFRONTIER_DEFAULT -> "stormcrawler-default";
      case LiveSystems.ADAPTIVE, LiveSystems.URLFRONTIER_ADAPTIVE -> "stormcrawler-adaptive";
      default -> null;
    };
  }
}
