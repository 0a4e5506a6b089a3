package io.recrawl.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.testutil.JsonLines;
import io.recrawl.flink.testutil.PassThroughStage;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.DeadLetterCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job's wiring on a MiniCluster with RocksDB and no Kryo, reading files and writing files:
 * status events and seeds in, requests and dead letters out. The scheduler itself is replaced by a
 * pass-through, so this checks everything around it.
 */
class RecrawlJobITCase {

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      TestClusters.miniCluster(TestClusters.strict("300 ms"));

  @TempDir Path dir;

  @Test
  void statusFilesAndSeedsBecomeRequestsAndBadLinesDeadLetters() throws Exception {
    Path input = Files.createDirectories(dir.resolve("in"));
    Files.writeString(
        input.resolve("status-1.jsonl"),
        String.join(
            "\n",
            "{\"url\":\"http://a.org/1\",\"status\":\"FETCHED\",\"time\":1000,\"metadata\":{\"depth\":\"1\"}}",
            "{\"url\":\"HTTP://A.org:80/2\",\"status\":\"FETCH_ERROR\",\"time\":2000,\"http_status\":503}",
            "",
            "{\"url\":\"http://b.org/\",\"status\":\"REDIRECTION\",\"time\":\"1970-01-01T00:00:03Z\"}",
            "{\"url\":\"http://c.org/\",\"status\":\"FETCHED\",\"time\":4000",
            "{\"url\":\"http://c.org/\",\"status\":\"FETCHED\",\"time\":4000,\"weight\":-2}"));
    Path seeds = dir.resolve("seeds.txt");
    Files.writeString(
        seeds, "# seeds\nhttp://seed.org/\tdepth=0\nhttps://Seed.org./other\nnot a url\n");

    RecrawlConfig config =
        RecrawlConfig.fromMap(
            Map.of(
                "recrawl.input.path",
                input.toString(),
                "recrawl.input.monitor-interval-ms",
                0,
                "recrawl.input.seeds",
                seeds.toString(),
                "recrawl.input.seeds-time",
                500,
                "recrawl.output.path",
                dir.resolve("out").toString(),
                "recrawl.deadletters.path",
                dir.resolve("dead").toString(),
                "recrawl.control.tick-interval-ms",
                0,
                "recrawl.global-lambda",
                0.25,
                "recrawl.parallelism",
                2));

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    RecrawlJob.build(
        env,
        config,
        JobSources.fromConfig(config),
        JobSinks.fromConfig(config),
        new PassThroughStage());
    env.execute("wiring");

    List<CrawlRequest> requests =
        JsonLines.readAll(dir.resolve("out")).stream()
            .map(l -> CrawlRequestCodec.parse(l, 0).value())
            .toList();
    assertThat(requests)
        .extracting(CrawlRequest::url)
        .containsExactlyInAnyOrder(
            "http://a.org/1",
            "http://a.org/2", // HTTP://A.org:80/2: one spelling per URL (docs/wire-format.md)
            "http://b.org/",
            "http://seed.org/",
            "https://seed.org/other"); // https://Seed.org./other
    assertThat(requests)
        .extracting(CrawlRequest::host)
        .containsExactlyInAnyOrder("a.org", "a.org", "b.org", "seed.org", "seed.org");
    CrawlRequest seed =
        requests.stream().filter(r -> r.url().equals("http://seed.org/")).findFirst().orElseThrow();
    assertThat(seed.time()).isEqualTo(500);
    assertThat(seed.metadata()).containsEntry("depth", List.of("0"));

    List<DeadLetter> dead =
        JsonLines.readAll(dir.resolve("dead")).stream()
            .map(l -> DeadLetterCodec.parse(l, 0).value())
            .toList();
    assertThat(dead)
        .extracting(DeadLetter::reason)
        .containsExactlyInAnyOrder("malformed_json", "bad_weight", "bad_url");
    assertThat(dead).extracting(DeadLetter::raw).contains("not a url");
  }

  @Test
  void theProductionJobRunsTheHostScheduler() {
    RecrawlConfig config =
        RecrawlConfig.fromMap(
            Map.of("recrawl.input.path", dir.toString(), "recrawl.control.tick-interval-ms", 0));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    RecrawlJob.build(env, config, JobSources.fromConfig(config), JobSinks.fromConfig(config));
    assertThat(env.getStreamGraph().getStreamNodes())
        .anySatisfy(
            n ->
                assertThat(n.getTransformationUID())
                    .isEqualTo(io.recrawl.flink.scheduler.SchedulerState.OPERATOR_UID))
        .noneSatisfy(n -> assertThat(n.getTransformationUID()).startsWith("decisions-"));
  }

  @Test
  void theDecisionLogIsWrittenWhereConfigured() {
    RecrawlConfig config =
        RecrawlConfig.fromMap(
            Map.of(
                "recrawl.input.path",
                dir.toString(),
                "recrawl.control.tick-interval-ms",
                0,
                "recrawl.decisions.type",
                "files",
                "recrawl.decisions.path",
                dir.resolve("decisions").toString()));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    RecrawlJob.build(env, config, JobSources.fromConfig(config), JobSinks.fromConfig(config));
    assertThat(env.getStreamGraph().getStreamNodes())
        .anySatisfy(n -> assertThat(n.getTransformationUID()).isEqualTo("decisions-files"));
  }
}
