package io.recrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import com.digitalpebble.stormcrawler.util.ConfUtils;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.recrawl.estimate.ChangeEvidence;
import io.recrawl.testutil.EmbeddedKafka;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.DeadLetterCodec;
import io.recrawl.wire.HostKeys;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * End to end with real parts: a KRaft Kafka broker, a local web site, and {@link
 * RecrawlCrawlTopology} with StormCrawler's own fetcher and parser in a Storm LocalCluster,
 * configured from {@code config/crawler-conf-recrawl.yaml}. Crawl requests go in through Kafka;
 * status events and dead letters are read back from Kafka.
 */
class RecrawlCrawlTopologyITCase {

  private static final String REQUESTS = "crawl.requests";
  private static final String STATUS = "crawl.status";
  private static final String DEAD_LETTERS = "crawl.deadletters";

  /** Generous: the build machine is shared. A test that passes does not wait for it. */
  private static final Duration DEADLINE = Duration.ofSeconds(150);

  private static final String A_LAST_MODIFIED = "Sat, 01 Nov 2025 10:00:00 GMT";

  private static EmbeddedKafka kafka;
  private static HttpServer site;
  private static String base;
  private static String hostKey;
  private static final AtomicInteger notModifiedAnswers = new AtomicInteger();
  private static final AtomicInteger bareNotModifiedAnswers = new AtomicInteger();

  /** Conditional recrawls in a row of the page whose 304 does not repeat Last-Modified. */
  private static final int CONDITIONAL_RECRAWLS = 3;

  @BeforeAll
  static void start() throws Exception {
    kafka = EmbeddedKafka.start();
    kafka.createTopic(REQUESTS, 2);
    kafka.createTopic(STATUS, 2);
    kafka.createTopic(DEAD_LETTERS, 1);
    site = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    int port = site.getAddress().getPort();
    base = "http://127.0.0.1:" + port;
    hostKey = "127.0.0.1:" + port;
    site.createContext("/", RecrawlCrawlTopologyITCase::serve);
    site.start();
  }

  @AfterAll
  static void stop() throws Exception {
    if (site != null) {
      site.stop(0);
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  /** Three linked pages; /a.html never changes and answers conditional requests with 304. */
  private static void serve(HttpExchange x) throws IOException {
    int port = site.getAddress().getPort();
    String path = x.getRequestURI().getPath();
    String body;
    switch (path) {
      case "/robots.txt" -> {
        reply(x, 200, "text/plain", "User-agent: *\nAllow: /\n");
        return;
      }
      case "/" ->
          body =
              "<html><head><title>Home</title></head><body><a href=\"/a.html\">a</a> "
                  + "<a href=\"/b.html\">b</a> <a href=\"http://localhost:"
                  + port
                  + "/c.html\">c</a></body></html>";
      case "/a.html" -> {
        x.getResponseHeaders().set("ETag", "\"a-v1\"");
        x.getResponseHeaders().set("Last-Modified", A_LAST_MODIFIED);
        String since = x.getRequestHeaders().getFirst("If-Modified-Since");
        if (since != null && !since.isBlank() && !parse(since).isBefore(parse(A_LAST_MODIFIED))) {
          notModifiedAnswers.incrementAndGet();
          x.sendResponseHeaders(304, -1);
          x.close();
          return;
        }
        body =
            "<html><head><title>A</title></head><body><p>Never changes.</p><a href=\"/\">home</a></body></html>";
      }
      case "/d.html" -> {
        // As Python's http.server answers: a 304 repeats neither Last-Modified nor an ETag.
        String since = x.getRequestHeaders().getFirst("If-Modified-Since");
        if (since != null && !since.isBlank() && !parse(since).isBefore(parse(A_LAST_MODIFIED))) {
          bareNotModifiedAnswers.incrementAndGet();
          x.sendResponseHeaders(304, -1);
          x.close();
          return;
        }
        x.getResponseHeaders().set("Last-Modified", A_LAST_MODIFIED);
        body = "<html><head><title>D</title></head><body><p>Never changes.</p></body></html>";
      }
      case "/b.html" ->
          body = "<html><head><title>B</title></head><body><a href=\"/\">home</a></body></html>";
      default -> {
        reply(x, 404, "text/plain", "not found");
        return;
      }
    }
    reply(x, 200, "text/html; charset=utf-8", body);
  }

  private static ZonedDateTime parse(String httpDate) {
    return ZonedDateTime.parse(httpDate, DateTimeFormatter.RFC_1123_DATE_TIME);
  }

  private static void reply(HttpExchange x, int code, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("Content-Type", type);
    x.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static Map.Entry<String, String> request(String url, Map<String, List<String>> metadata) {
    long now = System.currentTimeMillis();
    String host = HostKeys.of(HostKeys.Mode.BY_HOST).keyOf(url);
    return Map.entry(
        host,
        CrawlRequestCodec.toJson(
            new CrawlRequest(url, host, metadata, now, now, 1.0, 0.5, now + 3_600_000)));
  }

  /**
   * The topology's config as a deployment builds it: crawler-default.yaml, then the example file.
   */
  private static Config topologyConf() throws Exception {
    Config conf = new Config();
    conf.putAll(
        ConfUtils.extractConfigElement(Utils.findAndReadConfigFile("crawler-default.yaml", false)));
    ConfUtils.loadConf("../config/crawler-conf-recrawl.yaml", conf);
    conf.put(CrawlerSettings.BOOTSTRAP_SERVERS, kafka.bootstrapServers());
    conf.put(CrawlerSettings.SPOUT_COMMIT_PERIOD_MS, 500);
    conf.put("http.agent.name", "recrawl-itcase");
    conf.put("fetcher.server.delay", 0.1d); // a Double: a Float is not JSON-serialisable for Storm
    conf.put(
        Config.TOPOLOGY_TESTING_ALWAYS_TRY_SERIALIZE,
        true); // Kryo on every tuple, as across workers
    // A loaded build machine must not time tuples out: a replay would duplicate events the test
    // counts.
    conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 120);
    return conf;
  }

  @Test
  void requestsFromKafkaAreCrawledAndEveryStatusReachesKafka() throws Exception {
    String home = base + "/";
    String a = base + "/a.html";
    String malformed = "{\"url\": \"" + base + "/x\", \"host\": ";
    long now = System.currentTimeMillis();
    Map.Entry<String, String> ftp =
        Map.entry(
            "127.0.0.1",
            CrawlRequestCodec.toJson(
                new CrawlRequest(
                    "ftp://127.0.0.1/file",
                    "127.0.0.1",
                    Map.of(),
                    now,
                    now,
                    1.0,
                    0.5,
                    now + 3_600_000)));
    kafka.sendKeyed(
        REQUESTS,
        List.of(request(home, Map.of()), request(a, Map.of()), Map.entry(hostKey, malformed), ftp));

    try (LocalCluster cluster = new LocalCluster();
        EmbeddedKafka.Reader status = kafka.reader(STATUS);
        EmbeddedKafka.Reader deadLetters = kafka.reader(DEAD_LETTERS)) {
      Config conf = topologyConf();
      cluster.submitTopology("recrawl-itcase", conf, RecrawlCrawlTopology.build(conf));

      // 1. The seeds are fetched; the home page's outlinks are discovered, on two hosts.
      List<StatusEvent> events =
          await(
              status,
              e ->
                  has(e, home, CrawlStatus.FETCHED)
                      && has(e, a, CrawlStatus.FETCHED)
                      && has(e, base + "/b.html", CrawlStatus.DISCOVERED)
                      && has(
                          e,
                          "http://localhost:" + site.getAddress().getPort() + "/c.html",
                          CrawlStatus.DISCOVERED),
              "FETCHED for both seeds, DISCOVERED for /b.html and localhost's /c.html");
      StatusEvent homeFetched = only(events, home, CrawlStatus.FETCHED);
      assertThat(homeFetched.host()).isEqualTo(hostKey);
      assertThat(homeFetched.httpStatus()).isEqualTo(200);
      assertThat(homeFetched.first("signature"))
          .as("MD5SignatureParseFilter's content signature")
          .hasSize(32);
      assertThat(
              only(
                      events,
                      "http://localhost:" + site.getAddress().getPort() + "/c.html",
                      CrawlStatus.DISCOVERED)
                  .host())
          .isEqualTo("localhost:" + site.getAddress().getPort());
      assertThat(only(events, base + "/b.html", CrawlStatus.DISCOVERED).metadata())
          .containsEntry("url.path", List.of(home))
          .containsEntry("depth", List.of("1"))
          .doesNotContainKey("signature");
      StatusEvent aFirst = only(events, a, CrawlStatus.FETCHED);
      assertThat(aFirst.first("protocol.etag")).isEqualTo("\"a-v1\"");
      assertThat(aFirst.first("protocol.last-modified")).isEqualTo(A_LAST_MODIFIED);
      assertThat(aFirst.first("last-modified"))
          .as("ISO, as StormCrawler's protocols read it")
          .isEqualTo("2025-11-01T10:00:00Z");

      // 2. The page that never changes, requested again: once plainly, once with the last-modified
      // its first event carried (as the job sends it back with recrawl.metadata.transfer:
      // [last-modified]).
      kafka.sendKeyed(
          REQUESTS,
          List.of(
              request(a, Map.of()),
              request(a, Map.of("last-modified", aFirst.metadata().get("last-modified")))));
      events =
          await(
              status,
              e ->
                  e.stream()
                          .filter(x -> x.url().equals(a) && x.status() == CrawlStatus.FETCHED)
                          .count()
                      >= 3,
              "three FETCHED for /a.html");
      List<StatusEvent> aFetched =
          events.stream()
              .filter(x -> x.url().equals(a) && x.status() == CrawlStatus.FETCHED)
              .toList();
      assertThat(aFetched).hasSize(3);
      assertThat(notModifiedAnswers.get()).isEqualTo(1);
      StatusEvent full =
          aFetched.stream().skip(1).filter(x -> x.httpStatus() == 200).findFirst().orElseThrow();
      StatusEvent notModified =
          aFetched.stream().filter(x -> x.httpStatus() == 304).findFirst().orElseThrow();
      // Both are evidence of "unchanged" under the job's rule, against what it kept from the first
      // fetch.
      assertThat(verdict(full, aFirst))
          .as("same content signature")
          .isEqualTo(ChangeEvidence.Verdict.UNCHANGED);
      assertThat(full.first("signature")).isEqualTo(aFirst.first("signature"));
      assertThat(verdict(notModified, aFirst))
          .as("HTTP 304")
          .isEqualTo(ChangeEvidence.Verdict.UNCHANGED);

      // 3. The two bad requests are dead letters, with their reason and the record as it was.
      List<DeadLetter> dead = awaitDeadLetters(deadLetters, 2);
      assertThat(dead)
          .extracting(DeadLetter::reason)
          .containsExactlyInAnyOrder("malformed_json", "bad_url");
      assertThat(dead)
          .extracting(DeadLetter::raw)
          .containsExactlyInAnyOrder(malformed, ftp.getValue());
      assertThat(dead).allSatisfy(d -> assertThat(d.detail()).startsWith(REQUESTS + "/"));

      // 4. Every request's tuple tree was acked, dead letters included: the spout commits all six
      // offsets.
      awaitCommitted(6);

      // 5. A page whose 304 repeats no Last-Modified, recrawled again and again, each time with
      // the last-modified of the status before (as the job sends it back): the first fetch is a
      // 200, and every recrawl after it is conditional and answered 304.
      String d = base + "/d.html";
      Map<String, List<String>> transferred = Map.of();
      for (int n = 0; n <= CONDITIONAL_RECRAWLS; n++) {
        kafka.sendKeyed(REQUESTS, List.of(request(d, transferred)));
        int fetches = n + 1;
        events =
            await(status, e -> fetched(e, d).size() >= fetches, fetches + " FETCHED for /d.html");
        StatusEvent last = fetched(events, d).get(n);
        assertThat(last.httpStatus()).as("fetch %d of /d.html", n).isEqualTo(n == 0 ? 200 : 304);
        assertThat(last.first("last-modified"))
            .as("the validator after fetch %d of /d.html", n)
            .isEqualTo("2025-11-01T10:00:00Z");
        transferred = Map.of("last-modified", last.metadata().get("last-modified"));
      }
      assertThat(bareNotModifiedAnswers.get()).isEqualTo(CONDITIONAL_RECRAWLS);
      awaitCommitted(6 + CONDITIONAL_RECRAWLS + 1);
    }
  }

  private static ChangeEvidence.Verdict verdict(StatusEvent now, StatusEvent previous) {
    return ChangeEvidence.assess(
        now.changed(),
        now.httpStatus(),
        now.first("signature"),
        previous.first("signature"),
        now.first("protocol.etag"),
        previous.first("protocol.etag"),
        ChangeEvidence.parseDate(now.first("protocol.last-modified")),
        previous.time());
  }

  private static List<StatusEvent> fetched(List<StatusEvent> events, String url) {
    return events.stream()
        .filter(e -> e.url().equals(url) && e.status() == CrawlStatus.FETCHED)
        .toList();
  }

  private static boolean has(List<StatusEvent> events, String url, CrawlStatus status) {
    return events.stream().anyMatch(e -> e.url().equals(url) && e.status() == status);
  }

  private static StatusEvent only(List<StatusEvent> events, String url, CrawlStatus status) {
    List<StatusEvent> found =
        events.stream().filter(e -> e.url().equals(url) && e.status() == status).toList();
    assertThat(found).as(url + " " + status).hasSize(1);
    return found.get(0);
  }

  /**
   * Reads the status topic until the condition holds or the deadline passes. Every record must
   * decode with StatusEventCodec and be keyed by its host key.
   */
  private static List<StatusEvent> await(
      EmbeddedKafka.Reader reader, Predicate<List<StatusEvent>> done, String what) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    List<StatusEvent> events = new ArrayList<>();
    while (true) {
      List<ConsumerRecord<String, String>> records = reader.poll(Duration.ofMillis(250));
      events = new ArrayList<>();
      for (ConsumerRecord<String, String> r : records) {
        Parsed<StatusEvent> p =
            StatusEventCodec.withDefaults().parse(r.value(), System.currentTimeMillis());
        assertThat(p.ok()).as("decodes: " + r.value()).isTrue();
        assertThat(r.key()).as("record key of " + r.value()).isEqualTo(p.value().host());
        events.add(p.value());
      }
      if (done.test(events)) {
        return events;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "not seen within "
                + DEADLINE
                + ": "
                + what
                + "; status events: "
                + events.stream().map(e -> e.status() + " " + e.url()).toList());
      }
    }
  }

  private static List<DeadLetter> awaitDeadLetters(EmbeddedKafka.Reader reader, int count) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    List<ConsumerRecord<String, String>> records = reader.poll(Duration.ofMillis(250));
    while (records.size() < count && System.nanoTime() < deadline) {
      records = reader.poll(Duration.ofMillis(250));
    }
    List<DeadLetter> out = new ArrayList<>();
    for (ConsumerRecord<String, String> r : records) {
      Parsed<DeadLetter> d = DeadLetterCodec.parse(r.value(), System.currentTimeMillis());
      assertThat(d.ok()).as(r.value()).isTrue();
      out.add(d.value());
    }
    assertThat(out).as("dead letters").hasSize(count);
    return out;
  }

  private static void awaitCommitted(long expected) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    long committed = 0;
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      while (System.nanoTime() < deadline) {
        Map<?, OffsetAndMetadata> offsets =
            admin.listConsumerGroupOffsets("recrawl-crawler").partitionsToOffsetAndMetadata().get();
        committed = offsets.values().stream().mapToLong(o -> o == null ? 0 : o.offset()).sum();
        if (committed >= expected) {
          break;
        }
        Thread.sleep(200);
      }
    }
    assertThat(committed).as("offsets committed by the request spout").isEqualTo(expected);
  }
}
