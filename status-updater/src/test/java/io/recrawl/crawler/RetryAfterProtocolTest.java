package io.recrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.protocol.ProtocolResponse;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.storm.Config;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * StormCrawler's own HTTP protocol, wrapped: a request that was queued before its host answered 429
 * with a Retry-After never reaches the host inside the block.
 */
class RetryAfterProtocolTest {

  private HttpServer server;
  private final List<String> received = new CopyOnWriteArrayList<>();
  private volatile String retryAfter = "2";

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        ex -> {
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

  private static RetryAfterProtocol protocol() {
    Config conf = new Config();
    conf.put("http.agent.name", "recrawl-test");
    RetryAfterProtocol p = new RetryAfterProtocol();
    p.configure(conf);
    return p;
  }

  @Test
  void aRequestQueuedBeforeThePushBackIsAnsweredHereUntilTheBlockEnds() throws Exception {
    RetryAfterProtocol p = protocol();
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
    Thread.sleep(2_100);
    assertThat(p.getProtocolOutput(url("127.0.0.1", "/page"), new Metadata()).getStatusCode())
        .isEqualTo(200);
    assertThat(received).containsExactly("/busy", "/page", "/page");
  }

  @Test
  void aRetryAfterDateInThePastOrGarbageBlocksNoLongerThanItSays() throws Exception {
    RetryAfterProtocol p = protocol();
    retryAfter = "Thu, 01 Jan 1970 00:00:00 GMT";
    p.getProtocolOutput(url("127.0.0.1", "/busy"), new Metadata());
    assertThat(p.getProtocolOutput(url("127.0.0.1", "/page"), new Metadata()).getStatusCode())
        .isEqualTo(200);
  }

  @Test
  void itRefusesToWrapItself() {
    Config conf = new Config();
    conf.put(RetryAfterProtocol.DELEGATE, RetryAfterProtocol.class.getName());
    assertThatThrownBy(() -> new RetryAfterProtocol().configure(conf))
        .hasMessageStartingWith(RetryAfterProtocol.DELEGATE);
  }
}
