package io.recrawl.flink.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.flink.tools.SavepointJobs.Running;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every committed savepoint ({@code src/test/resources/savepoints/<version>/}) restores in this
 * build and holds, page by page, what its export says. With {@code -Drecrawl.fixture.write=VERSION}
 * it first writes the fixture of this build (see docs/operations.md, "Upgrades").
 */
class SavepointFixtureITCase {

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = TestClusters.miniCluster(TestClusters.rocksDb());

  static final Path FIXTURES = Path.of("src/test/resources/savepoints");

  /**
   * What the savepoint stores (the rest of an export is the engine's math on it, which may move).
   */
  static final List<String> STORED =
      List.of(
          "url",
          "host",
          "status",
          "now",
          "weight",
          "estimator_shape",
          "estimator_rate",
          "last_fetch",
          "age_from",
          "lease_until",
          "errors",
          "lease_expiries",
          "global_lambda");

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  @Test
  @EnabledIfSystemProperty(named = "recrawl.fixture.write", matches = ".+")
  void writeTheFixtureOfThisBuild() throws Exception {
    Path dir = FIXTURES.resolve(System.getProperty("recrawl.fixture.write"));
    assertThat(dir).as("a fixture is never replaced").doesNotExist();
    String savepoint = SavepointJobs.write(2, tmp.resolve("write"));
    Path from = Path.of(java.net.URI.create(savepoint));
    Path to = Files.createDirectories(dir.resolve("savepoint"));
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.toList()) {
        Files.copy(f, to.resolve(f.getFileName()));
      }
    }
    List<String> rows =
        new ArrayList<>(FrontierReader.read(to.toString(), Map.of(), null, null, null));
    rows.sort(null);
    Files.write(dir.resolve("frontier.jsonl"), rows);
  }

  @Test
  void everyCommittedSavepointRestoresPageByPage() throws Exception {
    List<Path> versions;
    try (Stream<Path> dirs = Files.list(FIXTURES)) {
      versions = dirs.filter(Files::isDirectory).sorted().toList();
    }
    assertThat(versions).isNotEmpty();
    for (Path v : versions) {
      Map<String, JsonNode> expected = new HashMap<>();
      for (String line : Files.readAllLines(v.resolve("frontier.jsonl"))) {
        JsonNode n = JSON.readTree(line);
        expected.put(n.get("url").asText(), n);
      }
      String savepoint = v.resolve("savepoint").toAbsolutePath().toString();
      check(v + ", read", expected, RescaleITCase.export(savepoint));

      SavepointJobs.CLOCK.set(SavepointJobs.END);
      Running r = SavepointJobs.start(2, savepoint, false);
      try {
        check(
            v + ", restored",
            expected,
            RescaleITCase.export(r.savepoint(tmp.resolve(v.getFileName()))));
      } finally {
        r.cancel();
      }
    }
  }

  private static void check(
      String what, Map<String, JsonNode> expected, Map<String, JsonNode> actual) {
    assertThat(actual.keySet())
        .as(
            "%s: the URLs (a failure here means the state format changed: add a layout and a new fixture)",
            what)
        .isEqualTo(expected.keySet());
    for (Map.Entry<String, JsonNode> e : expected.entrySet()) {
      for (String field : STORED) {
        assertThat(actual.get(e.getKey()).get(field))
            .as(
                "%s: %s of %s (the state format changed? add a layout and a new fixture)",
                what, field, e.getKey())
            .isEqualTo(e.getValue().get(field));
      }
    }
  }
}
