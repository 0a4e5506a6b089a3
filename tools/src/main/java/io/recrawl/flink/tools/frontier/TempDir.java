package io.recrawl.flink.tools.frontier;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** The state tools' temporary directories: made under a chosen parent, deleted whole. */
public final class TempDir {

  private TempDir() {}

  /** A new directory under {@code parent} (made if missing), or the system's when null. */
  public static Path create(Path parent, String prefix) throws IOException {
    return parent == null
        ? Files.createTempDirectory(prefix)
        : Files.createTempDirectory(Files.createDirectories(parent), prefix);
  }

  /**
   * Deletes {@code dir} and everything under it. An entry that vanishes during the walk is already
   * deleted: Flink's shuffle environment removes its own directory under an import's spill while
   * its local cluster shuts down.
   */
  public static void delete(Path dir) throws IOException {
    Files.walkFileTree(
        dir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.deleteIfExists(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
            if (e != null && !(e instanceof NoSuchFileException)) {
              throw e;
            }
            Files.deleteIfExists(d);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}
