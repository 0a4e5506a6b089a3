package io.recrawl.architecture;

import io.recrawl.flink.testutil.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The checkout's modules with main sources of recrawl's own, found rather than listed. */
final class Modules {

  private Modules() {}

  static List<Path> withMainSources() throws IOException {
    try (Stream<Path> dirs = Files.list(RepoFiles.root())) {
      return dirs.filter(d -> Files.isDirectory(d.resolve("src/main/java/io/recrawl")))
          .sorted()
          .toList();
    }
  }
}
