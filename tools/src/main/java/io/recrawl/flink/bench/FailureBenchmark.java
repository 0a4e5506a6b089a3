package io.recrawl.flink.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/recrawl bench failures}: the job with injected task failures ({@link FailureRun}), its
 * figures (failures, restarts, recovery times, wall time) and whether every check held. Exits 1
 * when a check failed.
 */
public final class FailureBenchmark {

  public static final String OPTIONS =
      "[--events 1000000] [--failures 10] [--urls 50000] [--hosts 1000] [--host-run 50]"
          + " [--event-spacing-ms 20] [--parallelism 2] [--checkpoint-interval-ms 2000] [--seed 1]"
          + " [--reference true] [--work-dir target/bench-failures] [--out failures.json] [--drop-after-restart 0]";

  private FailureBenchmark() {}

  public static int run(String[] args) throws Exception {
    Map<String, String> o = BenchArgs.parse(args, "usage: bin/recrawl bench failures " + OPTIONS);
    if (o == null) {
      return 2;
    }
    FailureRun.Options options =
        new FailureRun.Options(
            Long.parseLong(o.getOrDefault("events", "1000000")),
            Integer.parseInt(o.getOrDefault("failures", "10")),
            Long.parseLong(o.getOrDefault("urls", "50000")),
            Long.parseLong(o.getOrDefault("hosts", "1000")),
            Long.parseLong(o.getOrDefault("host-run", "50")),
            Long.parseLong(o.getOrDefault("event-spacing-ms", "20")),
            Integer.parseInt(o.getOrDefault("parallelism", "2")),
            o.getOrDefault("checkpoint-interval-ms", "2000") + " ms",
            Long.parseLong(o.getOrDefault("seed", "1")),
            Long.parseLong(o.getOrDefault("drop-after-restart", "0")),
            Path.of(o.getOrDefault("work-dir", "target/bench-failures")));
    Path out = Path.of(o.getOrDefault("out", "failures.json"));
    if (options.events() < 2 * options.seedUrls() || options.failures() < 0) {
      System.err.println("bench failures: need --events at least twice --urls, --failures >= 0");
      return 2;
    }
    BenchArgs.deleteRecursively(options.workDir());
    System.out.printf(
        Locale.ROOT,
        "bench failures: %,d status events (%,d seed URLs on %,d hosts, then the crawl mix), %d injected failures,"
            + " parallelism %d, checkpoints every %s%n",
        options.events(),
        options.seedUrls(),
        options.hosts(),
        options.failures(),
        options.parallelism(),
        options.checkpointInterval());
    boolean reference = Boolean.parseBoolean(o.getOrDefault("reference", "true"));
    FailureRun.Report r = FailureRun.run(options, reference);
    print(r);
    String json = new ObjectMapper().writeValueAsString(toJson(r));
    Files.writeString(out, json + "\n");
    System.out.println(json);
    return r.passed() ? 0 : 1;
  }

  static void print(FailureRun.Report r) {
    System.out.printf(
        Locale.ROOT,
        "  failures: %d injected at records %s; %d restarts%n",
        r.failedAt().size(),
        r.failedAt(),
        r.restarts());
    System.out.printf(
        Locale.ROOT,
        "  recovery (failure to the restarted source's first record): %s s%n",
        r.recoverySeconds().stream().map(s -> String.format(Locale.ROOT, "%.2f", s)).toList());
    System.out.printf(
        Locale.ROOT,
        "  %,d URLs in the final savepoint, %,d committed requests; job %.1f s, checks %.1f s, wall %.1f s%n",
        r.urls(),
        r.requests(),
        r.jobSeconds(),
        r.checkSeconds(),
        r.wallSeconds());
    System.out.printf(
        Locale.ROOT,
        "  a request came at most %.1f s of event time before the status that caused it (allowed: %.0f s)%n",
        r.skewSeenMs() / 1e3,
        FailureRun.skewMs(r.options().spacingMs()) / 1e3);
    System.out.printf(
        Locale.ROOT,
        "  revisits requested before revisit.min-interval had passed: %,d (at most %.0f s early)%n",
        r.earlyRevisits(),
        r.mostEarlyMs() / 1e3);
    for (RecoveryChecks.Check c : r.checks()) {
      System.out.printf(
          Locale.ROOT,
          "  %s %s: %,d checked, %,d violations%s%n",
          c.passed() ? "PASS" : "FAIL",
          c.name(),
          c.checked(),
          c.violations(),
          c.example() == null ? "" : " (" + c.example() + ")");
    }
  }

  static Map<String, Object> toJson(FailureRun.Report r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("events", r.options().events());
    m.put("failures", r.failedAt().size());
    m.put("failed_at", r.failedAt());
    m.put("restarts", r.restarts());
    m.put("recovery_seconds", r.recoverySeconds());
    m.put(
        "recovery_seconds_max",
        r.recoverySeconds().stream().mapToDouble(Double::doubleValue).max().orElse(0));
    m.put("skew_seen_ms", r.skewSeenMs());
    m.put("early_revisits", r.earlyRevisits());
    m.put("most_early_ms", r.mostEarlyMs());
    m.put("urls", r.urls());
    m.put("requests", r.requests());
    m.put("job_seconds", Math.round(r.jobSeconds() * 10) / 10.0);
    m.put("wall_seconds", Math.round(r.wallSeconds() * 10) / 10.0);
    m.put("checks_passed", r.checks().stream().filter(RecoveryChecks.Check::passed).count());
    m.put("checks", r.checks().size());
    List<Map<String, Object>> checks =
        r.checks().stream()
            .map(
                c -> {
                  Map<String, Object> x = new LinkedHashMap<>();
                  x.put("name", c.name());
                  x.put("checked", c.checked());
                  x.put("violations", c.violations());
                  return x;
                })
            .toList();
    m.put("check_results", checks);
    return m;
  }
}
