package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.Active;
import crawlercommons.urlfrontier.Urlfrontier.AnyCrawlID;
import crawlercommons.urlfrontier.Urlfrontier.BlockQueueParams;
import crawlercommons.urlfrontier.Urlfrontier.CountUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.CrawlLimitParams;
import crawlercommons.urlfrontier.Urlfrontier.DeleteCrawlMessage;
import crawlercommons.urlfrontier.Urlfrontier.Empty;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.ListUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.Local;
import crawlercommons.urlfrontier.Urlfrontier.LogLevelParams;
import crawlercommons.urlfrontier.Urlfrontier.Pagination;
import crawlercommons.urlfrontier.Urlfrontier.QueueDelayParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueList;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.Stats;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.ControlMessageCodec;
import io.recrawl.wire.Parsed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded frontier (a real broker, the job on a MiniCluster with RocksDB, the service) driven
 * through a real gRPC channel: every RPC of URL Frontier 2.5 against the proto's contract. Each
 * test uses hosts of its own, so the tests do not see each other's URLs.
 */
@Timeout(120)
class FrontierServiceITCase {

  @TempDir static Path dir;
  static EmbeddedFrontier frontier;
  static FrontierClient client;

  @BeforeAll
  static void start() throws Exception {
    frontier = EmbeddedFrontier.start(dir, 0, Map.of(), 2000);
    client = new FrontierClient(frontier.port());
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (frontier != null) {
      frontier.close();
    }
  }

  /** GetURLs for one queue, until {@code n} URLs came or the time is up. */
  static List<URLInfo> awaitUrls(GetParams params, int n, Duration max) {
    List<URLInfo> got = new ArrayList<>();
    long deadline = System.nanoTime() + max.toNanos();
    while (got.size() < n && System.nanoTime() < deadline) {
      got.addAll(client.get(params));
    }
    return got;
  }

  static GetParams forKey(String key) {
    return GetParams.newBuilder().setKey(key).setDelayRequestable(60).build();
  }

  @Test
  void aDiscoveryIsGettableWellUnderASecondLater() throws Exception {
    // warm-up: the first records through a fresh job pay for its start
    client.put(List.of(FrontierClient.discovered("http://warm.latency.test/", "")));
    awaitUrls(forKey("warm.latency.test"), 1, Duration.ofSeconds(30));
    long[] latencies = new long[60];
    for (int i = 0; i < latencies.length; i++) {
      String host = "h" + i + ".latency.test";
      long t0 = System.nanoTime();
      List<AckMessage> acks =
          client.put(List.of(FrontierClient.discovered("http://" + host + "/", "")));
      assertThat(acks).extracting(AckMessage::getStatus).containsExactly(AckMessage.Status.OK);
      List<URLInfo> got = awaitUrls(forKey(host), 1, Duration.ofSeconds(10));
      latencies[i] = (System.nanoTime() - t0) / 1_000_000;
      assertThat(got).extracting(URLInfo::getUrl).containsExactly("http://" + host + "/");
    }
    Arrays.sort(latencies);
    long p50 = latencies[latencies.length / 2];
    long p99 = latencies[(int) Math.ceil(latencies.length * 0.99) - 1];
    System.out.printf("PutURLs(discovered) -> GetURLs latency: p50 %d ms, p99 %d ms%n", p50, p99);
    assertThat(p99).as("p99 latency, ms").isLessThan(1000);
  }

  @Test
  void putUrlsAcksOkOnceWrittenAndSkipsWhatTheCodecRefuses() throws Exception {
    List<URLItem> items =
        List.of(
            FrontierClient.discovered("http://acks.test/a", "").toBuilder().setID("a").build(),
            FrontierClient.discovered("not a url", "").toBuilder().setID("bad").build(),
            URLItem.newBuilder().setID("empty").build(),
            FrontierClient.discovered("http://acks.test/b", ""));
    List<AckMessage> acks = client.put(items);
    assertThat(acks)
        .extracting(AckMessage::getID, AckMessage::getStatus)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("a", AckMessage.Status.OK),
            org.assertj.core.groups.Tuple.tuple("bad", AckMessage.Status.SKIPPED),
            org.assertj.core.groups.Tuple.tuple("empty", AckMessage.Status.SKIPPED),
            org.assertj.core.groups.Tuple.tuple("http://acks.test/b", AckMessage.Status.OK));
    assertThat(frontier.service().counters().skippedByReason()).containsKey("bad_url");
    // both valid URLs reach the job and come back, one a second (the host's default pacing)
    List<URLInfo> got = awaitUrls(forKey("acks.test"), 2, Duration.ofSeconds(20));
    assertThat(got)
        .extracting(URLInfo::getUrl)
        .containsExactlyInAnyOrder("http://acks.test/a", "http://acks.test/b");
  }

  @Test
  void manyItemsOnOneStreamAreEachAckedOnce() throws Exception {
    List<URLItem> items =
        IntStream.range(0, 5000)
            .mapToObj(i -> FrontierClient.discovered("http://bulk" + (i % 50) + ".test/" + i, ""))
            .toList();
    List<AckMessage> acks = client.put(items);
    assertThat(acks).hasSize(5000).allMatch(a -> a.getStatus() == AckMessage.Status.OK);
    assertThat(acks.stream().map(AckMessage::getID).distinct().count()).isEqualTo(5000);
  }

  @Test
  void crawlIdsKeepCrawlsApart() throws Exception {
    client.put(
        List.of(
            FrontierClient.discovered("http://crawls.test/in-a", "a"),
            FrontierClient.discovered("http://other.crawls.test/in-b", "b")));
    List<URLInfo> fromA =
        awaitUrls(
            GetParams.newBuilder().setCrawlID("a").setDelayRequestable(60).build(),
            1,
            Duration.ofSeconds(10));
    assertThat(fromA).extracting(URLInfo::getUrl).containsExactly("http://crawls.test/in-a");
    assertThat(fromA).extracting(URLInfo::getCrawlID).containsOnly("a");
    List<URLInfo> fromAny =
        awaitUrls(
            GetParams.newBuilder()
                .setAnyCrawlID(AnyCrawlID.getDefaultInstance())
                .setKey("other.crawls.test")
                .setDelayRequestable(60)
                .build(),
            1,
            Duration.ofSeconds(10));
    assertThat(fromAny)
        .extracting(URLInfo::getUrl)
        .containsExactly("http://other.crawls.test/in-b");
    assertThat(fromAny).extracting(URLInfo::getCrawlID).containsOnly("b");
    assertThat(client.blocking.listCrawls(Local.getDefaultInstance()).getValuesList())
        .contains("a", "b");
  }

  @Test
  void getUrlsHonoursMaxUrlsPerQueueAndMaxQueues() throws Exception {
    List<URLItem> items = new ArrayList<>();
    for (int h = 0; h < 4; h++) {
      items.add(FrontierClient.discovered("http://q" + h + ".limits.test/", "limits"));
    }
    client.put(items);
    awaitStats("limits", "", 4);
    List<URLInfo> two =
        client.get(
            GetParams.newBuilder()
                .setCrawlID("limits")
                .setMaxQueues(2)
                .setMaxUrlsPerQueue(1)
                .setDelayRequestable(60)
                .build());
    assertThat(two).hasSize(2);
    assertThat(two.stream().map(URLInfo::getKey).distinct()).hasSize(2);
    List<URLInfo> rest =
        client.get(GetParams.newBuilder().setCrawlID("limits").setDelayRequestable(60).build());
    assertThat(rest).hasSize(2);
    Set<String> all = new HashSet<>();
    two.forEach(u -> all.add(u.getUrl()));
    rest.forEach(u -> all.add(u.getUrl()));
    assertThat(all).hasSize(4);
  }

  @Test
  void queueControlsBlockDelayAndCapAQueue() throws Exception {
    String crawl = "controls";
    client.blocking.blockQueueUntil(
        BlockQueueParams.newBuilder()
            .setCrawlID(crawl)
            .setKey("blocked.test")
            .setTime(System.currentTimeMillis() / 1000 + 3600)
            .build());
    client.blocking.setCrawlLimit(
        CrawlLimitParams.newBuilder().setCrawlID(crawl).setKey("capped.test").setLimit(1).build());
    client.put(
        List.of(
            FrontierClient.discovered("http://blocked.test/", crawl),
            FrontierClient.discovered("http://capped.test/1", crawl),
            FrontierClient.discovered("http://capped.test/2", crawl)));
    awaitStats(crawl, "capped.test", 2);
    awaitStats(crawl, "blocked.test", 1);
    GetParams all = GetParams.newBuilder().setCrawlID(crawl).setDelayRequestable(60).build();
    List<URLInfo> got = client.get(all);
    assertThat(got).extracting(URLInfo::getKey).containsExactly("capped.test");
    assertThat(client.get(all)).as("the cap and the block hold").isEmpty();
    // unblocked with 0
    client.blocking.blockQueueUntil(
        BlockQueueParams.newBuilder().setCrawlID(crawl).setKey("blocked.test").setTime(0).build());
    assertThat(client.get(all)).extracting(URLInfo::getUrl).containsExactly("http://blocked.test/");

    // SetDelay of a queue is the host's rate ceiling in the job, on the control topic
    client.blocking.setDelay(
        QueueDelayParams.newBuilder()
            .setCrawlID(crawl)
            .setKey("Slow.Test")
            .setDelayRequestable(10)
            .build());
    ControlMessage rate = awaitHostRate("slow.test");
    assertThat(rate.maxRate()).isEqualTo(8640.0);
  }

  @Test
  void deleteQueueAndDeleteCrawlReturnWhatTheyRemoved() throws Exception {
    String crawl = "deletes";
    client.put(
        List.of(
            FrontierClient.discovered("http://d1.test/", crawl),
            FrontierClient.discovered("http://d2.test/", crawl)));
    awaitStats(crawl, "", 2);
    assertThat(
            client
                .blocking
                .deleteQueue(
                    QueueWithinCrawlParams.newBuilder().setCrawlID(crawl).setKey("d1.test").build())
                .getValue())
        .isEqualTo(1);
    assertThat(
            client
                .blocking
                .deleteCrawl(DeleteCrawlMessage.newBuilder().setValue(crawl).build())
                .getValue())
        .isEqualTo(1);
    assertThat(client.blocking.listCrawls(Local.getDefaultInstance()).getValuesList())
        .doesNotContain(crawl);
  }

  @Test
  void statsAndQueueListsWithPagination() throws Exception {
    String crawl = "lists";
    List<URLItem> items = new ArrayList<>();
    for (int h = 0; h < 5; h++) {
      items.add(FrontierClient.discovered("http://l" + h + ".test/", crawl));
    }
    client.put(items);
    awaitStats(crawl, "", 5);
    QueueList first =
        client.blocking.listQueues(Pagination.newBuilder().setCrawlID(crawl).setSize(2).build());
    QueueList second =
        client.blocking.listQueues(
            Pagination.newBuilder().setCrawlID(crawl).setStart(2).setSize(10).build());
    assertThat(first.getValuesList()).containsExactly("l0.test", "l1.test");
    assertThat(second.getValuesList()).containsExactly("l2.test", "l3.test", "l4.test");
    assertThat(first.getTotal()).isEqualTo(5);
    client.get(
        GetParams.newBuilder().setCrawlID(crawl).setKey("l0.test").setDelayRequestable(60).build());
    Stats stats =
        client.blocking.getStats(QueueWithinCrawlParams.newBuilder().setCrawlID(crawl).build());
    assertThat(stats.getSize()).isEqualTo(4);
    assertThat(stats.getInProcess()).isEqualTo(1);
    assertThat(stats.getNumberOfQueues()).isEqualTo(5);
    assertThat(
            client
                .blocking
                .listQueues(Pagination.newBuilder().setCrawlID(crawl).build())
                .getValuesList())
        .hasSize(4);
    assertThat(
            client
                .blocking
                .listQueues(
                    Pagination.newBuilder().setCrawlID(crawl).setIncludeInactive(true).build())
                .getValuesList())
        .hasSize(5);
  }

  @Test
  void setActiveStopsGetUrlsAndServiceRpcsAnswer() throws Exception {
    client.blocking.setActive(Active.newBuilder().setState(false).build());
    try {
      assertThat(client.blocking.getActive(Local.getDefaultInstance()).getState()).isFalse();
      client.put(List.of(FrontierClient.discovered("http://inactive.test/", "")));
      Thread.sleep(1500);
      assertThat(client.get(forKey("inactive.test"))).isEmpty();
    } finally {
      client.blocking.setActive(Active.newBuilder().setState(true).build());
    }
    assertThat(client.blocking.getActive(Local.getDefaultInstance()).getState()).isTrue();
    assertThat(awaitUrls(forKey("inactive.test"), 1, Duration.ofSeconds(10))).hasSize(1);
    assertThat(client.blocking.listNodes(Empty.getDefaultInstance()).getValuesList()).hasSize(1);
    client.blocking.setLogLevel(
        LogLevelParams.newBuilder()
            .setPackage("io.recrawl.frontier")
            .setLevel(LogLevelParams.Level.DEBUG)
            .build());
  }

  @Test
  void jobStateQueriesSayTheyAreNotAnsweredYet() {
    for (Runnable call :
        List.<Runnable>of(
            () -> client.blocking.countURLs(CountUrlParams.getDefaultInstance()),
            () ->
                client.blocking.getURLStatus(
                    URLStatusRequest.newBuilder().setUrl("http://x.test/").build()),
            () -> client.blocking.listURLs(ListUrlParams.getDefaultInstance()).hasNext())) {
      assertThatThrownBy(call::run)
          .isInstanceOf(StatusRuntimeException.class)
          .extracting(e -> ((StatusRuntimeException) e).getStatus().getCode())
          .isEqualTo(Status.Code.UNIMPLEMENTED);
    }
  }

  static void awaitStats(String crawl, String key, long size) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    long seen = -1;
    while (System.nanoTime() < deadline) {
      seen =
          client
              .blocking
              .getStats(QueueWithinCrawlParams.newBuilder().setCrawlID(crawl).setKey(key).build())
              .getSize();
      if (seen >= size) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError(
        "crawl " + crawl + " queue '" + key + "': " + seen + " waiting, not " + size);
  }

  static ControlMessage awaitHostRate(String host) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, frontier.bootstrapServers());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "control-reader-" + System.nanoTime());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    ControlMessageCodec codec = new ControlMessageCodec(-1);
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p)) {
      c.subscribe(List.of("crawl.control"));
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
          Parsed<ControlMessage> m = codec.parse(r.value(), System.currentTimeMillis());
          if (m.ok()
              && m.value().kind() == ControlMessage.Kind.HOST_RATE
              && host.equals(m.value().host())) {
            return m.value();
          }
        }
      }
    }
    throw new AssertionError("no HOST_RATE for " + host + " on crawl.control");
  }
}
