package io.recrawl.live;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The server's log of one system's requests, one CSV line each: {@code
 * t_ms,host,path,status,version,retry_after_s}. Host and path are what the client sent, cut to a
 * bounded length and with anything but printable ASCII and commas replaced, so every line parses.
 */
final class RequestLog implements AutoCloseable {

  static final String HEADER = "t_ms,host,path,status,version,retry_after_s";
  private static final int MAX_FIELD = 200;

  private final BufferedWriter out;
  private long lines;

  private RequestLog(BufferedWriter out) {
    this.out = out;
  }

  static RequestLog open(Path file) throws IOException {
    BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    out.write(HEADER);
    out.write('\n');
    return new RequestLog(out);
  }

  synchronized void write(
      long t, String host, String path, int status, int version, Long retryAfter)
      throws IOException {
    out.write(
        t
            + ","
            + clean(host)
            + ","
            + clean(path)
            + ","
            + status
            + ","
            + version
            + ","
            + (retryAfter == null ? "" : retryAfter.toString())
            + "\n");
    lines++;
  }

  synchronized long lines() {
    return lines;
  }

  static String clean(String s) {
    String cut = s.length() > MAX_FIELD ? s.substring(0, MAX_FIELD) : s;
    StringBuilder b = new StringBuilder(cut.length());
    for (int i = 0; i < cut.length(); i++) {
      char c = cut.charAt(i);
      b.append(c > 0x20 && c < 0x7f && c != ',' ? c : '?');
    }
    return b.toString();
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }
}
