package io.recrawl.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.testutil.RepoFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line refuses bad input with exit code 2 before anything starts. */
class RunCommandTest {

  @TempDir Path dir;

  @Test
  void theShippedConfigurationPassesTheCheck() throws Exception {
    assertThat(RunCommand.run(new String[] {"--config", RepoFiles.file("config/recrawl.yaml").toString(), "--check"})).isZero();
  }

  @Test
  void badConfigurationMissingFilesAndBadArgumentsExitWith2() throws Exception {
    Path bad = dir.resolve("bad.yaml");
    Files.writeString(bad, "recrawl.output.delivery: maybe-once\n");
    assertThat(RunCommand.run(new String[] {"--config", bad.toString(), "--check"})).isEqualTo(2);
    assertThat(RunCommand.run(new String[] {"--config", dir.resolve("missing.yaml").toString()})).isEqualTo(2);
    assertThat(RunCommand.run(new String[] {})).isEqualTo(2);
    assertThat(RunCommand.run(new String[] {"--config"})).isEqualTo(2);
    assertThat(RunCommand.run(new String[] {"--config", RepoFiles.file("config/recrawl.yaml").toString(), "--bogus"})).isEqualTo(2);
    Path good = RepoFiles.file("config/recrawl.yaml");
    assertThat(RunCommand.run(new String[] {"--config", good.toString(), "-Drecrawl.parallelism=-1", "--check"})).isEqualTo(2);
    assertThat(RunCommand.run(new String[] {"--config", good.toString(), "--flink-config", bad.resolveSibling("nope.yaml").toString(), "--check"}))
        .isEqualTo(2);
  }
}
