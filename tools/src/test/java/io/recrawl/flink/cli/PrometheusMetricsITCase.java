package io.recrawl.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.flink.cli.DashboardMetrics.Sample;
import io.recrawl.flink.launch.PrometheusEndpoint;
import io.recrawl.flink.tools.StateToolsCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job's metrics over HTTP, as Prometheus scrapes them: {@code recrawl demo} (the real job on a
 * MiniCluster with Flink's Prometheus reporter) serves every metric of the Grafana dashboard with a
 * plausible value, and ends with a savepoint that the commands it prints can read.
 */
class PrometheusMetricsITCase {

  private static final String P = "flink_taskmanager_job_task_operator_recrawl_";

  /**
   * Ports no other test's job uses: the ITCases run two at a time, and a job of another (a run's or
   * a demo's, on the default 9249-9259) must not be the one scraped here.
   */
  private static final String PORTS = "9400-9449";

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @TempDir Path dir;

  /** What each metric of the dashboard must show in the demo, by name or name regex. */
  private static Map<String, Predicate<List<Sample>>> plausible() {
    Map<String, Predicate<List<Sample>>> p = new LinkedHashMap<>();
    p.put(P + "requestsOut", s -> max(s) >= 20); // every seed at least once
    p.put(
        P + "status_eventsIn",
        s ->
            labels(s, "status")
                    .equals(
                        new TreeSet<>(
                            List.of(
                                "DISCOVERED", "ERROR", "FETCHED", "FETCH_ERROR", "REDIRECTION")))
                && value(s, "status", "FETCHED") >= 20
                && value(s, "status", "DISCOVERED") >= 21 // 20 seeds and one link
                && value(s, "status", "FETCH_ERROR") >= 1
                && value(s, "status", "REDIRECTION") == 0);
    p.put(P + "reason_.+_deadletters", s -> value(s, "reason", "malformed_json") >= 1);
    p.put(P + "globalLambda", s -> max(s) == 2e-9); // the demo's recrawl.global-lambda
    p.put(P + "hostLambdaMicros", s -> s.size() >= 3 && min(s) >= 0 && finite(s));
    p.put(P + "dueBacklog", s -> min(s) >= 0 && max(s) < 100);
    p.put(P + "releaseLagMs", s -> s.size() >= 3 && min(s) >= 0 && max(s) < 60_000);
    p.put(P + "leaseExpiries", s -> min(s) >= 0 && max(s) < 100);
    p.put(P + "hostsBlocked_reason_.+", s -> names(s).contains(P + "hostsBlocked_reason_503"));
    p.put(P + "hostsParked", s -> max(s) == 0);
    p.put(P + "urls", s -> max(s) == 21);
    p.put(P + "hosts", s -> max(s) == 4);
    p.put(P + "hostRateOverrides", s -> max(s) == 0); // the demo sets none
    p.put(P + "hostCacheBytes", s -> min(s) >= 0 && max(s) > 0 && max(s) < 64 << 20);
    p.put(P + "pagesRemoved", s -> max(s) == 0); // nothing stays ERROR for 30 days
    p.put("flink_jobmanager_job_lastCheckpointDuration", s -> min(s) >= 0 && max(s) < 60_000);
    p.put("flink_jobmanager_job_lastCheckpointSize", s -> min(s) > 0);
    return p;
  }

  @Test
  void theDemoServesEveryMetricOfTheDashboardAndEndsWithASavepoint() throws Exception {
    DashboardMetrics dashboard = GrafanaDashboardTest.dashboard();
    Map<String, Predicate<List<Sample>>> rules = plausible();
    // Every metric the dashboard uses has a rule here, and every rule is a metric it uses.
    TreeSet<String> used = new TreeSet<>(dashboard.allNames());
    used.addAll(dashboard.allRegexes());
    assertThat(new TreeSet<>(rules.keySet())).isEqualTo(used);

    ByteArrayOutputStream text = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);
    CompletableFuture<Map<String, Integer>> demo =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return DemoCommand.demo(dir, Duration.ofSeconds(40), PORTS, out);
              } catch (Exception e) {
                throw new RuntimeException(e);
              }
            });
    int port =
        Integer.parseInt(
            await(
                    text,
                    Pattern.compile("metrics for Prometheus at http://localhost:(\\d+)/metrics"))
                .group(1));
    await(text, Pattern.compile(" request http"));
    // What the toy crawler never sends: a line that is not JSON, a 503, a link to a new page.
    long now = System.currentTimeMillis();
    Path extra = dir.resolve("in/.extra.jsonl");
    Files.write(
        extra,
        List.of(
            "this is not json",
            "{\"url\":\"http://host1.example/page2\",\"status\":\"FETCH_ERROR\",\"time\":"
                + now
                + ",\"metadata\":{},\"http_status\":503}",
            "{\"url\":\"http://host2.example/new\",\"status\":\"DISCOVERED\",\"time\":"
                + now
                + ",\"metadata\":{}}"));
    Files.move(extra, dir.resolve("in/extra.jsonl"));

    List<Sample> samples = List.of();
    Map<String, String> failing = Map.of("not scraped yet", "");
    long deadline = System.currentTimeMillis() + 30_000;
    while (!failing.isEmpty() && System.currentTimeMillis() < deadline) {
      Thread.sleep(2000);
      samples = DashboardMetrics.parse(scrape(port));
      failing = failing(samples, rules);
    }
    assertThat(failing).as("dashboard metrics missing or implausible in the scrape").isEmpty();

    // The names the job serves, for scraped-metric-names.txt (GrafanaDashboardTest).
    TreeSet<String> served =
        samples.stream()
            .map(Sample::name)
            .filter(n -> n.startsWith(P) || n.startsWith("flink_jobmanager_job_"))
            .collect(Collectors.toCollection(TreeSet::new));
    Files.write(Path.of("target", GrafanaDashboardTest.SCRAPED), served);
    assertThat(served)
        .as(
            "the names in %s are served (else write it anew from target/)",
            GrafanaDashboardTest.SCRAPED)
        .containsAll(GrafanaDashboardTest.scrapedNames());

    // The demo ends with a savepoint and says how to look into it.
    Map<String, Integer> requested = demo.get(2, TimeUnit.MINUTES);
    // Every page was requested but host1's: its 503 blocks it for a back-off (a minute or so),
    // which
    // may outlast the pages it had not yet been sent.
    assertThat(requested.keySet().stream().filter(u -> !u.startsWith("http://host1.")))
        .hasSize(16)
        .contains("http://host2.example/new");
    String printed = text.toString(StandardCharsets.UTF_8);
    Matcher export = Pattern.compile("\\S*recrawl (export --savepoint .*)").matcher(printed);
    assertThat(export.find()).as(printed).isTrue();
    String[] args = export.group(1).strip().split(" ");
    assertThat(Files.isDirectory(Path.of(args[2]))).isTrue();
    assertThat(StateToolsCommand.export(java.util.Arrays.copyOfRange(args, 1, args.length), out))
        .isZero();
    Path frontier = Path.of(args[args.length - 1]);
    assertThat(Files.readAllLines(frontier)).hasSize(21);
    assertThat(printed).containsPattern("recrawl explain http://host1.example/page1 --savepoint ");

    // The reporter stops with the job's MiniCluster.
    long stopped = System.currentTimeMillis() + 20_000;
    boolean serving = true;
    while (serving && System.currentTimeMillis() < stopped) {
      try {
        scrape(port);
        Thread.sleep(500);
      } catch (ConnectException closed) {
        serving = false;
      }
    }
    assertThat(serving).as("still serving on %d", port).isFalse();
  }

  /**
   * A MiniCluster has one metric registry for its JobManager and TaskManager, so one reporter:
   * given a range it serves both on the range's first free port, and nothing on the others.
   */
  @Test
  void aMiniClusterServesItsJobManagerAndTaskManagerOnTheFirstPortOfARange() throws Exception {
    int first = PrometheusEndpoint.firstFree(PORTS);
    Configuration flink = new Configuration();
    flink.setString(PrometheusEndpoint.PREFIX + "factory.class", PrometheusEndpoint.FACTORY);
    flink.setString(PrometheusEndpoint.PREFIX + "port", first + "-" + (first + 2));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, flink);
    env.fromSequence(0, Long.MAX_VALUE).map(x -> x + 1).sinkTo(new DiscardingSink<>());
    JobClient job = env.executeAsync("reporter-ports");
    try {
      List<String> names = new ArrayList<>();
      long deadline = System.currentTimeMillis() + 30_000;
      while (System.currentTimeMillis() < deadline
          && names.stream().noneMatch(n -> n.startsWith("flink_taskmanager_job_task_"))) {
        Thread.sleep(500);
        try {
          names = DashboardMetrics.parse(scrape(first)).stream().map(Sample::name).toList();
        } catch (ConnectException notYet) {
          // the MiniCluster is starting
        }
      }
      assertThat(names)
          .anyMatch(n -> n.startsWith("flink_jobmanager_"))
          .anyMatch(n -> n.startsWith("flink_taskmanager_job_task_"));
      assertThatThrownBy(() -> scrape(first + 1)).isInstanceOf(ConnectException.class);
    } finally {
      job.cancel().get();
    }
  }

  private static String scrape(int port) throws IOException, InterruptedException {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }

  /** The rules that the samples fail (no sample of a metric fails its rule), with why. */
  private static Map<String, String> failing(
      List<Sample> samples, Map<String, Predicate<List<Sample>>> rules) {
    Map<String, String> failing = new LinkedHashMap<>();
    rules.forEach(
        (name, rule) -> {
          Pattern p = Pattern.compile(name);
          List<Sample> of = samples.stream().filter(s -> p.matcher(s.name()).matches()).toList();
          if (of.isEmpty() || !rule.test(of)) {
            failing.put(
                name,
                of.stream()
                    .map(s -> s.name() + pick(s.labels()) + " " + s.value())
                    .collect(Collectors.joining("; ")));
          }
        });
    return failing;
  }

  private static Map<String, String> pick(Map<String, String> labels) {
    Map<String, String> m = new LinkedHashMap<>(labels);
    m.keySet().retainAll(List.of("status", "reason", "quantile", "operator_name"));
    return m;
  }

  private static Matcher await(ByteArrayOutputStream text, Pattern p) throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    while (System.currentTimeMillis() < deadline) {
      Matcher m = p.matcher(text.toString(StandardCharsets.UTF_8));
      if (m.find()) {
        return m;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no '" + p + "' in: " + text.toString(StandardCharsets.UTF_8));
  }

  private static double max(List<Sample> s) {
    return s.stream().mapToDouble(Sample::value).max().orElse(Double.NaN);
  }

  private static double min(List<Sample> s) {
    return s.stream().mapToDouble(Sample::value).min().orElse(Double.NaN);
  }

  private static boolean finite(List<Sample> s) {
    return s.stream().allMatch(x -> Double.isFinite(x.value()));
  }

  private static TreeSet<String> names(List<Sample> s) {
    return s.stream().map(Sample::name).collect(Collectors.toCollection(TreeSet::new));
  }

  private static TreeSet<String> labels(List<Sample> s, String label) {
    return s.stream()
        .map(x -> x.labels().get(label))
        .filter(java.util.Objects::nonNull)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** The sum of the samples with this label value (over subtasks). */
  private static double value(List<Sample> s, String label, String v) {
    return s.stream().filter(x -> v.equals(x.labels().get(label))).mapToDouble(Sample::value).sum();
  }
}
