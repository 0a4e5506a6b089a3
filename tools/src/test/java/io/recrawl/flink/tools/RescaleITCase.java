package io.recrawl.flink.tools;

import static io.recrawl.flink.tools.SavepointJobs.CLOCK;
import static io.recrawl.flink.tools.SavepointJobs.DAY;
import static io.recrawl.flink.tools.SavepointJobs.END;
import static io.recrawl.flink.tools.SavepointJobs.LAMBDA0;
import static io.recrawl.flink.tools.SavepointJobs.OVERRIDES;
import static io.recrawl.flink.tools.SavepointJobs.URLS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.flink.tools.SavepointJobs.Running;
import io.recrawl.wire.CrawlRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A savepoint taken at parallelism 2, restored at 1 and at 4 (RocksDB, max parallelism of {@code
 * recrawl.max-parallelism}): every URL is still there with its schedule (the restored job's own
 * savepoint exports the same frontier, due times included), λ_0 and the host-rate overrides
 * likewise, every host with a page due fires its timer, and the requests keep each host's pacing.
 */
class RescaleITCase {

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(4)
              .setConfiguration(TestClusters.rocksDb())
              .build());

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path tmp;
  private static String savepoint;
  private static Map<String, JsonNode> before;

  @BeforeAll
  static void writeAtParallelism2() throws Exception {
    savepoint = SavepointJobs.write(2, tmp.resolve("p2"));
    before = export(savepoint);
    assertThat(before).hasSize(URLS);
  }

  @ParameterizedTest(name = "2 -> {0}")
  @ValueSource(ints = {1, 4})
  void restoresAt(int parallelism) throws Exception {
    CLOCK.set(END);
    Running r = SavepointJobs.start(parallelism, savepoint, false);
    String again;
    try {
      again = r.savepoint(tmp.resolve("p" + parallelism));

      // Two days on: every host with a page due by then wakes, paced.
      long until = END + 2 * DAY;
      Set<String> due =
          before.values().stream()
              .filter(n -> !n.get("due").isNull() && n.get("due").asLong() <= until - DAY)
              .map(n -> n.get("host").asText())
              .collect(Collectors.toCollection(TreeSet::new));
      assertThat(due).hasSizeGreaterThan(SavepointJobs.HOSTS / 2);
      CLOCK.set(until);
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (!hosts(r.requests().values()).containsAll(due) && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      List<CrawlRequest> requests = r.requests().values();
      assertThat(hosts(requests)).containsAll(due);
      Map<String, Double> rate = new HashMap<>();
      before
          .values()
          .forEach(n -> rate.put(n.get("host").asText(), n.get("host_max_rate").asDouble()));
      Map<String, List<CrawlRequest>> byHost =
          requests.stream()
              .collect(
                  Collectors.groupingBy(CrawlRequest::host, TreeMap::new, Collectors.toList()));
      byHost.forEach(
          (host, rs) -> {
            List<CrawlRequest> sorted =
                rs.stream().sorted(Comparator.comparingLong(CrawlRequest::time)).toList();
            long spacing = (long) Math.floor(DAY / rate.get(host));
            for (int i = 1; i < sorted.size(); i++) {
              assertThat(sorted.get(i).time() - sorted.get(i - 1).time())
                  .as("pacing of %s (%s a day)", host, rate.get(host))
                  .isGreaterThanOrEqualTo(spacing);
            }
          });
    } finally {
      r.cancel();
      CLOCK.set(END);
    }
    // Read once the job is gone: at parallelism 4 it holds every slot.
    Map<String, JsonNode> after = export(again);
    assertThat(after.keySet()).isEqualTo(before.keySet());
    for (String url : before.keySet()) {
      assertThat(after.get(url)).as(url).isEqualTo(before.get(url));
    }
    assertThat(after.values()).allMatch(n -> n.get("global_lambda").asDouble() == LAMBDA0);
    for (int h = 0; h < OVERRIDES.length; h++) {
      String host = SavepointJobs.host(h);
      double limit = OVERRIDES[h];
      assertThat(after.values())
          .filteredOn(n -> n.get("host").asText().equals(host))
          .isNotEmpty()
          .allMatch(n -> n.get("host_max_rate").asDouble() <= limit);
    }
  }

  private static Set<String> hosts(List<CrawlRequest> requests) {
    return requests.stream().map(CrawlRequest::host).collect(Collectors.toSet());
  }

  static Map<String, JsonNode> export(String savepoint) throws Exception {
    Map<String, JsonNode> byUrl = new HashMap<>();
    for (String line : FrontierReader.read(savepoint, Map.of(), null, null, null)) {
      JsonNode n = JSON.readTree(line);
      byUrl.put(n.get("url").asText(), n);
    }
    return byUrl;
  }
}
