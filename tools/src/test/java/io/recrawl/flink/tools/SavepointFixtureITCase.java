package io.recrawl.flink.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.flink.tools.SavepointJobs.Running;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every committed savepoint ({@code src/test/resources/savepoints/<version>/}) restores in this
 * build and holds, page by page, what its export says: read directly, and through a restored job's
 * own savepoint. With {@code -Drecrawl.fixture.write=VERSION} it first writes the fixture of this
 * build (see docs/operations.md, "Upgrades"); a fixture is never replaced.
 */
class SavepointFixtureITCase {

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = TestClusters.miniCluster(TestClusters.rocksDb());

  static final Path FIXTURES = Path.of("src/test/resources/savepoints");

  /** The export the fixture was made with: {@code bin/recrawl export}'s lines, sorted, gzipped. */
  static final String EXPORT = "frontier.jsonl.gz";

  /**
   * What the savepoint stores. The rest of an export is the engine's math on it (due times,
   * values), which may change between builds without any change of format.
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
    Path from = Path.of(URI.create(savepoint));
    Path to = Files.createDirectories(dir.resolve("savepoint"));
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.toList()) {
        Files.copy(f, to.resolve(f.getFileName()));
      }
    }
    List<String> rows =
        new ArrayList<>(FrontierReader.read(to.toString(), Map.of(), null, null, null));
    rows.sort(null);
    try (Writer w =
        new OutputStreamWriter(
            new GZIPOutputStream(Files.newOutputStream(dir.resolve(EXPORT))),
            StandardCharsets.UTF_8)) {
      for (String row : rows) {
        w.write(row);
        w.write('\n');
      }
    }
  }

  @Test
  void everyCommittedSavepointRestoresPageByPage() throws Exception {
    List<Path> versions;
    try (Stream<Path> dirs = Files.list(FIXTURES)) {
      versions = dirs.filter(Files::isDirectory).sorted().toList();
    }
    assertThat(versions).isNotEmpty();
    for (Path v : versions) {
      List<String> lines;
      try (BufferedReader in =
          new BufferedReader(
              new InputStreamReader(
                  new GZIPInputStream(Files.newInputStream(v.resolve(EXPORT))),
                  StandardCharsets.UTF_8))) {
        lines = in.lines().toList();
      }
      Map<String, JsonNode> expected = new HashMap<>();
      for (String line : lines) {
        JsonNode n = JSON.readTree(line);
        expected.put(n.get("url").asText(), n);
      }
      assertThat(expected).as("%s: one row per URL", v).hasSize(lines.size());
      String savepoint = v.resolve("savepoint").toAbsolutePath().toString();
      check(v + ", read", expected, FrontierReader.read(savepoint, Map.of(), null, null, null));

      SavepointJobs.CLOCK.set(SavepointJobs.END);
      Running r = SavepointJobs.start(2, savepoint, false);
      String again;
      try {
        again = r.savepoint(tmp.resolve(v.getFileName()));
      } finally {
        r.cancel(); // before reading: the job holds both slots
      }
      check(v + ", restored", expected, FrontierReader.read(again, Map.of(), null, null, null));
    }
  }

  /**
   * A restore of the committed savepoint on another demand-curve grid fails at start-up, naming the
   * key, and is not restarted (with a restart strategy that would otherwise loop).
   */
  @Test
  void explainFindsAPageOfEveryHostNotOnlyTheFirstRead() throws Exception {
    Path v = FIXTURES.resolve("0.1.0");
    String savepoint = v.resolve("savepoint").toAbsolutePath().toString();
    for (int host = 0; host < 36; host += 7) { // hosts h0 to h35
      for (String scheme : List.of("http", "https")) {
        String url = scheme + "://h" + host + ".example/p/0";
        List<String> rows =
            FrontierReader.read(savepoint, Map.of(), "h" + host + ".example", url, null);
        if (!rows.isEmpty()) {
          assertThat(JSON.readTree(rows.get(0)).get("url").asText()).isEqualTo(url);
        }
      }
      List<String> all =
          FrontierReader.read(savepoint, Map.of(), "h" + host + ".example", null, null);
      assertThat(all).as("pages of h%d.example", host).isNotEmpty();
    }
  }

  @Test
  void aRestoreOnAnotherGridIsRefusedWithoutRestarts() throws Exception {
    Path v;
    try (Stream<Path> dirs = Files.list(FIXTURES)) {
      v = dirs.filter(Files::isDirectory).sorted().reduce((a, b) -> b).orElseThrow();
    }
    Running r =
        SavepointJobs.start(
            2,
            v.resolve("savepoint").toAbsolutePath().toString(),
            false,
            Map.of("curve.points-per-decade", 5),
            Map.of(
                "restart-strategy.type", "fixed-delay",
                "restart-strategy.fixed-delay.attempts", "1000",
                "restart-strategy.fixed-delay.delay", "10 ms"));
    Throwable failure = null;
    try {
      r.job().getJobExecutionResult().get(60, java.util.concurrent.TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      failure = e;
    }
    assertThat(failure).as("the job fails").isNotNull();
    StringBuilder messages = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      messages.append(t).append('\n');
    }
    assertThat(messages.toString())
        .contains("SuppressRestartsException")
        .contains("recrawl.engine.curve.points-per-decade was 3");
  }

  private static void check(String what, Map<String, JsonNode> expected, List<String> rows)
      throws Exception {
    Map<String, JsonNode> actual = new HashMap<>();
    for (String row : rows) {
      JsonNode n = JSON.readTree(row);
      assertThat(actual.put(n.get("url").asText(), n)).as("%s: %s twice", what, row).isNull();
    }
    String hint = " (the state format changed? add a layout that reads the old one, and a fixture)";
    assertThat(actual.keySet()).as(what + ": the URLs" + hint).isEqualTo(expected.keySet());
    for (Map.Entry<String, JsonNode> e : expected.entrySet()) {
      for (String field : STORED) {
        assertThat(actual.get(e.getKey()).get(field))
            .as("%s: %s of %s%s", what, field, e.getKey(), hint)
            .isEqualTo(e.getValue().get(field));
      }
    }
  }
}
