package io.recrawl.flink.testutil;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local site on two hosts (two ports of 127.0.0.1, so two host keys under byHost) that keeps an
 * access log: what a crawler actually fetched, and when.
 *
 * <p>The busy host ({@link #busyBase()}) answers its first page requests (robots.txt aside) with
 * {@code 429 Too Many Requests} and a {@code Retry-After} of a few seconds, then serves its home
 * page. The other host ({@link #otherBase()}) always answers: its home page links to four pages,
 * which link back, so a crawler has work there while the busy host is blocked.
 */
public final class PushBackSite implements AutoCloseable {

  /** One request the site received: its host key, path, the code it answered, and when. */
  public record Hit(String host, String path, int code, long timeMs) {
    public boolean isPage() {
      return !path.equals("/robots.txt");
    }
  }

  /** The other host's pages besides its home page. */
  public static final List<String> OTHER_PAGES =
      List.of("/a1.html", "/a2.html", "/a3.html", "/a4.html");

  private final HttpServer busy;
  private final HttpServer other;
  private final int retryAfterSeconds;
  private final AtomicInteger pushBacksLeft;
  private final List<Hit> log = new CopyOnWriteArrayList<>();

  /**
   * @param retryAfterSeconds the busy host's Retry-After, delta-seconds
   * @param pushBacks how many of the busy host's first page requests answer 429
   */
  public PushBackSite(int retryAfterSeconds, int pushBacks) throws IOException {
    this.retryAfterSeconds = retryAfterSeconds;
    this.pushBacksLeft = new AtomicInteger(pushBacks);
    busy = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    busy.createContext("/", this::serveBusy);
    other = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    other.createContext("/", this::serveOther);
    busy.start();
    other.start();
  }

  /** {@code http://127.0.0.1:PORT} of the host that pushes back, without a trailing slash. */
  public String busyBase() {
    return "http://127.0.0.1:" + busy.getAddress().getPort();
  }

  /** {@code http://127.0.0.1:PORT} of the host that always answers, without a trailing slash. */
  public String otherBase() {
    return "http://127.0.0.1:" + other.getAddress().getPort();
  }

  /** The busy host's key under byHost: {@code 127.0.0.1:PORT}. */
  public String busyHost() {
    return "127.0.0.1:" + busy.getAddress().getPort();
  }

  /** The other host's key under byHost: {@code 127.0.0.1:PORT}. */
  public String otherHost() {
    return "127.0.0.1:" + other.getAddress().getPort();
  }

  /** Every request received so far, in the order they arrived. */
  public List<Hit> accessLog() {
    return List.copyOf(log);
  }

  @Override
  public void close() {
    busy.stop(0);
    other.stop(0);
  }

  private void serveBusy(HttpExchange x) throws IOException {
    String path = x.getRequestURI().getPath();
    long now = System.currentTimeMillis();
    if (path.equals("/robots.txt")) {
      answer(x, busyHost(), now, 200, "text/plain", "User-agent: *\nAllow: /\n");
    } else if (pushBacksLeft.getAndDecrement() > 0) {
      x.getResponseHeaders().set("Retry-After", Integer.toString(retryAfterSeconds));
      answer(x, busyHost(), now, 429, "text/plain", "Too Many Requests");
    } else if (path.equals("/")) {
      answer(x, busyHost(), now, 200, HTML, page("Busy", List.of()));
    } else {
      answer(x, busyHost(), now, 404, "text/plain", "not found");
    }
  }

  private void serveOther(HttpExchange x) throws IOException {
    String path = x.getRequestURI().getPath();
    long now = System.currentTimeMillis();
    if (path.equals("/robots.txt")) {
      answer(x, otherHost(), now, 200, "text/plain", "User-agent: *\nAllow: /\n");
    } else if (path.equals("/")) {
      answer(x, otherHost(), now, 200, HTML, page("Home", OTHER_PAGES));
    } else if (OTHER_PAGES.contains(path)) {
      answer(x, otherHost(), now, 200, HTML, page(path, List.of("/")));
    } else {
      answer(x, otherHost(), now, 404, "text/plain", "not found");
    }
  }

  private static final String HTML = "text/html; charset=utf-8";

  private static String page(String title, List<String> links) {
    StringBuilder b = new StringBuilder("<html><head><title>" + title + "</title></head><body>");
    for (String l : links) {
      b.append("<a href=\"").append(l).append("\">").append(l).append("</a> ");
    }
    return b.append("</body></html>").toString();
  }

  private void answer(HttpExchange x, String host, long now, int code, String type, String body)
      throws IOException {
    log.add(new Hit(host, x.getRequestURI().getPath(), code, now));
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("Content-Type", type);
    x.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(bytes);
    }
  }
}
