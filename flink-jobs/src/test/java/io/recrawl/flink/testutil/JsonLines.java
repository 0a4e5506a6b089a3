package io.recrawl.flink.testutil;

import io.recrawl.flink.io.FileSinkParts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/** Reads the finished part files of a JSON-lines file sink (in-progress files start with a dot). */
public final class JsonLines {

  private JsonLines() {}

  public static List<String> readAll(Path dir) {
    try {
      return FileSinkParts.lines(dir).stream().filter(l -> !l.isBlank()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
