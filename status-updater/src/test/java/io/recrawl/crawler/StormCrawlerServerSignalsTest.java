package io.recrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.persistence.Status;
import com.digitalpebble.stormcrawler.protocol.Protocol;
import com.digitalpebble.stormcrawler.protocol.ProtocolResponse;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.recrawl.wire.HostKeys;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What StormCrawler 2.4's own protocols make of a server that says "slow down", and that it reaches
 * the wire: a local server answers 429 with {@code Retry-After: 5}, and its robots.txt has {@code
 * Crawl-delay: 2}.
 */
class StormCrawlerServerSignalsTest {

  private static final long NOW = 1_795_334_400_000L;
  private static HttpServer server;
  private static String base;

  @BeforeAll
  static void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/robots.txt", x -> answer(x, 200, "User-agent: *\nCrawl-delay: 2\nDisallow:\n"));
    server.createContext(
        "/page",
        x -> {
          x.getResponseHeaders().add("Retry-After", "5");
          answer(x, 429, "slow down");
        });
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private static void answer(HttpExchange x, int code, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().add("Content-Type", "text/plain");
    x.sendResponseHeaders(code, b.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(b);
    }
  }

  @AfterAll
  static void stop() {
    server.stop(0);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "com.digitalpebble.stormcrawler.protocol.okhttp.HttpProtocol",
        "com.digitalpebble.stormcrawler.protocol.httpclient.HttpProtocol"
      })
  void aTooManyRequestsFromARealServerReachesTheWire(String protocolClass) throws Exception {
    Config conf = new Config();
    conf.put("http.agent.name", "recrawl-test");
    Protocol protocol =
        (Protocol) Class.forName(protocolClass).getDeclaredConstructor().newInstance();
    protocol.configure(conf);
    String url = base + "/page";
    try {
      ProtocolResponse response = protocol.getProtocolOutput(url, new Metadata());
      assertThat(response.getStatusCode()).isEqualTo(429);
      // The protocol stores response headers lower-cased, whatever the server's spelling (the JDK
      // server sends "Retry-after").
      assertThat(response.getMetadata().getFirstValue("retry-after")).isEqualTo("5");
      assertThat(response.getMetadata().keySet()).doesNotContain("Retry-After", "Retry-after");

      // What StormCrawler 2.4's FetcherBolt then does (FetcherThread.run): the protocol's metadata
      // under protocol.md.prefix ("protocol." in crawler-default.yaml), the code in
      // fetch.statusCode, and the status from the code.
      Metadata merged = new Metadata();
      merged.putAll(response.getMetadata(), "protocol.");
      merged.setValue("fetch.statusCode", Integer.toString(response.getStatusCode()));
      Status status = Status.fromHTTPCode(response.getStatusCode());
      assertThat(status).isEqualTo(Status.FETCH_ERROR);

      // The FetcherBolt asks for the robots rules before every fetch; the protocol caches them.
      assertThat(protocol.getRobotRules(url).getCrawlDelay()).isEqualTo(2000L);

      Map<String, Object> settings = new HashMap<>();
      settings.put(CrawlerSettings.BOOTSTRAP_SERVERS, "broker:9092");
      StatusEvent event =
          new StatusEvents(CrawlerSettings.fromConf(settings), List.of(), RobotsCrawlDelay::seconds)
              .toEvent(
                  url,
                  status.name(),
                  merged.asMap(),
                  HostKeys.of(HostKeys.Mode.BY_HOST).keyOf(url),
                  NOW);
      Parsed<StatusEvent> onTheWire =
          StatusEventCodec.withDefaults().parse(StatusEventCodec.toJson(event), NOW);
      assertThat(onTheWire.ok()).isTrue();
      StatusEvent e = onTheWire.value();
      assertThat(e.httpStatus()).isEqualTo(429);
      assertThat(e.first("protocol.retry-after")).isEqualTo("5");
      assertThat(e.first("robots.crawl.delay")).isEqualTo("2");
    } finally {
      protocol.cleanup();
    }
  }
}
