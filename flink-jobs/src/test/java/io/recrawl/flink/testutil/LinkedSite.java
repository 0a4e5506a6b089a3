package io.recrawl.flink.testutil;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A local web site of three linked pages for crawls: the home page links to /a.html and /b.html,
 * and both link back.
 */
public final class LinkedSite implements AutoCloseable {

  private final HttpServer server;

  public LinkedSite() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", LinkedSite::serve);
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

  private static void serve(HttpExchange x) throws IOException {
    String body =
        switch (x.getRequestURI().getPath()) {
          case "/robots.txt" -> "User-agent: *\nAllow: /\n";
          case "/" ->
              "<html><head><title>Home</title></head><body><a href=\"/a.html\">a</a> <a href=\"/b.html\">b</a></body></html>";
          case "/a.html" ->
              "<html><head><title>A</title></head><body><a href=\"/\">home</a></body></html>";
          case "/b.html" ->
              "<html><head><title>B</title></head><body><a href=\"/\">home</a></body></html>";
          default -> null;
        };
    byte[] bytes = (body == null ? "not found" : body).getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders()
        .set(
            "Content-Type",
            x.getRequestURI().getPath().endsWith(".txt")
                ? "text/plain"
                : "text/html; charset=utf-8");
    x.sendResponseHeaders(body == null ? 404 : 200, bytes.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(bytes);
    }
  }
}
