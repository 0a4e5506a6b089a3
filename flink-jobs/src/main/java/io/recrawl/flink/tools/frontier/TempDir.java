package io.recrawl.flink.tools.frontier;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The state tools' temporary directories: made under a chosen parent, deleted whole. */
public final class TempDir {

  private TempDir() {}

  /** A new directory under {@code parent} (made if missing), or the system's when null. */
  public static Path create(Path parent, String prefix) throws IOException {
    return parent == null
        ? Files.createTempDirectory(prefix)
        : Files.createTempDirectory(Files.createDirectories(parent), prefix);
  }

  /** Deletes {@code dir} and everything under it. */
  public static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(TempDir::deleteOne);
    }
  }

  private static void deleteOne(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
