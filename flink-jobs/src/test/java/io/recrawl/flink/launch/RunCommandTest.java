package io.recrawl.flink.launch;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.testutil.RepoFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.state.rocksdb.RocksDBConfigurableOptions;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line refuses bad input with exit code 2 before anything starts. */
class RunCommandTest {

  @TempDir Path dir;

  @Test
  void theShippedConfigurationPassesTheCheck() throws Exception {
    assertThat(
            RunCommand.run(
                new String[] {
                  "--config", RepoFiles.file("config/recrawl.yaml").toString(), "--check"
                }))
        .isZero();
  }

  @Test
  void localRunsDefaultToRocksDbCheckpointsAndNoKryoUnderTheWorkDirectory() {
    Configuration local = RunCommand.localConfiguration(new Configuration(), dir);
    assertThat(local.get(StateBackendOptions.STATE_BACKEND)).isEqualTo("rocksdb");
    assertThat(local.get(RocksDBConfigurableOptions.USE_BLOOM_FILTER)).isTrue();
    assertThat(local.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
        .isEqualTo(Duration.ofSeconds(10));
    assertThat(local.get(PipelineOptions.GENERIC_TYPES)).isFalse();
    assertThat(local.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY))
        .isEqualTo(dir.resolve("checkpoints").toUri().toString());
    assertThat(local.get(RocksDBOptions.LOCAL_DIRECTORIES))
        .isEqualTo(dir.resolve("rocksdb").toString());

    Configuration given = new Configuration();
    given.set(StateBackendOptions.STATE_BACKEND, "hashmap");
    given.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(3));
    given.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, "file:///elsewhere");
    Configuration kept = RunCommand.localConfiguration(given, dir);
    assertThat(kept.get(StateBackendOptions.STATE_BACKEND)).isEqualTo("hashmap");
    assertThat(kept.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
        .isEqualTo(Duration.ofSeconds(3));
    assertThat(kept.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY)).isEqualTo("file:///elsewhere");
  }

  @Test
  void badConfigurationMissingFilesAndBadArgumentsExitWith2() throws Exception {
    Path bad = dir.resolve("bad.yaml");
    Files.writeString(bad, "recrawl.output.delivery: maybe-once\n");
    assertThat(RunCommand.run(new String[] {"--config", bad.toString(), "--check"})).isEqualTo(2);
    assertThat(RunCommand.run(new String[] {"--config", dir.resolve("missing.yaml").toString()}))
        .isEqualTo(2);
    assertThat(RunCommand.run(new String[] {})).isEqualTo(2);
    assertThat(RunCommand.run(new String[] {"--config"})).isEqualTo(2);
    assertThat(
            RunCommand.run(
                new String[] {
                  "--config", RepoFiles.file("config/recrawl.yaml").toString(), "--bogus"
                }))
        .isEqualTo(2);
    Path good = RepoFiles.file("config/recrawl.yaml");
    assertThat(
            RunCommand.run(
                new String[] {"--config", good.toString(), "-Drecrawl.parallelism=-1", "--check"}))
        .isEqualTo(2);
    assertThat(
            RunCommand.run(
                new String[] {
                  "--config",
                  good.toString(),
                  "--flink-config",
                  bad.resolveSibling("nope.yaml").toString(),
                  "--check"
                }))
        .isEqualTo(2);
    // A local run refuses a seed file that is not there, before starting anything.
    assertThat(
            RunCommand.run(
                new String[] {
                  "--config",
                  good.toString(),
                  "-Drecrawl.input.seeds=" + dir.resolve("no-seeds.txt"),
                  "-Drecrawl.work-dir=" + dir.resolve("work")
                }))
        .isEqualTo(2);
  }
}
