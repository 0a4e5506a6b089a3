package io.recrawl.flink.tools.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TempDirTest {

  /**
   * Flink's shuffle environment deletes its own directory under the import's spill while the import
   * deletes the spill: a directory gone in the middle of the walk is already deleted.
   */
  @Test
  void aDirectoryThatVanishesDuringTheDeletionIsNotAnError(@TempDir Path tmp) throws Exception {
    for (int round = 0; round < 20; round++) {
      Path dir = io.recrawl.flink.tools.frontier.TempDir.create(tmp, "spill-");
      for (int i = 0; i < 200; i++) {
        Path sub = Files.createDirectories(dir.resolve("shuffle-" + i).resolve("a").resolve("b"));
        Files.writeString(sub.resolve("f"), "x");
      }
      CountDownLatch go = new CountDownLatch(1);
      Thread other =
          new Thread(
              () -> {
                try {
                  go.await();
                  for (int i = 199; i >= 0; i--) {
                    io.recrawl.flink.tools.frontier.TempDir.delete(dir.resolve("shuffle-" + i));
                  }
                } catch (Exception ignored) {
                  // the deletion under test may get there first
                }
              });
      other.start();
      go.countDown();
      io.recrawl.flink.tools.frontier.TempDir.delete(dir);
      other.join();
      assertThat(dir).doesNotExist();
    }
  }
}
