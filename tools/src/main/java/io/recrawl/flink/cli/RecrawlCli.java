package io.recrawl.flink.cli;

import io.recrawl.flink.launch.RunCommand;
import io.recrawl.sim.cli.EstimatorReport;
import io.recrawl.sim.cli.SimulateCommand;
import io.recrawl.sim.cli.WhatIfCommand;
import io.recrawl.sim.cli.WorkloadCommand;
import java.util.Arrays;

/** Entry point of {@code bin/recrawl} and of the shaded job jar: dispatches sub-commands. */
public final class RecrawlCli {

  private RecrawlCli() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0 || args[0].equals("help") || args[0].equals("--help")) {
      usage(System.out); // asked for: standard output, exit 0
      return;
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    if (CommandHelp.asked(Arrays.asList(rest)) && CommandHelp.of(args[0], rest) != null) {
      System.out.println(CommandHelp.of(args[0], rest));
      return;
    }
    int rc;
    switch (args[0]) {
      // Each sub-command is one class with a static int run(String[]) method.
      case "estimator-report":
        rc = EstimatorReport.run(rest);
        break;
      case "run":
        rc = RunCommand.run(rest);
        break;
      case "demo":
        rc = DemoCommand.run(rest);
        break;
      case "workload":
        rc = WorkloadCommand.run(rest);
        break;
      case "simulate":
        rc = SimulateCommand.run(rest);
        break;
      case "whatif":
        rc = WhatIfCommand.run(rest);
        break;
      case "bench":
        rc = BenchCommand.run(rest);
        break;
      case "explain":
        rc = io.recrawl.flink.tools.StateToolsCommand.explain(rest, System.out);
        break;
      case "export":
        // Standard output itself, not System.out: a PrintStream would swallow a failed write.
        rc =
            io.recrawl.flink.tools.StateToolsCommand.export(
                rest, new java.io.FileOutputStream(java.io.FileDescriptor.out));
        break;
      case "import":
        rc = io.recrawl.flink.tools.frontier.ImportCommand.run(rest, System.err);
        break;
      case "kafka", "frontier":
        System.err.println(
            "recrawl: " + args[0] + " runs on a class path of its own: use bin/recrawl " + args[0]);
        rc = 2;
        break;
      default:
        System.err.println("recrawl: unknown command '" + args[0] + "'");
        usage(System.err);
        rc = 2;
    }
    if (rc != 0) {
      System.exit(rc);
    }
  }

  private static void usage(java.io.PrintStream out) {
    out.println(
        String.join(
            "\n",
            "usage: bin/recrawl COMMAND [OPTIONS]      bin/recrawl COMMAND --help: its options and an example",
            "commands:",
            "  help                      this text",
            "  run --config FILE         run the scheduler job (local MiniCluster, or the cluster under flink run);",
            "                            [--from-savepoint PATH | --from-latest-checkpoint]",
            "  kafka [--dir DIR]         a single-node Kafka broker with the crawl's topics, for a trial crawl",
            "  frontier [--dir DIR]      the URL Frontier service (port 7071) with the job and a trial broker,",
            "                            or alone in front of a job's Kafka (--kafka HOST:PORT)",
            "  demo [--seconds N] [--dir DIR] [--metrics-port PORT|A-B]",
            "                            the job on a local MiniCluster with a toy crawler in the loop;",
            "                            ends with a savepoint and prints explain and export commands",
            "  estimator-report          bias and RMSE of the change-rate estimator vs the naive one",
            "  workload generate|import  write a simulator workload (pages.csv, hosts.csv)",
            "  simulate                  run recrawl policies on a workload: results.json, report.html",
            "  whatif --cdx FILE         what recrawl would give a crawl, from its own captures: an HTML report",
            "  bench simulator           time the simulator on a generated workload",
            "  bench solver              time the exact static optimum on a generated workload",
            "  explain URL --savepoint DIR   why a page is due when it is, from a savepoint",
            "  export --savepoint DIR        the frontier of a savepoint as JSON lines",
            "                            (--format opensearch|sql-csv|sql-tsv|seeds: as import reads it)",
            "  import --in FILE --savepoint DIR   a StormCrawler frontier (OpenSearch/ES JSON lines,",
            "                            SQL CSV/TSV, seeds) into a savepoint the job starts from",
            "  bench throughput          events/s and CPU per event of the scheduler job against the state floor,",
            "                            on uniform fetches and a crawl's status mix; bytes of state per URL",
            "  bench failures            the job with injected task failures, checked against its input",
            "  bench import              URLs/s and bytes per URL of an import, against the same URLs sent to the job",
            "  bench frontier            the URL Frontier service under a gRPC load client: PutURLs and GetURLs",
            "                            a second, CPU per URL, latency from a put to its get",
            "  bench live                the whole crawl loop against a changing web on this machine: recrawl",
            "                            beside StormCrawler's schedulers, judged at the web server"));
  }
}
