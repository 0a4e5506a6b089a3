package io.recrawl.flink.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSinkPartsTest {

  @TempDir Path dir;

  @Test
  void finishedPartsAreReadInNameOrderAndInProgressOnesAreLeftOut() throws Exception {
    Files.createDirectories(dir.resolve("2026-11-21--20"));
    Files.writeString(dir.resolve("2026-11-21--20/part-b-1"), "b1\n");
    Files.writeString(dir.resolve("2026-11-21--20/part-a-0"), "a0\na1\n");
    Files.writeString(dir.resolve("2026-11-21--20/.part-a-1.inprogress.x"), "not yet\n");
    assertThat(FileSinkParts.lines(dir)).containsExactly("a0", "a1", "b1");
    assertThat(FileSinkParts.finished(dir.resolve("missing"))).isEmpty();
  }
}
