package io.recrawl.flink.testutil;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds files of the checkout (config/, README.md) from a module's working directory. */
public final class RepoFiles {

  private RepoFiles() {}

  /** The checkout root: the nearest directory upwards that holds config/recrawl.yaml. */
  public static Path root() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null) {
      if (Files.exists(p.resolve("config/recrawl.yaml"))) {
        return p;
      }
      p = p.getParent();
    }
    throw new IllegalStateException("no config/recrawl.yaml above " + Path.of("").toAbsolutePath());
  }

  public static Path file(String relative) {
    return root().resolve(relative);
  }
}
