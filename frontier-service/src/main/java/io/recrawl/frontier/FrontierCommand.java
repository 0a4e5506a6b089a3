package io.recrawl.frontier;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code recrawl frontier}: URL Frontier's gRPC API on port 7071. Embedded by default (broker, job
 * and service in one JVM, data under {@code --dir}); with {@code --bootstrap} the service alone,
 * against a Kafka that a job submitted with {@code flink run} reads and writes.
 */
public final class FrontierCommand {

  static final String USAGE =
      String.join(
          "\n",
          "usage: bin/recrawl frontier [--port PORT] [--dir DIR] [-Dkey=value ...]",
          "       bin/recrawl frontier --bootstrap HOST:PORT [--port PORT]",
          "",
          "recrawl as a URL Frontier service (gRPC, urlfrontier-API 2.5). Embedded (the default): a",
          "Kafka broker, the scheduler job on a local MiniCluster with RocksDB and the service, in this",
          "JVM, with their data under DIR; started again on the same DIR, the job resumes from its",
          "newest checkpoint. With --bootstrap: the service alone, against an existing Kafka and a job",
          "submitted with flink run; several instances may run. Ctrl-C stops it.",
          "",
          "options:",
          "  --port PORT            gRPC port (default 7071, URL Frontier's)",
          "  --dir DIR              embedded: the work directory (default work/frontier)",
          "  -Dkey=value            embedded: a job setting over the embedded defaults",
          "                         (docs/url-frontier.md lists them)",
          "  --checkpoint-ms N      embedded: the job's checkpoint interval (default 5000)",
          "  --bootstrap SERVERS    the service alone, against these Kafka brokers",
          "  --get-wait-ms N        how long an empty GetURLs waits for URLs on their way (default 1000)",
          "  --delay-requestable S  seconds, when a GetURLs leaves delay_requestable at 0 (default 30)",
          "  --max-in-flight N      PutURLs items per stream waiting for Kafka (default 1024)",
          "  --help                 this text",
          "",
          "examples:",
          "  bin/recrawl frontier",
          "  bin/recrawl frontier --dir /tmp/frontier -Drecrawl.controller.budget=86400",
          "  bin/recrawl frontier --bootstrap kafka1:9092,kafka2:9092");

  private FrontierCommand() {}

  public static void main(String[] args) throws Exception {
    int rc = run(args, System.err, new CountDownLatch(1), true);
    if (rc != 0) {
      System.exit(rc);
    }
  }

  /**
   * Runs until {@code stop} counts down (or, with {@code hook}, the JVM is asked to stop).
   *
   * @return the exit code
   */
  public static int run(String[] args, PrintStream err, CountDownLatch stop, boolean hook)
      throws Exception {
    int port = FrontierSettings.DEFAULT_PORT;
    Path dir = Path.of("work", "frontier");
    String bootstrap = null;
    long checkpointMs = 5000;
    long getWaitMs = 1000;
    int delay = 30;
    int maxInFlight = 1024;
    Map<String, Object> overrides = new LinkedHashMap<>();
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        boolean hasValue = i + 1 < args.length;
        if (a.equals("--help") || a.equals("-h")) {
          err.println(USAGE);
          return 0;
        } else if (a.equals("--port") && hasValue) {
          port = Integer.parseInt(args[++i]);
        } else if (a.equals("--dir") && hasValue) {
          dir = Path.of(args[++i]);
        } else if (a.equals("--bootstrap") && hasValue) {
          bootstrap = args[++i];
        } else if (a.equals("--checkpoint-ms") && hasValue) {
          checkpointMs = Long.parseLong(args[++i]);
        } else if (a.equals("--get-wait-ms") && hasValue) {
          getWaitMs = Long.parseLong(args[++i]);
        } else if (a.equals("--delay-requestable") && hasValue) {
          delay = Integer.parseInt(args[++i]);
        } else if (a.equals("--max-in-flight") && hasValue) {
          maxInFlight = Integer.parseInt(args[++i]);
        } else if (a.startsWith("-D") && a.contains("=")) {
          overrides.put(a.substring(2, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
        } else {
          return usage(err, "unexpected argument '" + a + "'");
        }
      }
    } catch (NumberFormatException e) {
      return usage(err, "not a number: " + e.getMessage());
    }
    if (bootstrap != null && !overrides.isEmpty()) {
      return usage(
          err, "-D job settings are for the embedded job; with --bootstrap the job runs apart");
    }
    AutoCloseable running;
    int boundPort;
    try {
      if (bootstrap == null) {
        EmbeddedFrontier f = EmbeddedFrontier.start(dir, port, overrides, checkpointMs);
        running = f;
        boundPort = f.port();
        err.println(
            "recrawl frontier: embedded: broker "
                + f.bootstrapServers()
                + ", job "
                + f.job().getJobID()
                + ", data under "
                + dir.toAbsolutePath()
                + f.restoredFrom().map(p -> "; resumed from " + p).orElse("; a new crawl"));
      } else {
        FrontierSettings d = FrontierSettings.defaults(bootstrap, port);
        FrontierServer s =
            FrontierServer.start(
                new FrontierSettings(
                    port,
                    bootstrap,
                    d.statusTopic(),
                    d.requestsTopic(),
                    d.controlTopic(),
                    d.groupId(),
                    d.partitionMode(),
                    maxInFlight,
                    getWaitMs,
                    delay,
                    d.advertisedAddress()));
        running = s;
        boundPort = s.port();
        err.println("recrawl frontier: service alone, Kafka at " + bootstrap);
      }
    } catch (IllegalArgumentException e) {
      err.println("recrawl frontier: refused: " + e.getMessage());
      return 2;
    }
    err.println("recrawl frontier: URL Frontier API on port " + boundPort + "; Ctrl-C stops it");
    if (hook) {
      Runtime.getRuntime().addShutdownHook(new Thread(() -> close(running, err), "frontier-stop"));
    }
    stop.await();
    close(running, err);
    return 0;
  }

  private static void close(AutoCloseable running, PrintStream err) {
    try {
      running.close();
      err.println("recrawl frontier: stopped");
    } catch (Exception e) {
      err.println("recrawl frontier: stopping failed: " + e);
    }
  }

  private static int usage(PrintStream err, String problem) {
    err.println("recrawl frontier: " + problem);
    err.println(USAGE);
    return 2;
  }
}
