package io.recrawl.flink.testutil;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Reads the finished part files of a JSON-lines file sink (in-progress files start with a dot). */
public final class JsonLines {

  private JsonLines() {}

  public static List<String> readAll(Path dir) {
    if (!Files.exists(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().startsWith("."))
          .sorted()
          .flatMap(p -> {
            try {
              return Files.readAllLines(p).stream();
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          })
          .filter(l -> !l.isBlank())
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
