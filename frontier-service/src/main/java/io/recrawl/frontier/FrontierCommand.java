package io.recrawl.frontier;

import io.recrawl.flink.config.ConfigException;
import io.recrawl.flink.launch.LocalRestore;
import io.recrawl.wire.StatusEvent;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code bin/recrawl frontier}: the URL Frontier service. By default on one machine, embedded: a
 * trial Kafka broker, the job on a local MiniCluster with RocksDB (resumed from its newest
 * savepoint or checkpoint), and the service on port 7071, all under one work directory. With {@code
 * --kafka HOST:PORT} the service alone, in front of a job that runs elsewhere.
 */
public final class FrontierCommand {

  static final String USAGE =
      String.join(
          "\n",
          "usage: bin/recrawl frontier [--port PORT] [--dir DIR] [--kafka-port PORT] [--delay S]",
          "                            [-Dkey=value ...]",
          "       bin/recrawl frontier --kafka HOST:PORT [--port PORT] [--delay S] [--group ID]",
          "",
          "URL Frontier's gRPC API in front of recrawl's job: PutURLs become status events, GetURLs",
          "hands out the crawl requests the job releases (docs/url-frontier.md).",
          "",
          "Embedded (the default): a trial Kafka broker, the job and the service on this machine. A",
          "stop (Ctrl-C, SIGTERM) takes a savepoint; a start resumes from the newest savepoint or",
          "checkpoint in DIR, whatever the stop (a crash, kill -9 included).",
          "  --dir DIR          work directory: Kafka data, job state (default work/frontier)",
          "  --kafka-port PORT  the trial broker's port (default 9092; its controller takes PORT+1)",
          "  -Dkey=value        a job setting (config/recrawl.yaml), over the embedded defaults",
          "",
          "Alone: the service against the Kafka of a job that runs elsewhere (bin/recrawl run, flink run).",
          "  --kafka HOST:PORT  the job's brokers",
          "  --group ID         the consumer group for crawl requests (default recrawl-frontier):",
          "                     instances of one frontier share it, each serving its share of the hosts",
          "",
          "Both:",
          "  --port PORT        gRPC port (default 7071)",
          "  --delay S          seconds a URL handed out is held back when GetURLs asks no",
          "                     delay_requestable (default 30; the embedded job's lease is the same)",
          "  --mode M           who decides refetch dates: value (the job, by crawl value; default)",
          "                     or client (the client's refetchable_from_date, as URL Frontier's",
          "                     own server does)",
          "  --crawl-mode C=M   the mode of crawl C, over --mode (repeatable)",
          "  --price P          who prices the crawl: pull (the crawler's pull sets the budget the",
          "                     job's controller prices; the embedded default), fixed (the job's",
          "                     recrawl.global-lambda; the default alone) or budget (the job's",
          "                     recrawl.controller.budget, fixed)",
          "  --help             this text",
          "",
          "example:",
          "  bin/recrawl frontier --dir /tmp/frontier");

  /**
   * The embedded job's Flink settings: a network buffer goes after at most 25 ms rather than when
   * full, and watermarks every 50 ms rather than 200, so that a wake-up fires soon after its time.
   * Both cost CPU while idle (every task's flusher and every source's watermark wakes up that
   * often): docs/decisions/frontier-speed.md has the trade.
   */
  static final Map<String, String> FLINK_SETTINGS =
      Map.of(
          "execution.buffer-timeout.interval",
          "25 ms",
          "pipeline.auto-watermark-interval",
          "50 ms");

  private FrontierCommand() {}

  public static void main(String[] args) {
    int rc;
    try {
      rc = run(args, System.err);
    } catch (Exception | Error e) {
      // The broker's and the job's threads would keep a half-started frontier alive.
      System.err.println("recrawl frontier: cannot start: " + e);
      e.printStackTrace();
      rc = 1;
    }
    if (rc != 0) {
      System.exit(rc);
    }
  }

  static int run(String[] args, PrintStream err) throws Exception {
    int port = FrontierSettings.DEFAULT_PORT;
    int kafkaPort = 9092;
    int delay = 30;
    String kafka = null;
    String group = "recrawl-frontier";
    FrontierSettings.RefetchMode mode = FrontierSettings.RefetchMode.VALUE;
    Map<String, FrontierSettings.RefetchMode> crawlModes = new LinkedHashMap<>();
    String price = null;
    Path dir = Path.of("work", "frontier");
    Map<String, Object> job = new LinkedHashMap<>();
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (a.equals("--help") || a.equals("-h")) {
          err.println(USAGE);
          return 0;
        } else if (a.equals("--port") && i + 1 < args.length) {
          port = Integer.parseInt(args[++i]);
        } else if (a.equals("--kafka-port") && i + 1 < args.length) {
          kafkaPort = Integer.parseInt(args[++i]);
        } else if (a.equals("--delay") && i + 1 < args.length) {
          delay = Integer.parseInt(args[++i]);
        } else if (a.equals("--kafka") && i + 1 < args.length) {
          kafka = args[++i];
        } else if (a.equals("--mode") && i + 1 < args.length) {
          mode = mode(args[++i]);
        } else if (a.equals("--crawl-mode") && i + 1 < args.length) {
          String c = args[++i];
          int eq = c.lastIndexOf('=');
          if (eq <= 0) {
            throw new IllegalArgumentException("--crawl-mode takes CRAWL=MODE, not '" + c + "'");
          }
          crawlModes.put(c.substring(0, eq), mode(c.substring(eq + 1)));
        } else if (a.equals("--price") && i + 1 < args.length) {
          price = args[++i];
          if (!List.of("pull", "fixed", "budget").contains(price)) {
            throw new IllegalArgumentException(
                "--price is pull, fixed or budget, not '" + price + "'");
          }
        } else if (a.equals("--group") && i + 1 < args.length) {
          group = args[++i];
        } else if (a.equals("--dir") && i + 1 < args.length) {
          dir = Path.of(args[++i]);
        } else if (a.startsWith("-D") && a.contains("=")) {
          job.put(a.substring(2, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
        } else {
          throw new IllegalArgumentException("unexpected argument '" + a + "'");
        }
      }
      if (kafka != null && !job.isEmpty()) {
        throw new IllegalArgumentException("-D sets the embedded job; with --kafka there is none");
      }
      if (price == null) {
        price = kafka == null ? "pull" : "fixed";
      }
      if (kafka == null) {
        job = pricedJob(price, job);
      }
    } catch (IllegalArgumentException e) {
      err.println("recrawl frontier: " + e.getMessage());
      err.println(USAGE);
      return 2;
    }
    FrontierSettings settings;
    try {
      FrontierSettings d =
          FrontierSettings.defaults(kafka == null ? "127.0.0.1:" + kafkaPort : kafka);
      settings =
          new FrontierSettings(
              port,
              d.bootstrapServers(),
              d.statusTopic(),
              d.requestsTopic(),
              d.controlTopic(),
              d.answersTopic(),
              group,
              d.partitionMode(),
              delay,
              d.getWaitMs(),
              d.putsInFlight(),
              d.queryTimeoutMs(),
              mode,
              crawlModes,
              price.equals("pull") ? FrontierSettings.Pricing.PULL : FrontierSettings.Pricing.JOB,
              d.pullPeriodMs(),
              price.equals("pull") && job.containsKey(BUDGET)
                  ? Double.parseDouble(job.get(BUDGET).toString()) / 86_400
                  : d.pullInitialPerSecond());
    } catch (IllegalArgumentException e) {
      err.println("recrawl frontier: " + e.getMessage());
      return 2;
    }
    if (kafka != null) {
      try (FrontierServer server = FrontierServer.start(settings)) {
        err.println("recrawl frontier: serving on port " + server.port() + " for Kafka " + kafka);
        server.awaitTermination();
      }
      return 0;
    }
    return embedded(settings, dir.toAbsolutePath(), kafkaPort, job, err);
  }

  private static final String BUDGET = "recrawl.controller.budget";

  /**
   * The embedded job's pricing settings for {@code --price}, under the {@code -D} settings: with
   * the pull, the job's controller prices a budget the service sets (first at 1 URL a second, or a
   * {@code -D} budget), every 2 s, a fifth of the pull's period; a fixed budget must be given.
   */
  static Map<String, Object> pricedJob(String price, Map<String, Object> overrides) {
    Map<String, Object> m = new LinkedHashMap<>();
    switch (price) {
      case "pull" -> {
        m.put(BUDGET, 86_400.0);
        m.put("recrawl.controller.period-ms", 2_000);
      }
      case "budget" -> {
        if (!overrides.containsKey(BUDGET)) {
          throw new IllegalArgumentException(
              "--price budget needs -D" + BUDGET + "=CRAWLS_PER_DAY");
        }
        m.put("recrawl.controller.period-ms", 60_000);
      }
      default -> {}
    }
    m.putAll(overrides);
    return m;
  }

  private static FrontierSettings.RefetchMode mode(String name) {
    try {
      return FrontierSettings.RefetchMode.valueOf(name.strip().toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("a mode is value or client, not '" + name + "'");
    }
  }

  /**
   * The broker, the job and the service, resumed from the newest savepoint or checkpoint under
   * {@code dir/job}; runs until the JVM is asked to stop, then stops with a savepoint.
   */
  private static int embedded(
      FrontierSettings settings,
      Path dir,
      int kafkaPort,
      Map<String, Object> overrides,
      PrintStream err)
      throws Exception {
    Path work = dir.resolve("job");
    Optional<Path> resume = LocalRestore.newestRestorePoint(work);
    if (resume.isPresent()) {
      int pruned = LocalRestore.pruneOlderThan(work, resume.get());
      err.println(
          "recrawl frontier: resuming from "
              + (resume.get().getFileName().toString().startsWith("chk-")
                  ? "checkpoint "
                  : "savepoint ")
              + resume.get()
              + ", written "
              + Files.getLastModifiedTime(resume.get().resolve("_metadata"))
              + (pruned > 0 ? " (" + pruned + " older ones deleted)" : ""));
    } else {
      err.println(
          "recrawl frontier: no savepoint or checkpoint under " + work + ": a new frontier");
    }
    EmbeddedFrontier frontier;
    try {
      frontier =
          new EmbeddedFrontier(
              new EmbeddedFrontier.Launch(
                  dir, kafkaPort, kafkaPort + 1, 4, overrides, resume.orElse(null), true),
              bootstrap -> settings);
    } catch (ConfigException bad) {
      err.println("recrawl frontier: job setting refused: " + bad.getMessage());
      return 2;
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> frontier.stopWithSavepoint(err), "recrawl-frontier-stop"));
    err.println(
        "recrawl frontier: serving URL Frontier on port "
            + frontier.server.port()
            + "; Kafka at "
            + frontier.broker.bootstrapServers()
            + ", the job's settings in "
            + frontier.configFile
            + ", state under "
            + dir
            + "; Ctrl-C stops it with a savepoint, and a start with the same --dir resumes");
    frontier.server.awaitTermination();
    return 0;
  }

  /**
   * The embedded job's settings: Kafka in and out, and the short delays that let a URL put now be
   * handed out within a second (docs/url-frontier.md#latency); {@code -D} settings win.
   */
  static Map<String, Object> jobSettings(FrontierSettings s, Path dir) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("recrawl.input.type", "kafka");
    m.put("recrawl.output.type", "kafka");
    m.put("recrawl.deadletters.type", "kafka");
    m.put("recrawl.kafka.bootstrap.servers", s.bootstrapServers());
    m.put("recrawl.work-dir", dir.resolve("job").toString());
    // Requests are sent as they are released, not at the next checkpoint's commit.
    m.put("recrawl.output.delivery", "at-least-once");
    // Event time moves with the clock: ticks every 100 ms, no wait for late or idle partitions.
    m.put("recrawl.control.tick-interval-ms", 100);
    m.put("recrawl.watermark.out-of-orderness-ms", 0);
    m.put("recrawl.watermark.idleness-ms", 200);
    m.put("recrawl.engine.due.bucket", "100 ms");
    m.put("recrawl.engine.lease", s.defaultDelaySeconds() + " s");
    // The client mode's refetch date stays with the page, so that GetURLStatus returns it.
    m.put("recrawl.metadata.transfer", "[" + StatusEvent.REFETCH_AT_KEY + "]");
    // The price until the controller's first period, and for good with --price fixed.
    m.put("recrawl.global-lambda", 0.0001);
    return m;
  }
}
