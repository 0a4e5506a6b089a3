package io.recrawl.live;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * One system's copy of the live web: a JDK HTTP server on 127.0.0.1 that serves every host of the
 * web by its Host header and logs every request it receives ({@link RequestLog}). A page answers
 * with its version at the moment the request arrives.
 */
public final class LiveServer implements AutoCloseable {

  private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME;

  private final LiveWeb web;
  private final long t0;
  private final HttpServer server;
  private final ExecutorService threads;
  private final RequestLog log;

  private LiveServer(
      LiveWeb web, long t0, HttpServer server, ExecutorService threads, RequestLog log) {
    this.web = web;
    this.t0 = t0;
    this.server = server;
    this.threads = threads;
    this.log = log;
  }

  static LiveServer start(LiveWeb web, String system, Path requestLog, long t0EpochMillis)
      throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
    // Enough threads that a slow host never holds the others back.
    ExecutorService threads = Executors.newFixedThreadPool(64, LiveServer::daemon);
    RequestLog log = RequestLog.open(requestLog);
    LiveServer s = new LiveServer(web, t0EpochMillis, server, threads, log);
    server.createContext("/", s::handle);
    server.setExecutor(threads);
    server.start();
    return s;
  }

  private static Thread daemon(Runnable r) {
    Thread t = new Thread(r, "live-web");
    t.setDaemon(true);
    return t;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** Requests received so far. */
  public long requests() {
    return log.lines();
  }

  private void handle(HttpExchange ex) throws IOException {
    long now = System.currentTimeMillis();
    long t = now - t0;
    String hostHeader = ex.getRequestHeaders().getFirst("Host");
    String hostName = hostHeader == null ? "" : stripPort(hostHeader);
    String path = ex.getRequestURI().getRawPath();
    try (ex) {
      int h = web.hostIndex(hostName);
      if (h < 0) {
        answer(ex, t, hostName, path, 404, -1, text("no such host"), null);
        return;
      }
      LiveHost host = web.host(h);
      if (path.equals("/robots.txt")) {
        String robots = "User-agent: *\nAllow: /\n";
        if (host.crawlDelaySeconds() > 0) {
          robots += "Crawl-delay: " + host.crawlDelaySeconds() + "\n";
        }
        ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        answer(ex, t, hostName, path, 200, -1, robots.getBytes(StandardCharsets.UTF_8), null);
        return;
      }
      int page = pageOf(h, path);
      if (page < 0) {
        answer(ex, t, hostName, path, 404, -1, text("no such page"), null);
        return;
      }
      LiveHost.Spell spell = host.spellAt(t);
      if (spell != null) {
        long retryAfter = Math.max(1, (spell.endMillis() - t + 999) / 1_000);
        ex.getResponseHeaders().set("Retry-After", Long.toString(retryAfter));
        answer(ex, t, hostName, path, spell.status(), -1, text("later"), retryAfter);
        return;
      }
      int version = web.version(page, t);
      int wait = host.slowMillis() + web.options().latencyAt(t);
      if (wait > 0) {
        sleep(wait);
      }
      if (host.validators()) {
        Headers out = ex.getResponseHeaders();
        out.set("ETag", etag(page, version));
        out.set("Last-Modified", httpDate(lastModifiedSecond(page, version)));
        if (notModified(ex.getRequestHeaders(), page, version)) {
          answer(ex, t, hostName, path, 304, version, null, null);
          return;
        }
      }
      ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
      answer(ex, t, hostName, path, 200, version, body(page, version), null);
    }
  }

  private void answer(
      HttpExchange ex,
      long t,
      String host,
      String path,
      int status,
      int version,
      byte[] body,
      Long retryAfter)
      throws IOException {
    log.write(t, host, path, status, version, retryAfter);
    boolean head = "HEAD".equals(ex.getRequestMethod());
    if (body == null || head) {
      ex.sendResponseHeaders(status, -1);
      return;
    }
    ex.sendResponseHeaders(status, body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
  }

  private int pageOf(int h, String path) {
    if (!path.startsWith("/p") || path.length() > 12) {
      return -1;
    }
    try {
      return web.page(h, Integer.parseInt(path.substring(2)));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private String etag(int page, int version) {
    return "\"" + page + "-" + version + "\"";
  }

  /** Last-Modified has whole seconds: the second in which the version was made. */
  private long lastModifiedSecond(int page, int version) {
    return Math.floorDiv(t0 + web.versionSince(page, version), 1_000);
  }

  /**
   * 304 only when the client's copy is surely the current version. An ETag says so exactly. A date
   * does only when the current version is the only one made in its second: Last-Modified cannot
   * tell two versions of one second apart.
   */
  private boolean notModified(Headers in, int page, int version) {
    String ifNoneMatch = in.getFirst("If-None-Match");
    if (ifNoneMatch != null) {
      return ifNoneMatch.contains(etag(page, version));
    }
    String ims = in.getFirst("If-Modified-Since");
    if (ims == null) {
      return false;
    }
    long since;
    try {
      since = ZonedDateTime.parse(ims.trim(), HTTP_DATE).toEpochSecond();
    } catch (DateTimeParseException e) {
      return false;
    }
    long current = lastModifiedSecond(page, version);
    boolean aloneInItsSecond = version == 0 || lastModifiedSecond(page, version - 1) < current;
    return since >= current && aloneInItsSecond;
  }

  private static String httpDate(long epochSecond) {
    return HTTP_DATE.format(Instant.ofEpochSecond(epochSecond).atZone(ZoneOffset.UTC));
  }

  private byte[] body(int page, int version) {
    StringBuilder b = new StringBuilder(512);
    String host = web.host(web.workload().hostOf(page)).name();
    b.append("<!DOCTYPE html><html><head><title>")
        .append(host)
        .append(web.path(page))
        .append(" version ")
        .append(version)
        .append("</title></head><body><p>This is ")
        .append(web.path(page))
        .append(" of ")
        .append(host)
        .append(", version ")
        .append(version)
        .append(".</p><ul>");
    int port = port();
    for (int link : web.outlinks(page)) {
      b.append("<li><a href=\"").append(web.url(link, port)).append("\">a page</a></li>");
    }
    return b.append("</ul></body></html>\n").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] text(String s) {
    return (s + "\n").getBytes(StandardCharsets.UTF_8);
  }

  private static String stripPort(String host) {
    int colon = host.lastIndexOf(':');
    return (colon > 0 ? host.substring(0, colon) : host).toLowerCase(java.util.Locale.ROOT);
  }

  private static void sleep(int millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops serving and closes the log, with every request received in it. */
  @Override
  public void close() throws IOException {
    server.stop(0);
    threads.shutdown();
    try {
      threads.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    log.close();
  }
}
