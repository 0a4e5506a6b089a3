package io.recrawl.sim.cli;

import io.recrawl.engine.EngineConfig;
import io.recrawl.estimate.ChangeRateEstimator;
import io.recrawl.sim.PolicyRun;
import io.recrawl.sim.Reference;
import io.recrawl.sim.Scenario;
import io.recrawl.sim.SimulationReport;
import io.recrawl.sim.Simulator;
import io.recrawl.sim.Start;
import io.recrawl.sim.policy.CrawlValuePolicy;
import io.recrawl.sim.policy.Policies;
import io.recrawl.sim.workload.Workload;
import io.recrawl.sim.workload.WorkloadException;
import io.recrawl.sim.workload.WorkloadLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code bin/recrawl simulate ...}: runs policies on a workload and writes results.json (and
 * report.html).
 */
public final class SimulateCommand {

  private SimulateCommand() {}

  /** The push-back scenario's runs of crawl-value. */
  static final String BUILT = "built";

  static final String FIXED_LIMIT = "fixed-limit";
  static final String ORACLE_CAPACITY = "oracle-capacity";
  static final List<String> PUSH_BACK_RUNS = List.of(BUILT, FIXED_LIMIT, ORACLE_CAPACITY);

  /**
   * The engine settings of the run that knows every capacity: push-back obeyed (maintenance 503s
   * still come), but no capacity learned from response times, which would step the known capacity
   * down (unless the run's settings say otherwise).
   */
  private static Map<String, Object> oracleCapacity(Map<String, Object> engine) {
    Map<String, Object> m = new HashMap<>(engine);
    m.putIfAbsent("politeness.response-time", "false");
    return m;
  }

  /** The engine settings with push-back ignored: the configured limits, nothing else. */
  private static Map<String, Object> fixedLimit(Map<String, Object> engine) {
    Map<String, Object> m = new HashMap<>(engine);
    m.put("politeness.push-back", "false");
    return m;
  }

  public static String usage() {
    return String.join(
        "\n",
        "usage: bin/recrawl simulate --workload DIR --budget CRAWLS_PER_DAY --days D [--warmup-days W]",
        "         [--policy NAME ...] [--oracle-rates] [--scenario NAME] [--seed S] --out results.json [--report report.html]",
        "         [--default-host-rate R]   crawls/day for hosts missing from hosts.csv (default: unlimited)",
        "         [--prior-rate R]          prior mean change rate (per day) of every estimator, the engine's included (default 1.0)",
        "         [--engine KEY=VALUE ...]  recrawl.engine settings for crawl-value (see config/recrawl.yaml)",
        "         [--changes poisson|trace] trace: pages change exactly at the workload's observed times (changes.csv);",
        "                                   poisson (default): at their rates",
        "  --budget accepts a multiple of the page count too: 0.2x",
        "  --warmup-days defaults to a third of --days",
        "         [--push-back-runs LIST]   push-back scenario: which crawl-value runs, of built,fixed-limit,oracle-capacity (default: all three)",
        "         [--signals truthful|stale|liars|mixed] [--signal-hosts 0.5]   sitemap lastmod signals from that share of hosts",
        "         [--start empty|crawled|imported]   take over a crawl under way, every page fetched once before day 0;",
        "                                   imported: crawl-value's first fetches at that crawl's next fetch dates, as bin/recrawl import plans them",
        "  scenarios: stationary (default), learned (= stationary without --oracle-rates), signals (= learned with --signals,",
        "         default mixed), new-host, capacity-drop, rate-drift, budget-rise (the budget rises by half),",
        "    push-back (servers with hidden capacities answer 429 and 503; policy defaults to crawl-value)",
        "  policies (default: all): " + String.join(", ", Policies.NAMES));
  }

  public static int run(String[] args) throws Exception {
    try {
      return simulate(args);
    } catch (IllegalArgumentException e) {
      System.err.println("recrawl simulate: " + e.getMessage());
      System.err.println(usage());
      return 2;
    } catch (WorkloadException e) {
      System.err.println("recrawl simulate: refusing to start. " + e.getMessage());
      return 1;
    }
  }

  private static int simulate(String[] args) throws Exception {
    SimOptions o = new SimOptions(args, Set.of("oracle-rates"), Set.of("policy", "engine"));
    Path dir = Path.of(o.required("workload"));
    String budgetText = o.required("budget");
    double days = o.number("days", Double.NaN);
    if (!(days > 0)) {
      throw new IllegalArgumentException("--days must be > 0");
    }
    double warmUp = o.number("warmup-days", days / 3);
    boolean oracle = o.flag("oracle-rates");
    String scenario = o.string("scenario", Scenario.STATIONARY);
    long seed = o.integer("seed", 1);
    Path out = Path.of(o.required("out"));
    String report = o.string("report", null);
    double defaultHostRate = o.number("default-host-rate", Double.POSITIVE_INFINITY);
    List<String> policies = o.list("policy");
    String pushBackRuns = o.string("push-back-runs", String.join(",", PUSH_BACK_RUNS));
    double priorRate = o.number("prior-rate", Double.NaN);
    String signals = o.string("signals", scenario.equals("signals") ? "mixed" : null);
    double signalHosts = o.number("signal-hosts", 0.5);
    if (!(signalHosts >= 0 && signalHosts <= 1)) {
      throw new IllegalArgumentException("--signal-hosts must be within [0, 1]");
    }
    Start start = Start.of(o.string("start", Start.EMPTY.option()));
    String changes = o.string("changes", "poisson");
    if (!changes.equals("poisson") && !changes.equals("trace")) {
      throw new IllegalArgumentException(
          "--changes must be poisson or trace, got '" + changes + "'");
    }
    Map<String, Object> engine = new HashMap<>();
    for (String kv : o.list("engine")) {
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("--engine takes KEY=VALUE, got '" + kv + "'");
      }
      engine.put(kv.substring(0, eq).strip(), kv.substring(eq + 1).strip());
    }
    o.rejectUnknown();
    ChangeRateEstimator estimator = ChangeRateEstimator.defaults();
    if (!Double.isNaN(priorRate)) {
      estimator = new ChangeRateEstimator(priorRate, 1.0, 200.0);
      engine.putIfAbsent("estimator.prior-rate", Double.toString(priorRate));
    }
    EngineConfig engineConfig =
        EngineConfig.with(engine); // refuses a bad key or value before the long part starts
    boolean hostPrior = engineConfig.hostPrior;
    if (scenario.equals("learned") || scenario.equals("signals")) {
      if (oracle) {
        throw new IllegalArgumentException("the " + scenario + " scenario means no --oracle-rates");
      }
      scenario = Scenario.STATIONARY;
    }
    if (signals != null && !List.of("truthful", "stale", "liars", "mixed").contains(signals)) {
      throw new IllegalArgumentException(
          "--signals must be truthful, stale, liars or mixed; got '" + signals + "'");
    }
    boolean pushBack = scenario.equals(Scenario.PUSH_BACK);
    List<String> variants = List.of(BUILT);
    if (pushBack) {
      variants = new ArrayList<>();
      for (String v : pushBackRuns.split(",")) {
        v = v.strip();
        if (!PUSH_BACK_RUNS.contains(v)) {
          throw new IllegalArgumentException(
              "--push-back-runs takes " + String.join(",", PUSH_BACK_RUNS) + ", got '" + v + "'");
        }
        variants.add(v);
      }
      if (policies.isEmpty()) {
        policies = List.of(CrawlValuePolicy.NAME);
      }
      if (variants.contains(FIXED_LIMIT)) {
        EngineConfig.with(fixedLimit(engine)); // the engine must know the key
      }
    }
    if (policies.isEmpty()) {
      policies = Policies.NAMES;
    }
    for (String p : policies) {
      Policies.create(p); // fail on a bad name before the long part starts
    }

    long t0 = System.nanoTime();
    Workload w = new WorkloadLoader(defaultHostRate).load(dir);
    double budget =
        budgetText.endsWith("x")
            ? Double.parseDouble(budgetText.substring(0, budgetText.length() - 1)) * w.pages()
            : Double.parseDouble(budgetText);
    System.err.printf(
        Locale.ROOT,
        "loaded %s: %,d pages, %,d hosts (%,d limited) in %.1f s%n",
        dir,
        w.pages(),
        w.hosts(),
        w.constrainedHosts(),
        (System.nanoTime() - t0) / 1e9);
    Simulator.Config cfg = new Simulator.Config();
    cfg.workload = w;
    cfg.budget = budget;
    cfg.days = days;
    cfg.warmUp = warmUp;
    cfg.oracleRates = oracle;
    cfg.traceChanges = changes.equals("trace");
    cfg.seed = seed;
    cfg.estimator = estimator;
    cfg.hostPrior = hostPrior;
    cfg.gridPosterior = engineConfig.gridPosterior;
    cfg.engineSettings = engine;
    cfg.signals = signals;
    cfg.signalHosts = signalHosts;
    cfg.start = start;
    cfg.scenario = Scenario.build(scenario, w, warmUp, days, seed);
    Simulator sim = new Simulator(cfg);
    Reference ref = Reference.compute(cfg);
    System.err.printf(
        Locale.ROOT,
        "optimum: weighted freshness %.4f, lambda0 %.4g%n",
        ref.weightedFreshness,
        ref.lambda0);
    List<PolicyRun> runs = new ArrayList<>();
    List<String[]> plan = new ArrayList<>();
    for (String name : policies) {
      if (pushBack && name.equals(CrawlValuePolicy.NAME)) {
        for (String v : variants) {
          plan.add(new String[] {name, v});
        }
      } else {
        plan.add(new String[] {name, BUILT});
      }
    }
    if (pushBack) {
      io.recrawl.sim.ServerModel servers = cfg.servers();
      System.err.printf(
          Locale.ROOT,
          "push-back: %,d of %,d hosts below their limit, %,d maintenance windows%n",
          servers.hostsBelowLimit(),
          servers.hosts(),
          servers.maintenanceWindows());
    }
    for (String[] step : plan) {
      String name = step[0];
      String variant = step[1];
      Simulator runSim = sim;
      String label = name;
      if (variant.equals(FIXED_LIMIT)) {
        Simulator.Config c = cfg.copy();
        c.engineSettings = fixedLimit(engine);
        runSim = new Simulator(c);
        label = name + " " + FIXED_LIMIT;
      } else if (variant.equals(ORACLE_CAPACITY)) {
        Simulator.Config c = cfg.copy();
        c.oracleCapacity = true;
        c.engineSettings = oracleCapacity(engine);
        runSim = new Simulator(c);
        label = name + SimulationReport.ORACLE_CAPACITY;
      }
      System.err.printf("running %s ...%n", label);
      PolicyRun r = runSim.run(Policies.create(name));
      r.policy = label;
      runs.add(r);
      System.err.printf(
          Locale.ROOT,
          "  %-22s freshness %.4f (%.4f of optimum), %.0f crawls/day, %d politeness violations, "
              + "%,d never crawled, %.1f s%n",
          name,
          r.weightedFreshness,
          r.weightedFreshness / ref.weightedFreshness,
          r.crawlsPerDay,
          r.politenessViolations + r.budgetViolations,
          r.neverCrawled,
          r.wallSeconds);
      if (r.pushBack != null) {
        System.err.printf(
            Locale.ROOT,
            "  %-22s refused after day 1: %,d of %,d requests (%.4f), 503 in maintenance %,d, "
                + "requests in a Retry-After block %,d, in a back-off block %,d%n",
            "",
            (Long) r.pushBack.get("refused_after_day_1"),
            (Long) r.pushBack.get("requests_after_day_1"),
            (Double) r.pushBack.get("refused_share_after_day_1"),
            (Long) r.pushBack.get("status_503_in_maintenance"),
            (Long) r.pushBack.get("retry_after_violations"),
            (Long) r.pushBack.get("backoff_violations"));
      }
    }
    SimulationReport rep = new SimulationReport(cfg, dir.toString(), ref, runs);
    rep.writeJson(out);
    System.err.println("wrote " + out);
    if (report != null) {
      rep.writeHtml(Path.of(report));
      System.err.println("wrote " + report);
    }
    return 0;
  }
}
