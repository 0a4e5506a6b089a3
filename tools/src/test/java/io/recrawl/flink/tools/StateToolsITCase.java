package io.recrawl.flink.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recrawl.flink.scheduler.HostScheduler;
import io.recrawl.flink.testutil.AttemptCollectingSink;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes a savepoint from a small scheduler job, then reads it back with {@code explain} and {@code
 * export}.
 */
class StateToolsITCase {

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = TestClusters.miniCluster(TestClusters.rocksDb());

  private static final long T0 = 1_700_000_000_000L;
  private static final long END = T0 + 30 * 60_000L;
  private static final String IN_FLIGHT = "https://a.example/in-flight";
  private static final String NEVER = "https://a.example/never";
  private static final String OTHER = "http://b.example/";

  @TempDir static Path tmp;
  private static String savepoint;

  @BeforeAll
  static void writeSavepoint() throws Exception {
    Map<String, String> m = new HashMap<>();
    m.put("state.backend.type", "rocksdb");
    m.put("pipeline.generic-types", "false");
    m.put("restart-strategy.type", "none");
    m.put("execution.checkpointing.interval", "1 s");
    m.put(
        "execution.checkpointing.dir",
        TestClusters.checkpointDir("StateToolsITCase").toUri().toString());
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(m));
    env.setParallelism(2);

    DataStream<StatusEvent> statuses =
        env.fromSource(
                new DataGeneratorSource<>(
                    (GeneratorFunction<Long, StatusEvent>) StateToolsITCase::input,
                    Long.MAX_VALUE,
                    RateLimiterStrategy.perSecond(20),
                    WireTypes.STATUS_EVENT),
                WatermarkStrategy.<StatusEvent>forMonotonousTimestamps()
                    .withTimestampAssigner((e, ts) -> e.time()),
                "statuses")
            .setParallelism(1);
    // λ0 = 10 first, then a tick a second at END: an unbounded control stream keeps the job
    // running.
    DataStream<ControlMessage> control =
        env.fromSource(
                new DataGeneratorSource<>(
                    (GeneratorFunction<Long, ControlMessage>)
                        i ->
                            i == 0 ? ControlMessage.lambda(T0, 3, 100.0) : ControlMessage.tick(END),
                    Long.MAX_VALUE,
                    RateLimiterStrategy.perSecond(5),
                    WireTypes.CONTROL_MESSAGE),
                WatermarkStrategy.<ControlMessage>forMonotonousTimestamps()
                    .withTimestampAssigner((c, ts) -> c.time()),
                "control")
            .setParallelism(1);
    AttemptCollectingSink<CrawlRequest> requests = new AttemptCollectingSink<>("state-tools");
    HostScheduler.schedule(statuses, control, Map.of(), 0.0, false).sinkTo(requests);
    JobClient job = env.executeAsync("state-tools-savepoint");
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (requests.values().stream().noneMatch(r -> r.url().equals(IN_FLIGHT))) {
      assertThat(System.nanoTime()).isLessThan(deadline);
      Thread.sleep(50);
    }
    Thread.sleep(1_000); // a few more ticks: every input has been applied
    savepoint =
        job.triggerSavepoint(
                tmp.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
            .get();
    job.cancel().get();
  }

  /**
   * The status input. Unbounded (a finished task cannot take part in a savepoint): after three
   * events, the same DISCOVERED again at END, a no-op (insert-if-absent) that only moves event
   * time.
   */
  static StatusEvent input(long i) {
    if (i == 0) { // weight 100: worth a crawl even at λ0 = 100, so it is released (and then in
      // flight)
      return new StatusEvent(
          IN_FLIGHT, "a.example", CrawlStatus.DISCOVERED, T0, Map.of(), null, 100.0, null);
    }
    if (i == 1) { // weight 1, known to change once a day: w/δ = 1, never above a threshold of 100
      return new StatusEvent(
          NEVER,
          "a.example",
          CrawlStatus.FETCHED,
          T0,
          Map.of(StatusEvent.CHANGE_RATE_KEY, List.of("1.0")),
          true,
          null,
          200);
    }
    if (i == 2) {
      return new StatusEvent(
          OTHER, "b.example", CrawlStatus.FETCHED, T0 + 1000, Map.of(), false, null, 304);
    }
    return new StatusEvent(
        OTHER, "b.example", CrawlStatus.DISCOVERED, END, Map.of(), null, null, null);
  }

  @Test
  void anExportToStandardOutputThatCannotBeWrittenFailsInEveryFormat() throws Exception {
    for (String format : List.of("json", "seeds", "opensearch")) {
      // A closed pipe or a full disk behind "export > file": the stream refuses every byte.
      java.io.OutputStream broken =
          new java.io.OutputStream() {
            @Override
            public void write(int b) throws java.io.IOException {
              throw new java.io.IOException("No space left on device");
            }
          };
      assertThat(
              StateToolsCommand.export(
                  new String[] {"--savepoint", savepoint, "--format", format},
                  new PrintStream(broken, true, StandardCharsets.UTF_8)))
          .as(format)
          .isOne();
    }
  }

  @Test
  void anExportToAFullDiskFailsAndSaysWhy() throws Exception {
    Path full = Path.of("/dev/full");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(full), "a device always full");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream systemErr = System.err;
    int rc;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      rc =
          StateToolsCommand.export(
              new String[] {"--savepoint", savepoint, "--format", "sql-tsv", "--out", "/dev/full"},
              System.out);
    } finally {
      System.setErr(systemErr);
    }
    assertThat(rc).isOne();
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("recrawl export: cannot write /dev/full: No space left on device");
  }

  @Test
  void exportDumpsEveryUrlAsJsonLines() throws Exception {
    Path out = tmp.resolve("frontier.jsonl");
    assertThat(
            StateToolsCommand.export(
                new String[] {"--savepoint", savepoint, "--out", out.toString()}, System.out))
        .isZero();
    List<String> lines = Files.readAllLines(out);
    ObjectMapper json = new ObjectMapper();
    Map<String, JsonNode> byUrl = new HashMap<>();
    for (String line : lines) {
      JsonNode n = json.readTree(line);
      byUrl.put(n.get("url").asText(), n);
    }
    assertThat(byUrl).containsOnlyKeys(IN_FLIGHT, NEVER, OTHER);
    assertThat(byUrl.get(IN_FLIGHT).get("in_flight").asBoolean()).isTrue();
    assertThat(byUrl.get(IN_FLIGHT).get("weight").asDouble()).isEqualTo(100.0);
    assertThat(byUrl.get(NEVER).get("global_lambda").asDouble()).isEqualTo(100.0);
    assertThat(byUrl.get(NEVER).get("due").isNull()).isTrue();
    assertThat(byUrl.get(NEVER).get("last_fetch").asLong()).isEqualTo(T0);
    assertThat(byUrl.get(OTHER).get("host").asText()).isEqualTo("b.example");
    assertThat(byUrl.get(OTHER).get("status").asText()).isEqualTo("FETCHED");
  }

  @Test
  void explainSaysWhyAPageIsNeverDue() throws Exception {
    String text = explain(NEVER);
    assertThat(text).contains("due             never");
    assertThat(text)
        .containsPattern(
            "reason +never: its crawl value can reach at most w/δ = [0-9.]+, which is not above the threshold 100\\.0+");
    assertThat(text).containsPattern("global_lambda +100\\.0");
    assertThat(text).containsPattern("change_rate +1\\.0");
  }

  @Test
  void explainShowsAReleasedPageInFlight() throws Exception {
    assertThat(explain(IN_FLIGHT))
        .containsPattern("in_flight +true")
        .contains("in flight: released, lease until");
  }

  @Test
  void explainOfAnUnknownUrlSaysSo() throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int rc =
        StateToolsCommand.explain(
            new String[] {"https://a.example/unknown", "--savepoint", savepoint},
            new PrintStream(buf, true, StandardCharsets.UTF_8));
    assertThat(rc).isEqualTo(1);
    assertThat(buf.toString(StandardCharsets.UTF_8)).contains("not in the savepoint");
  }

  @Test
  void explainTakesAnySpellingOfTheUrlAsTheJobDoes() throws Exception {
    for (String spelling :
        List.of("http://b.example", "HTTP://B.Example.:80", "http://b.example/")) {
      assertThat(explain(spelling)).as(spelling).containsPattern("url +http://b\\.example/\n");
    }
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int rc =
        StateToolsCommand.explain(
            new String[] {"http://b.example\\@a.example/", "--savepoint", savepoint},
            new PrintStream(buf, true, StandardCharsets.UTF_8));
    assertThat(rc).as("a URL the job refuses is no page").isEqualTo(2);
  }

  private static String explain(String url) throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int rc =
        StateToolsCommand.explain(
            new String[] {url, "--savepoint", savepoint},
            new PrintStream(buf, true, StandardCharsets.UTF_8));
    assertThat(rc).isZero();
    String text = buf.toString(StandardCharsets.UTF_8);
    System.out.println(text);
    return text;
  }
}
