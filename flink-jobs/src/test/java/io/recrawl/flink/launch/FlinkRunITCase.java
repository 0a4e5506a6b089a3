package io.recrawl.flink.launch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recrawl.flink.config.FlinkSettings;
import io.recrawl.flink.io.FileSinkParts;
import io.recrawl.flink.testutil.RepoFiles;
import io.recrawl.flink.testutil.StandaloneFlinkCluster;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.apache.commons.io.IOUtils;
import org.apache.commons.lang3.StringUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The shaded job jar, submitted unchanged with Flink's own {@code flink run} client to a session
 * cluster of separate JVMs that have only Flink's jars: docs/operations.md's "submit to a cluster"
 * path. It runs after {@code package}, when the jar exists. Seeds go in; crawl requests come out.
 */
class FlinkRunITCase {

  private static final List<String> SEEDS =
      List.of("https://a.example/1", "https://a.example/2", "https://b.example/1");

  @TempDir Path dir;

  @Test
  void theShadedJarHoldsTheJobAndNoneOfItsTools() throws IOException {
    List<String> ours;
    try (JarFile jar =
        new JarFile(
            RepoFiles.file("flink-jobs/target/flink-jobs-0.1.0-SNAPSHOT-job.jar").toFile())) {
      ours =
          jar.stream()
              .map(JarEntry::getName)
              .filter(n -> n.startsWith("io/recrawl/") && n.endsWith(".class"))
              .toList();
    }
    assertThat(ours)
        .anyMatch(n -> n.startsWith("io/recrawl/flink/job/"))
        .anyMatch(n -> n.startsWith("io/recrawl/engine/"))
        .noneMatch(n -> n.startsWith("io/recrawl/sim/"))
        .noneMatch(n -> n.startsWith("io/recrawl/live/"))
        .noneMatch(n -> n.startsWith("io/recrawl/flink/bench/"))
        .noneMatch(n -> n.startsWith("io/recrawl/flink/tools/"))
        .noneMatch(n -> n.startsWith("io/recrawl/flink/cli/"))
        .noneMatch(n -> n.startsWith("io/recrawl/stormcrawler/"))
        .noneMatch(n -> n.startsWith("io/recrawl/frontier/"));
  }

  @Test
  void theShadedJarRunsOnAFlinkClusterThroughFlinkRun() throws Exception {
    Path jar = RepoFiles.file("flink-jobs/target/flink-jobs-0.1.0-SNAPSHOT-job.jar");
    assertThat(jar).as("the shaded jar; this test runs after package").exists();
    String classpath = clusterClasspath();
    // Without this the test would prove nothing: the jar must bring the job and its connectors.
    assertThat(classpath).doesNotContain("engine-0.1.0", "flink-connector-kafka", "flink-jobs");

    Path job = Files.createDirectories(dir.resolve("job"));
    Files.createDirectories(job.resolve("input"));
    Files.write(job.resolve("seeds.txt"), SEEDS);
    Path out = job.resolve("out");
    Files.writeString(
        job.resolve("recrawl.yaml"),
        String.join(
            "\n",
            "recrawl.input.type: files",
            "recrawl.input.path: " + job.resolve("input"),
            "recrawl.input.monitor-interval-ms: 1000",
            "recrawl.input.seeds: " + job.resolve("seeds.txt"),
            "recrawl.output.type: files",
            "recrawl.output.path: " + out.resolve("requests"),
            "recrawl.deadletters.type: files",
            "recrawl.deadletters.path: " + out.resolve("deadletters"),
            "recrawl.control.tick-interval-ms: 1000",
            "recrawl.watermark.idleness-ms: 2000",
            "recrawl.watermark.out-of-orderness-ms: 1000",
            "recrawl.job.name: flink-run-check",
            ""));

    // As docs/operations.md says: the keys of config/flink-config.yaml go into the cluster's
    // config.yaml.
    Map<String, String> settings =
        new LinkedHashMap<>(FlinkSettings.load(RepoFiles.file("config/flink-config.yaml")).toMap());
    settings.put("execution.checkpointing.interval", "2 s");
    settings.put("execution.checkpointing.dir", dir.resolve("checkpoints").toUri().toString());

    try (StandaloneFlinkCluster cluster = new StandaloneFlinkCluster(dir, classpath, settings)) {
      cluster.start(Duration.ofSeconds(90));
      String submitted =
          cluster.flinkRun(
              Duration.ofSeconds(120),
              "-d",
              jar.toString(),
              "run",
              "--config",
              job.resolve("recrawl.yaml").toString());
      assertThat(submitted).contains("Job has been submitted with JobID");

      Map<String, Long> requested = awaitRequests(out.resolve("requests"), Duration.ofSeconds(120));
      assertThat(requested).containsOnlyKeys(SEEDS);
      // Politeness on the output: a.example's two pages at least the default 1 s apart.
      assertThat(Math.abs(requested.get(SEEDS.get(1)) - requested.get(SEEDS.get(0))))
          .isGreaterThanOrEqualTo(1000);
      assertThat(cluster.rest("/jobs/overview"))
          .contains("\"name\":\"flink-run-check\"", "\"state\":\"RUNNING\"");
    }
  }

  /**
   * What a Flink distribution puts on the cluster's classpath: the project's provided-scope jars
   * (listed by the build) and the libraries flink-dist bundles that this build resolves as compile
   * scope, because the job's own dependencies ask for them too.
   */
  private static String clusterClasspath() throws IOException {
    Path listed = RepoFiles.file("flink-jobs/target/flink-cluster-classpath.txt");
    assertThat(listed).as("written by the build (maven-dependency-plugin)").exists();
    StringBuilder cp = new StringBuilder(Files.readString(listed).strip());
    for (Class<?> bundled : List.of(LoggerFactory.class, StringUtils.class, IOUtils.class)) {
      cp.append(File.pathSeparator).append(StandaloneFlinkCluster.codeSourceOf(bundled));
    }
    return cp.toString();
  }

  /**
   * Polls the file sink's committed files until every seed was requested; URL -> first request
   * time.
   */
  private static Map<String, Long> awaitRequests(Path requests, Duration timeout) throws Exception {
    ObjectMapper json = new ObjectMapper();
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<String, Long> seen = new LinkedHashMap<>();
    while (System.nanoTime() < deadline) {
      seen.clear();
      for (Path f : committedFiles(requests)) {
        for (String line : Files.readAllLines(f)) {
          JsonNode r = json.readTree(line);
          seen.merge(r.get("url").asText(), r.get("time").asLong(), Math::min);
        }
      }
      if (seen.keySet().containsAll(SEEDS)) {
        return seen;
      }
      Thread.sleep(1000);
    }
    return seen;
  }

  private static List<Path> committedFiles(Path root) throws IOException {
    return FileSinkParts.finished(root);
  }
}
