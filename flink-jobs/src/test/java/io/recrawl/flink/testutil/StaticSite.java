package io.recrawl.flink.testutil;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * A directory served over HTTP as {@code python3 -m http.server} serves it: each file with its
 * modification time as Last-Modified, and 304 to an If-Modified-Since no older than that.
 */
public final class StaticSite implements AutoCloseable {

  private final HttpServer server;
  private final Path root;

  public StaticSite(Path root) throws IOException {
    this.root = root;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::serve);
    server.start();
  }

  /** {@code http://127.0.0.1:PORT}, without a trailing slash. */
  public String base() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void serve(HttpExchange x) throws IOException {
    try (x) {
      Path file = root.resolve(x.getRequestURI().getPath().substring(1)).normalize();
      if (!file.startsWith(root) || !Files.isRegularFile(file)) {
        x.sendResponseHeaders(404, -1);
        return;
      }
      // HTTP dates have whole seconds.
      Instant modified =
          Files.getLastModifiedTime(file)
              .toInstant()
              .truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
      x.getResponseHeaders()
          .set(
              "Last-Modified",
              DateTimeFormatter.RFC_1123_DATE_TIME.format(modified.atZone(ZoneOffset.UTC)));
      String since = x.getRequestHeaders().getFirst("If-Modified-Since");
      if (since != null && !modified.isAfter(parse(since))) {
        x.sendResponseHeaders(304, -1);
        return;
      }
      byte[] body = Files.readAllBytes(file);
      x.getResponseHeaders()
          .set("Content-Type", file.toString().endsWith(".html") ? "text/html" : "text/plain");
      x.sendResponseHeaders(200, body.length);
      try (OutputStream out = x.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private static Instant parse(String httpDate) {
    try {
      return ZonedDateTime.parse(httpDate, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      return Instant.MIN;
    }
  }
}
