package io.recrawl.flink.cli;

import io.recrawl.flink.launch.RunCommand;
import io.recrawl.flink.tools.StateToolsCommand;
import io.recrawl.flink.tools.frontier.ImportCommand;
import io.recrawl.sim.cli.EstimatorReport;
import io.recrawl.sim.cli.SimulateCommand;
import io.recrawl.sim.cli.WorkloadCommand;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code bin/recrawl COMMAND --help} prints: each command's usage, with its options and an
 * example. The usage texts stay with their commands, which print them on a bad argument too.
 */
final class CommandHelp {

  private static final Map<String, String> HELP = new LinkedHashMap<>();

  static {
    HELP.put("run", RunCommand.USAGE);
    HELP.put(
        "demo",
        with(
            DemoCommand.USAGE,
            "bin/recrawl demo --seconds 60 --dir /tmp/recrawl-demo --metrics-port 9300"));
    HELP.put(
        "explain",
        with(
            StateToolsCommand.EXPLAIN_USAGE
                + "\n\nWhy a page is due when it is: its crawl value, its host's threshold and"
                + " the global lambda, read from a savepoint.",
            "bin/recrawl explain http://host1.example/page1 --savepoint work/demo/savepoints/savepoint-1a2b3c-0d4e5f --config work/demo/demo.yaml"));
    HELP.put(
        "export",
        with(
            StateToolsCommand.EXPORT_USAGE
                + "\n\nEvery page of a savepoint: as JSON lines, or in a format import reads"
                + " (docs/adoption.md#export).",
            "bin/recrawl export --savepoint work/savepoints/savepoint-1a2b3c-0d4e5f --config recrawl.yaml --out frontier.jsonl.gz"));
    HELP.put(
        "import",
        with(
            ImportCommand.USAGE
                + "\n\nAn existing StormCrawler frontier into a savepoint the job starts from;"
                + " every option with its default: docs/adoption.md#import.",
            "bin/recrawl import --in status.jsonl --format opensearch --savepoint file:///var/lib/recrawl/savepoints/imported --config recrawl.yaml"));
    HELP.put(
        "simulate",
        with(
            SimulateCommand.usage(),
            "bin/recrawl simulate --workload work/w1 --budget 0.2x --days 60 --out work/results.json --report work/report.html"));
    HELP.put(
        "whatif",
        with(
            io.recrawl.sim.cli.WhatIfCommand.usage(),
            "bin/recrawl whatif --cdx crawl.cdx.gz --out whatif.html"));
    HELP.put(
        "workload",
        with(
            WorkloadCommand.usage(),
            "bin/recrawl workload generate --pages 100000 --hosts 1000 --seed 1 --out work/w1"));
    HELP.put(
        "bench",
        with(
            BenchCommand.usage(),
            "bin/recrawl bench throughput\n  bin/recrawl bench live --minutes 13 --out work/live"));
    HELP.put(
        "estimator-report", with(EstimatorReport.USAGE, "bin/recrawl estimator-report --families"));
  }

  private CommandHelp() {}

  private static String with(String usage, String example) {
    return usage + "\n\nexample:\n  " + example;
  }

  /** The help of a command, or null for an unknown one. */
  static String of(String command) {
    return HELP.get(command);
  }

  /**
   * The help of a command as asked with {@code args}: a benchmark's own ({@code bench live
   * --help}), else the command's.
   */
  static String of(String command, String[] args) {
    if (command.equals("bench") && args.length > 0) {
      String one = BenchCommand.usage(args[0]);
      if (one != null) {
        return one;
      }
    }
    return of(command);
  }

  /** True if the arguments ask for help rather than for the command. */
  static boolean asked(List<String> args) {
    return args.contains("--help") || args.contains("-h");
  }
}
