package io.recrawl.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.testutil.JsonLines;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decision log end to end: the production job (the host scheduler on RocksDB, checkpoints,
 * wall-clock ticks) reads status files and writes its requests and its decision log as files, and
 * every request in the output has one decision line that explains it.
 */
class DecisionLogITCase {

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      TestClusters.miniCluster(TestClusters.strict("300 ms"));

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int HOSTS = 3;
  private static final int PAGES_PER_HOST = 2;

  @TempDir Path dir;

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void everyRequestWrittenHasOneDecisionLineThatExplainsIt() throws Exception {
    // Pages discovered five minutes ago: the ticks' watermark is past their hosts' first wake-ups.
    long discovered = System.currentTimeMillis() - 5 * 60_000;
    Path input = Files.createDirectories(dir.resolve("in"));
    List<String> lines = new ArrayList<>();
    for (int h = 0; h < HOSTS; h++) {
      for (int p = 0; p < PAGES_PER_HOST; p++) {
        lines.add(
            "{\"url\":\"http://h"
                + h
                + ".example/p"
                + p
                + "\",\"status\":\"DISCOVERED\",\"time\":"
                + discovered
                + "}");
      }
    }
    Files.writeString(input.resolve("status.jsonl"), String.join("\n", lines) + "\n");
    RecrawlConfig config =
        RecrawlConfig.fromMap(
            Map.of(
                "recrawl.input.path",
                input.toString(),
                "recrawl.input.monitor-interval-ms",
                200, // unbounded, as in production
                "recrawl.watermark.out-of-orderness-ms",
                0,
                "recrawl.watermark.idleness-ms",
                500,
                "recrawl.control.tick-interval-ms",
                200,
                "recrawl.global-lambda",
                0.25,
                "recrawl.engine.host.max-rate",
                1440, // one a minute
                "recrawl.output.path",
                dir.resolve("out").toString(),
                "recrawl.decisions.type",
                "files",
                "recrawl.decisions.path",
                dir.resolve("decisions").toString()));

    JobClient job =
        TestClusters.startJob(config, "decision-log"); // file parts are finalised at checkpoints
    int expected = HOSTS * PAGES_PER_HOST;
    try {
      // Part files are finalised at checkpoints: wait until both outputs hold every page.
      while (JsonLines.readAll(dir.resolve("out")).size() < expected
          || JsonLines.readAll(dir.resolve("decisions")).size() < expected) {
        Thread.sleep(200);
      }
    } finally {
      TestClusters.cancelAndWait(job);
    }

    Map<String, CrawlRequest> requests =
        JsonLines.readAll(dir.resolve("out")).stream()
            .map(l -> CrawlRequestCodec.parse(l, 0).value())
            .collect(Collectors.toMap(CrawlRequest::url, Function.identity()));
    List<JsonNode> decisions = new ArrayList<>();
    for (String l : JsonLines.readAll(dir.resolve("decisions"))) {
      decisions.add(JSON.readTree(l));
    }
    assertThat(requests).hasSize(expected); // each page once: its lease (1 h) outlasts the test
    assertThat(decisions)
        .extracting(d -> d.get("url").asText())
        .containsExactlyInAnyOrderElementsOf(requests.keySet());
    for (JsonNode d : decisions) {
      CrawlRequest r = requests.get(d.get("url").asText());
      assertThat(d.get("host").asText()).isEqualTo(r.host());
      assertThat(d.get("time").asLong()).isEqualTo(r.time());
      assertThat(d.get("reason").asText()).isEqualTo("first_crawl");
      assertThat(d.get("value").asDouble()).isEqualTo(r.value());
      assertThat(d.get("lease").asLong()).isEqualTo(r.lease());
      assertThat(d.get("global_lambda").asDouble()).isEqualTo(0.25);
      assertThat(d.get("host_lambda").asDouble() + d.get("global_lambda").asDouble())
          .isCloseTo(r.threshold(), within(1e-12));
      assertThat(d.get("host_max_rate").asDouble()).isEqualTo(1440.0);
    }
    // The limit shows in the times: a host's second page goes at least a minute after its first.
    for (int h = 0; h < HOSTS; h++) {
      long first = requests.get("http://h" + h + ".example/p0").time();
      long second = requests.get("http://h" + h + ".example/p1").time();
      assertThat(Math.abs(second - first)).isGreaterThanOrEqualTo(60_000);
    }
  }
}
