package io.recrawl.flink.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.flink.config.RecrawlConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --from-latest-checkpoint: the newest complete checkpoint any earlier run of the job retained. */
class LocalRestoreTest {

  @TempDir Path dir;

  @Test
  void theNewestCheckpointWithItsMetadataUnderTheWorkDirectory() throws Exception {
    RecrawlConfig config = RecrawlConfig.fromMap(Map.of("recrawl.work-dir", dir.toString()));
    Path checkpoints = dir.resolve("checkpoints");
    checkpoint(checkpoints.resolve("job-a/chk-7"), 100);
    Path newest = checkpoint(checkpoints.resolve("job-b/chk-3"), 300);
    checkpoint(checkpoints.resolve("job-a/chk-9"), 200);
    // Being written when the run died: no _metadata, so not a checkpoint to start from.
    Files.createDirectories(checkpoints.resolve("job-b/chk-4"));
    Files.createDirectories(checkpoints.resolve("job-b/shared"));

    assertThat(LocalRestore.latestCheckpoint(config, new Configuration()))
        .isEqualTo(newest.toString());

    Configuration elsewhere = new Configuration();
    elsewhere.set(
        CheckpointingOptions.CHECKPOINTS_DIRECTORY, dir.resolve("other").toUri().toString());
    Path there = checkpoint(dir.resolve("other/job-c/chk-1"), 50);
    assertThat(LocalRestore.latestCheckpoint(config, elsewhere)).isEqualTo(there.toString());
  }

  @Test
  void noCheckpointIsAnErrorThatSaysWhereItLooked() {
    RecrawlConfig config = RecrawlConfig.fromMap(Map.of("recrawl.work-dir", dir.toString()));
    assertThatThrownBy(() -> LocalRestore.latestCheckpoint(config, new Configuration()))
        .hasMessageStartingWith("--from-latest-checkpoint: no retained checkpoint under")
        .hasMessageContaining(dir.resolve("checkpoints").toString());
  }

  private static Path checkpoint(Path chk, long secondsAfterEpoch) throws Exception {
    Files.createDirectories(chk);
    Path metadata = Files.writeString(chk.resolve("_metadata"), "x");
    Files.setLastModifiedTime(metadata, FileTime.from(Instant.ofEpochSecond(secondsAfterEpoch)));
    return chk;
  }
}
