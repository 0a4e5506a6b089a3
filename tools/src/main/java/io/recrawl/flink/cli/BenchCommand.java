package io.recrawl.flink.cli;

import io.recrawl.sim.PolicyRun;
import io.recrawl.sim.Simulator;
import io.recrawl.sim.cli.SimOptions;
import io.recrawl.sim.policy.Policies;
import io.recrawl.sim.workload.Workload;
import io.recrawl.sim.workload.WorkloadGenerator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code bin/recrawl bench simulator ...}: times the simulator on a generated workload and prints
 * the figures; {@code bench throughput}, {@code bench solver}, {@code bench failures} and {@code
 * bench live} are passed on to their benchmarks.
 */
public final class BenchCommand {

  private BenchCommand() {}

  /** Each benchmark's options, in the order the usage lists them. */
  private static final java.util.Map<String, String> OPTIONS = new java.util.LinkedHashMap<>();

  static {
    OPTIONS.put("solver", io.recrawl.flink.bench.SolverBenchmark.OPTIONS);
    OPTIONS.put("throughput", io.recrawl.flink.bench.ThroughputBenchmark.OPTIONS);
    OPTIONS.put("import", io.recrawl.flink.bench.ImportBenchmark.OPTIONS);
    OPTIONS.put("failures", io.recrawl.flink.bench.FailureBenchmark.OPTIONS);
    OPTIONS.put("live", LiveBenchCommand.OPTIONS);
    OPTIONS.put(
        "simulator",
        "[--pages 1000000] [--hosts 10000] [--days 30] [--budget-per-page 0.2]"
            + " [--policy optimal-static ...] [--seed 1]");
  }

  /** The usage of one benchmark ({@code live}, {@code solver}, ...), or null for none such. */
  static String usage(String benchmark) {
    String options = OPTIONS.get(benchmark);
    return options == null ? null : "usage: bin/recrawl bench " + benchmark + " " + options;
  }

  static String usage() {
    java.util.List<String> lines = new java.util.ArrayList<>();
    OPTIONS.forEach((name, options) -> lines.add("bin/recrawl bench " + name + " " + options));
    return "usage: " + String.join("\n       ", lines);
  }

  public static int run(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("throughput")) {
      return io.recrawl.flink.bench.ThroughputBenchmark.run(
          java.util.Arrays.copyOfRange(args, 1, args.length));
    }
    if (args.length > 0 && args[0].equals("import")) {
      return io.recrawl.flink.bench.ImportBenchmark.run(
          java.util.Arrays.copyOfRange(args, 1, args.length));
    }
    if (args.length > 0 && args[0].equals("failures")) {
      return io.recrawl.flink.bench.FailureBenchmark.run(
          java.util.Arrays.copyOfRange(args, 1, args.length));
    }
    if (args.length > 0 && args[0].equals("live")) {
      return LiveBenchCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length));
    }
    if (args.length > 0 && args[0].equals("solver")) {
      return io.recrawl.flink.bench.SolverBenchmark.run(
          java.util.Arrays.copyOfRange(args, 1, args.length));
    }
    if (args.length == 0 || !args[0].equals("simulator")) {
      System.err.println(usage());
      return 2;
    }
    try {
      SimOptions o =
          new SimOptions(
              java.util.Arrays.copyOfRange(args, 1, args.length), Set.of(), Set.of("policy"));
      WorkloadGenerator.Options g = new WorkloadGenerator.Options();
      g.pages = (int) o.integer("pages", 1_000_000);
      g.hosts = (int) o.integer("hosts", 10_000);
      g.seed = o.integer("seed", 1);
      double days = o.number("days", 30);
      double perPage = o.number("budget-per-page", 0.2);
      List<String> policies = o.list("policy");
      o.rejectUnknown();
      if (policies.isEmpty()) {
        policies = List.of("optimal-static");
      }
      long t0 = System.nanoTime();
      Workload w = WorkloadGenerator.generate(g);
      double gen = (System.nanoTime() - t0) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "workload: %,d pages, %,d hosts (%,d limited), generated in %.1f s%n",
          w.pages(),
          w.hosts(),
          w.constrainedHosts(),
          gen);
      Simulator.Config cfg = new Simulator.Config();
      cfg.workload = w;
      cfg.budget = perPage * w.pages();
      cfg.days = days;
      cfg.warmUp = days / 3;
      cfg.oracleRates = true;
      cfg.seed = g.seed;
      Simulator sim = new Simulator(cfg);
      for (String name : policies) {
        long s = System.nanoTime();
        PolicyRun r = sim.run(Policies.create(name));
        double wall = (System.nanoTime() - s) / 1e9;
        System.out.printf(
            Locale.ROOT,
            "%s: %,d pages x %.0f simulated days, budget %.0f/day: %.1f s wall "
                + "(%,d fetches, %,.0f fetches/s), freshness %.4f, violations %d%n",
            name,
            w.pages(),
            days,
            cfg.budget,
            wall,
            r.fetches,
            r.fetches / wall,
            r.weightedFreshness,
            r.politenessViolations + r.budgetViolations);
      }
      return 0;
    } catch (IllegalArgumentException e) {
      System.err.println("recrawl bench: " + e.getMessage());
      System.err.println(usage());
      return 2;
    }
  }
}
