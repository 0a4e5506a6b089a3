package io.recrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.protocol.ProtocolResponse;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.storm.Config;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * StormCrawler's own HTTP protocol, wrapped: a request that was queued before its host answered 429
 * with a Retry-After never reaches the host inside the block, and a host's delay holds between two
 * fetches however its fetch queue came and went. Each test asks hosts of its own: the limits are
 * held per worker JVM.
 */
class PoliteProtocolTest {

  private HttpServer server;
  private final List<String> received = new CopyOnWriteArrayList<>();
  private final List<Long> arrivals = new CopyOnWriteArrayList<>();
  private volatile String retryAfter = "2";

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(0), 0);
    server.createContext(
        "/",
        ex -> {
          if (ex.getRequestURI().getPath().equals("/robots.txt")) {
            ex.sendResponseHeaders(404, -1); // no rules: the fetcher's own delay applies
            ex.close();
            return;
          }
          arrivals.add(System.nanoTime());
          received.add(ex.getRequestURI().getPath());
          if (ex.getRequestURI().getPath().startsWith("/busy")) {
            ex.getResponseHeaders().set("Retry-After", retryAfter);
            ex.sendResponseHeaders(429, -1);
          } else {
            byte[] body = "<html>ok</html>".getBytes();
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
          }
          ex.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private String url(String host, String path) {
    return "http://" + host + ":" + server.getAddress().getPort() + path;
  }

  private static PoliteProtocol protocol() {
    return protocol(new Config());
  }

  private static PoliteProtocol protocol(Config conf) {
    conf.put("http.agent.name", "recrawl-test");
    PoliteProtocol p = new PoliteProtocol();
    p.configure(conf);
    return p;
  }

  @Test
  void aRequestQueuedBeforeThePushBackIsAnsweredHereUntilTheBlockEnds() throws Exception {
    PoliteProtocol p = protocol();
    // 127.0.0.1 and localhost are two hosts to a crawler: the block covers only the one that asked.
    ProtocolResponse refused = p.getProtocolOutput(url("127.0.0.1", "/busy"), new Metadata());
    assertThat(refused.getStatusCode()).isEqualTo(429);

    ProtocolResponse queued = p.getProtocolOutput(url("127.0.0.1", "/page"), new Metadata());
    assertThat(queued.getStatusCode()).isEqualTo(429);
    assertThat(Integer.parseInt(queued.getMetadata().getFirstValue("retry-after"))).isBetween(1, 2);
    assertThat(queued.getMetadata().getFirstValue("recrawl.retry-after.local")).isEqualTo("true");
    assertThat(received).containsExactly("/busy");

    assertThat(p.getProtocolOutput(url("localhost", "/page"), new Metadata()).getStatusCode())
        .isEqualTo(200);
    // Another port of the same host may be another server: the job keys it apart, and so does this.
    HttpServer other = HttpServer.create(new InetSocketAddress(0), 0);
    other.createContext(
        "/",
        ex -> {
          ex.sendResponseHeaders(
              ex.getRequestURI().getPath().equals("/robots.txt") ? 404 : 200, -1);
          ex.close();
        });
    other.start();
    try {
      String otherPort = "http://127.0.0.1:" + other.getAddress().getPort() + "/page";
      assertThat(p.getProtocolOutput(otherPort, new Metadata()).getStatusCode()).isEqualTo(200);
    } finally {
      other.stop(0);
    }
    Thread.sleep(2_100);
    assertThat(p.getProtocolOutput(url("127.0.0.1", "/page"), new Metadata()).getStatusCode())
        .isEqualTo(200);
    assertThat(received).containsExactly("/busy", "/page", "/page");
  }

  @Test
  void aRetryAfterDateInThePastOrGarbageBlocksNoLongerThanItSays() throws Exception {
    PoliteProtocol p = protocol();
    retryAfter = "Thu, 01 Jan 1970 00:00:00 GMT";
    p.getProtocolOutput(url("127.0.0.2", "/busy"), new Metadata());
    assertThat(p.getProtocolOutput(url("127.0.0.2", "/page"), new Metadata()).getStatusCode())
        .isEqualTo(200);
  }

  @Test
  void aHostsDelayHoldsBetweenTwoFetchesAsTheFetcherWouldAskThemOneAfterTheOther()
      throws Exception {
    Config conf = new Config();
    conf.put("fetcher.server.delay", 0.7);
    PoliteProtocol p = protocol(conf);
    // The fetcher asks for the next page as soon as the last one is fetched: its queue for the host
    // was empty in between, and StormCrawler's own delay went with it.
    for (int i = 0; i < 4; i++) {
      assertThat(p.getProtocolOutput(url("127.0.0.3", "/p" + i), new Metadata()).getStatusCode())
          .isEqualTo(200);
    }
    for (int i = 1; i < arrivals.size(); i++) {
      assertThat((arrivals.get(i) - arrivals.get(i - 1)) / 1_000_000).isGreaterThanOrEqualTo(700);
    }
    assertThat(arrivals).hasSize(4);
  }

  @Test
  void twoFetchThreadsAskingOneHostAtOnceAreSpacedToo() throws Exception {
    Config conf = new Config();
    conf.put("fetcher.server.delay", 0.5);
    PoliteProtocol p = protocol(conf);
    Thread[] threads = new Thread[3];
    for (int t = 0; t < threads.length; t++) {
      String path = "/t" + t;
      threads[t] =
          new Thread(
              () -> {
                try {
                  p.getProtocolOutput(url("127.0.0.4", path), new Metadata());
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(arrivals).hasSize(3);
    List<Long> sorted = arrivals.stream().sorted().toList();
    for (int i = 1; i < sorted.size(); i++) {
      assertThat((sorted.get(i) - sorted.get(i - 1)) / 1_000_000).isGreaterThanOrEqualTo(500);
    }
  }

  @Test
  void itRefusesToWrapItself() {
    Config conf = new Config();
    conf.put(PoliteProtocol.DELEGATE, PoliteProtocol.class.getName());
    assertThatThrownBy(() -> new PoliteProtocol().configure(conf))
        .hasMessageStartingWith(PoliteProtocol.DELEGATE);
  }
}
