package io.recrawl.flink.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.flink.io.FileSinkParts;
import io.recrawl.flink.job.JobSinks;
import io.recrawl.flink.job.JobSources;
import io.recrawl.flink.job.RecrawlJob;
import io.recrawl.flink.launch.PrometheusEndpoint;
import io.recrawl.flink.launch.RunCommand;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * {@code recrawl demo [--seconds N] [--dir DIR] [--metrics-port PORT|A-B]}: the real job on a local
 * MiniCluster (RocksDB, files in and out), with a toy crawler in this process that "fetches" every
 * requested URL and writes a FETCHED status back, so that the recrawl loop can be watched. Demo
 * settings: 4 hosts of 5 seed pages (odd pages change at every fetch, even pages never), at most
 * one request a second per host, no page recrawled within 10 s, a small global threshold. Its
 * metrics are served to Prometheus while it runs ({@link PrometheusEndpoint}); it ends with a
 * savepoint, and prints the {@code explain} and {@code export} commands that read it.
 */
public final class DemoCommand {

  static final String USAGE =
      String.join(
          "\n",
          "usage: bin/recrawl demo [--seconds N] [--dir DIR] [--metrics-port PORT|A-B]",
          "",
          "The real job on a local MiniCluster with a toy crawler in the loop: 20 pages on 4 hosts, half",
          "of them changing at every fetch. Ends with a savepoint and prints explain and export commands.",
          "",
          "options:",
          "  --seconds N               how long it runs (default 90)",
          "  --dir DIR                 its files: inputs, outputs, state, savepoints (default work/demo)",
          "  --metrics-port PORT|A-B   the Prometheus endpoint's port, or the first free one of a range",
          "                            (default 9249-9259)",
          "  --help                    this text");

  private static final ObjectMapper JSON = new ObjectMapper();

  private DemoCommand() {}

  /** The job settings of the demo (a replay of these keys in a YAML file gives the same job). */
  static Map<String, Object> settings(Path dir) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("recrawl.input.path", dir.resolve("in").toString());
    m.put("recrawl.input.monitor-interval-ms", 500);
    m.put("recrawl.input.seeds", dir.resolve("seeds.txt").toString());
    m.put("recrawl.output.path", dir.resolve("out/requests").toString());
    m.put("recrawl.deadletters.path", dir.resolve("out/deadletters").toString());
    // The decision log, so that each request can be shown with why it went.
    m.put("recrawl.decisions.type", "files");
    m.put("recrawl.decisions.path", dir.resolve("out/decisions").toString());
    m.put("recrawl.control.tick-interval-ms", 500);
    // A quiet input must not hold event time back for long: the toy crawler writes in bursts.
    m.put("recrawl.watermark.idleness-ms", 1000);
    m.put("recrawl.watermark.out-of-orderness-ms", 1000);
    m.put("recrawl.work-dir", dir.resolve("work").toString());
    m.put("recrawl.parallelism", 1);
    // A small global threshold: pages that keep changing are worth recrawling sooner than pages
    // that never do.
    m.put("recrawl.global-lambda", 2e-9);
    m.put("recrawl.engine.revisit.min-interval", "10 s");
    m.put("recrawl.engine.due.bucket", "1 s");
    m.put("recrawl.engine.lease", "30 s");
    return m;
  }

  public static int run(String[] args) throws Exception {
    long seconds = 90;
    Path dir = Path.of("work", "demo");
    String ports = PrometheusEndpoint.DEFAULT_PORTS;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--seconds") && i + 1 < args.length) {
        seconds = Long.parseLong(args[++i]);
      } else if (args[i].equals("--dir") && i + 1 < args.length) {
        dir = Path.of(args[++i]);
      } else if (args[i].equals("--metrics-port") && i + 1 < args.length) {
        ports = args[++i];
      } else {
        System.err.println(USAGE);
        return 2;
      }
    }
    Map<String, Integer> requested =
        demo(dir.toAbsolutePath(), Duration.ofSeconds(seconds), ports, System.out);
    return requested.isEmpty() ? 1 : 0;
  }

  /** Runs the demo with its metrics on the first free port from 9249; see below. */
  static Map<String, Integer> demo(Path dir, Duration length, java.io.PrintStream out)
      throws Exception {
    return demo(dir, length, PrometheusEndpoint.DEFAULT_PORTS, out);
  }

  /**
   * Runs the demo, its Prometheus metrics on the first free port of {@code metricsPorts} (a port or
   * a range A-B); returns how often each URL was requested.
   */
  static Map<String, Integer> demo(
      Path dir, Duration length, String metricsPorts, java.io.PrintStream out) throws Exception {
    // Start afresh, removing only what an earlier demo run made.
    for (String own : List.of("in", "out", "work", "savepoints", "seeds.txt", "demo.yaml")) {
      deleteRecursively(dir.resolve(own));
    }
    Files.createDirectories(dir.resolve("in"));
    List<String> seeds = new ArrayList<>();
    for (int h = 1; h <= 4; h++) {
      for (int p = 1; p <= 5; p++) {
        seeds.add("http://host" + h + ".example/page" + p);
      }
    }
    Files.write(dir.resolve("seeds.txt"), seeds);
    // The settings as a configuration file: explain and export read the savepoint with them.
    Path configFile = dir.resolve("demo.yaml");
    new ObjectMapper(new YAMLFactory()).writeValue(configFile.toFile(), settings(dir));

    RecrawlConfig config = RecrawlConfig.load(configFile);
    Configuration flink = RunCommand.localConfiguration(new Configuration(), dir.resolve("work"));
    // Short checkpoints: output files become visible at each one.
    flink.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(2));
    int metricsPort = PrometheusEndpoint.enable(flink, metricsPorts);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(flink);
    RecrawlJob.build(env, config, JobSources.fromConfig(config), JobSinks.fromConfig(config));
    out.println(
        "recrawl demo: "
            + seeds.size()
            + " seed URLs on 4 hosts; job running on a local MiniCluster for "
            + length.toSeconds()
            + " s; files under "
            + dir);
    out.println(
        "recrawl demo: the price of a crawl is fixed at global lambda "
            + config.get(RecrawlOptions.GLOBAL_LAMBDA)
            + " here (files in, no controller); a crawl read from Kafka sets"
            + " recrawl.controller.budget and the controller prices it"
            + " (docs/configuration.md#choosing-a-budget)");
    out.println(
        "recrawl demo: metrics for Prometheus at "
            + PrometheusEndpoint.url(metricsPort)
            + " while it runs (bin/prometheus-demo has Prometheus scrape them;"
            + " docs/operations.md#prometheus-and-grafana)");
    JobClient job = env.executeAsync(config.get(RecrawlOptions.JOB_NAME) + "-demo");

    Map<String, Integer> requested = new TreeMap<>();
    Set<String> seenLines = new HashSet<>();
    Decisions decisions = new Decisions(dir.resolve("out/decisions"));
    List<Shown> waiting = new ArrayList<>(); // requests whose decision is not visible yet
    long start = System.currentTimeMillis();
    long end = start + length.toMillis();
    int batch = 0;
    try {
      while (System.currentTimeMillis() < end) {
        Thread.sleep(500);
        List<CrawlRequest> fresh = new ArrayList<>();
        for (String line : FileSinkParts.lines(dir.resolve("out/requests"))) {
          if (seenLines.add(line)) {
            Parsed<CrawlRequest> r = CrawlRequestCodec.parse(line, 0);
            if (r.ok()) {
              fresh.add(r.value());
            }
          }
        }
        decisions.read();
        for (CrawlRequest r : fresh) {
          int n = requested.merge(r.url(), 1, Integer::sum);
          // A page never fetched, whose rate is unknown, has no ceiling on its value (stated as the
          // largest double).
          String value =
              r.value() == Double.MAX_VALUE ? "unbounded" : String.format("%.3g", r.value());
          waiting.add(
              new Shown(
                  r,
                  String.format(
                      "%6.1f s  request %-32s host %-14s due %+6.1f s  V=%s  threshold=%.3g  (crawl #%d)",
                      (System.currentTimeMillis() - start) / 1000.0,
                      r.url(),
                      r.host(),
                      (r.time() - r.due()) / 1000.0,
                      value,
                      r.threshold(),
                      n)));
        }
        // Each request is shown once its decision is: the two files are committed at the same
        // checkpoint.
        waiting.removeIf(
            w -> {
              String why = decisions.reason(w.request());
              if (why != null) {
                out.println(w.line() + "  why: " + why);
              }
              return why != null;
            });
        if (fresh.isEmpty()) {
          continue;
        }
        List<String> statuses = new ArrayList<>();
        for (CrawlRequest r : fresh) {
          // The toy crawler: every odd page changed since its last fetch, every even page did not.
          boolean changed = changes(r.url());
          statuses.add(
              StatusEventCodec.toJson(
                  new StatusEvent(
                      r.url(),
                      r.host(),
                      CrawlStatus.FETCHED,
                      System.currentTimeMillis(),
                      Map.of(),
                      changed,
                      null,
                      200)));
        }
        // Written under a hidden name, then renamed: the file source never sees a half-written
        // file.
        Path tmp = dir.resolve("in/.status-" + batch + ".jsonl");
        Files.write(tmp, statuses);
        Files.move(
            tmp, dir.resolve("in/status-" + batch++ + ".jsonl"), StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (Exception | Error e) {
      job.cancel().get();
      throw e;
    }
    // The end: a savepoint, which stops the job (its checkpoints are deleted with it).
    String savepoint = stopWithSavepoint(job, dir.resolve("savepoints"), out);
    waiting.forEach(w -> out.println(w.line()));
    int total = requested.values().stream().mapToInt(Integer::intValue).sum();
    long recrawled = requested.values().stream().filter(n -> n > 1).count();
    int changing =
        requested.entrySet().stream()
            .filter(e -> changes(e.getKey()))
            .mapToInt(Map.Entry::getValue)
            .sum();
    out.println(
        "recrawl demo: "
            + total
            + " requests for "
            + requested.size()
            + " URLs; "
            + recrawled
            + " URLs recrawled; "
            + changing
            + " requests for the 12 pages that change at every fetch, "
            + (total - changing)
            + " for the 8 that never change; requests in "
            + dir.resolve("out/requests"));
    decisions.read();
    out.println(
        "recrawl demo: why they went: "
            + decisions.counts()
            + "; the decision log is in "
            + dir.resolve("out/decisions"));
    if (savepoint != null) {
      String launcher = launcher();
      String url =
          requested.containsKey(seeds.get(0)) ? seeds.get(0) : requested.keySet().iterator().next();
      out.println("recrawl demo: stopped with a savepoint in " + savepoint);
      out.println("recrawl demo: one page's numbers, then every page's, from that savepoint:");
      out.println(
          "  "
              + launcher
              + " explain "
              + url
              + " --savepoint "
              + savepoint
              + " --config "
              + configFile);
      out.println(
          "  "
              + launcher
              + " export --savepoint "
              + savepoint
              + " --config "
              + configFile
              + " --out "
              + dir.resolve("frontier.jsonl"));
    }
    return requested;
  }

  /**
   * Stops the job with a savepoint under {@code dir}; returns its directory, or null (the job
   * cancelled) if the savepoint failed.
   */
  private static String stopWithSavepoint(JobClient job, Path dir, java.io.PrintStream out)
      throws Exception {
    try {
      String location =
          job.stopWithSavepoint(false, dir.toUri().toString(), SavepointFormatType.CANONICAL)
              .get(2, TimeUnit.MINUTES);
      return location.startsWith("file:") ? Path.of(URI.create(location)).toString() : location;
    } catch (Exception e) {
      out.println("recrawl demo: no savepoint (" + e + "); cancelling the job");
      job.cancel().get();
      return null;
    }
  }

  /** How to call bin/recrawl from the current directory. */
  private static String launcher() {
    String home = System.getProperty("recrawl.home");
    if (home == null) {
      return "bin/recrawl";
    }
    Path bin = Path.of(home, "bin", "recrawl").toAbsolutePath().normalize();
    Path here = Path.of("").toAbsolutePath();
    return bin.startsWith(here) ? here.relativize(bin).toString() : bin.toString();
  }

  /** A request and its line on the terminal. */
  private record Shown(CrawlRequest request, String line) {}

  /**
   * The decision log's lines read so far: each release's reason by URL and time, and how many of
   * each.
   */
  private static final class Decisions {
    private final Path dir;
    private final Set<String> seen = new HashSet<>();
    private final Map<String, String> reasons = new HashMap<>();
    private final Map<String, Integer> counts = new TreeMap<>();

    Decisions(Path dir) {
      this.dir = dir;
    }

    void read() throws IOException {
      for (String line : FileSinkParts.lines(dir)) {
        if (!line.isBlank() && seen.add(line)) {
          JsonNode d = JSON.readTree(line);
          String reason = d.get("reason").asText();
          reasons.put(d.get("url").asText() + "@" + d.get("time").asLong(), reason);
          counts.merge(reason, 1, Integer::sum);
        }
      }
    }

    /** Why {@code r} went, or null if its decision is not visible yet. */
    String reason(CrawlRequest r) {
      return reasons.get(r.url() + "@" + r.time());
    }

    Map<String, Integer> counts() {
      return counts;
    }
  }

  /** The toy web: odd pages change between any two fetches, even pages never do. */
  static boolean changes(String url) {
    return url.matches(".*[13579]$");
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
