package io.recrawl.flink.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.CrawlStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Flink's operator test harnesses make a {@code tmp_<uuid>} directory each in the temporary
 * directory and never delete it (thousands a build). The build gives the tests {@code target/} as
 * their temporary directory, so that the system's stays clean and {@code mvn clean} removes them.
 */
class TestTempDirTest {

  @Test
  void aHarnessLeavesItsDirectoryUnderTheBuildDirectoryNotTheSystems() throws Exception {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
    assertThat(tmp.getFileName()).hasToString("target");
    try (SchedulerHarness s = new SchedulerHarness(SchedulerHarness.settings())) {
      s.status("http://a.example/", CrawlStatus.DISCOVERED, SchedulerHarness.T0);
    }
    try (Stream<Path> entries = Files.list(tmp)) {
      assertThat(entries.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("tmp_"));
    }
  }
}
