package io.recrawl.flink.tools.frontier;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The reject file: one line per bad row (line, reason, detail, raw input; tab-separated, with a
 * header), and the count of bad rows by reason.
 */
final class Rejects implements AutoCloseable {

  private final BufferedWriter out;
  private final Map<String, Long> byReason = new TreeMap<>();
  private long count;

  Rejects(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    out.write("line\treason\tdetail\traw\n");
  }

  void add(BadRow bad) throws IOException {
    out.write(bad.toTsv());
    out.write('\n');
    byReason.merge(bad.reason(), 1L, Long::sum);
    count++;
  }

  long count() {
    return count;
  }

  Map<String, Long> byReason() {
    return byReason;
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
