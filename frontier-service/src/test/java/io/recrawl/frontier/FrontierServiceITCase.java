package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.Active;
import crawlercommons.urlfrontier.Urlfrontier.Empty;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.Local;
import crawlercommons.urlfrontier.Urlfrontier.LogLevelParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueDelayParams;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.ControlMessageCodec;
import io.recrawl.wire.Parsed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded service with a real gRPC channel, the trial broker and the job: the data path from a
 * PutURLs through Kafka and the job to a GetURLs, the acks, the delay, and the service-level RPCs.
 */
class FrontierServiceITCase {

  @TempDir static Path dir;
  static EmbeddedFrontier frontier;
  static FrontierClient client;

  @BeforeAll
  static void start() throws Exception {
    frontier = new EmbeddedFrontier(dir, Map.of());
    client = new FrontierClient(frontier);
  }

  @AfterAll
  static void stop() throws Exception {
    if (frontier != null) {
      frontier.close();
    }
  }

  private static GetParams any(int delaySeconds) {
    return GetParams.newBuilder().setDelayRequestable(delaySeconds).build();
  }

  @Test
  void aDiscoveredUrlIsHandedOutSoonAndNotAgainBeforeItsDelayUnlessTheClientUpdatesIt()
      throws Exception {
    String url = "http://first.example/page";
    assertThat(client.put(List.of(FrontierClient.discovered(url))))
        .extracting(AckMessage::getStatus)
        .containsExactly(AckMessage.Status.OK);
    long put = System.nanoTime();
    List<URLInfo> got =
        client.getSoon(
            GetParams.newBuilder().setKey("first.example").setDelayRequestable(3).build(), 20_000);
    long ms = (System.nanoTime() - put) / 1_000_000;
    assertThat(got).extracting(URLInfo::getUrl).containsExactly(url);
    assertThat(got.get(0).getKey()).isEqualTo("first.example");
    assertThat(ms).as("from PutURLs to GetURLs, ms").isLessThan(5_000);

    // Held back for its delay: not handed out again, even once the job's lease (5 s) releases it.
    assertThat(client.get(GetParams.newBuilder().setKey("first.example").build())).isEmpty();
    // The crawler answers: no longer held back; the job decides when it goes next.
    List<AckMessage> acks =
        client.put(List.of(FrontierClient.known(url, 1, Map.of("fetch.statusCode", "200"))));
    assertThat(acks).extracting(AckMessage::getStatus).containsExactly(AckMessage.Status.OK);
  }

  /**
   * URL Frontier's clients expect a URL put to be gettable at once: a discovery on a new host is
   * handed out by the GetURLs loop that follows it, for every one of twenty hosts. How soon is a
   * figure of bin/recrawl bench frontier, not an assertion (the machine is shared); it is printed.
   */
  @Test
  void aDiscoveryOnANewHostIsHandedOutToTheGetUrlsThatFollows() throws Exception {
    long[] latencies = new long[20];
    for (int i = 0; i < latencies.length; i++) {
      String host = "h" + i + ".latency.example";
      long t0 = System.nanoTime();
      assertThat(client.put(List.of(FrontierClient.discovered("http://" + host + "/"))))
          .extracting(AckMessage::getStatus)
          .containsExactly(AckMessage.Status.OK);
      List<URLInfo> got =
          client.getSoon(
              GetParams.newBuilder().setKey(host).setDelayRequestable(60).build(), 10_000);
      latencies[i] = (System.nanoTime() - t0) / 1_000_000;
      assertThat(got).extracting(URLInfo::getUrl).containsExactly("http://" + host + "/");
    }
    java.util.Arrays.sort(latencies);
    System.out.printf(
        "PutURLs(discovered) -> GetURLs: p50 %d ms, max %d ms (%d new hosts)%n",
        latencies[latencies.length / 2], latencies[latencies.length - 1], latencies.length);
  }

  @Test
  void getUrlsHonoursMaxUrlsPerQueueAndMaxQueues() throws Exception {
    List<URLItem> items = new ArrayList<>();
    for (int h = 0; h < 4; h++) {
      items.add(FrontierClient.discovered("http://q" + h + ".limits.example/"));
    }
    client.put(items);
    List<URLInfo> got = new ArrayList<>();
    long end = System.currentTimeMillis() + 20_000;
    while (got.size() < 4 && System.currentTimeMillis() < end) {
      List<URLInfo> batch =
          client.get(
              GetParams.newBuilder()
                  .setMaxQueues(2)
                  .setMaxUrlsPerQueue(1)
                  .setDelayRequestable(60)
                  .build());
      assertThat(batch.size()).isLessThanOrEqualTo(2);
      assertThat(batch.stream().map(URLInfo::getKey).distinct().count()).isEqualTo(batch.size());
      got.addAll(batch.stream().filter(u -> u.getKey().endsWith(".limits.example")).toList());
    }
    assertThat(got.stream().map(URLInfo::getUrl).distinct()).hasSize(4);
  }

  @Test
  void anUnansweredUrlComesBackOnlyAfterItsDelay() throws Exception {
    String url = "http://lease.example/p";
    client.put(List.of(FrontierClient.discovered(url)));
    GetParams oneSecond =
        GetParams.newBuilder().setKey("lease.example").setDelayRequestable(1).build();
    assertThat(client.getSoon(oneSecond, 20_000)).extracting(URLInfo::getUrl).containsExactly(url);
    long handedOut = System.currentTimeMillis();
    // The job releases it again when its lease (the embedded default delay, 5 s) runs out.
    List<URLInfo> again = client.getSoon(oneSecond, 20_000);
    assertThat(again).extracting(URLInfo::getUrl).containsExactly(url);
    assertThat(System.currentTimeMillis() - handedOut).isGreaterThanOrEqualTo(1_000);
  }

  @Test
  void whatTheJobWouldRefuseIsSkippedAndTheRestAcked() throws Exception {
    URLItem badCrawl = FrontierClient.discovered("a\nb", "http://c.example/");
    List<AckMessage> acks =
        client.put(
            List.of(
                FrontierClient.discovered("ftp://files.example/x"),
                FrontierClient.discovered("not a url"),
                badCrawl,
                FrontierClient.discovered("http://fine.example/")));
    assertThat(acks)
        .extracting(a -> a.getID() + " " + a.getStatus())
        .containsExactlyInAnyOrder(
            "ftp://files.example/x SKIPPED",
            "not a url SKIPPED",
            "http://c.example/ SKIPPED",
            "http://fine.example/ OK");
    assertThat(frontier.server.service().skipped()).isGreaterThanOrEqualTo(3);
  }

  @Test
  void manyItemsInOneStreamAreAllAckedOnce() throws Exception {
    List<URLItem> items = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      items.add(FrontierClient.discovered("http://bulk" + (i % 50) + ".example/" + i));
    }
    List<AckMessage> acks = client.put(items);
    assertThat(acks).hasSize(3_000).allMatch(a -> a.getStatus() == AckMessage.Status.OK);
    assertThat(acks.stream().map(AckMessage::getID).distinct()).hasSize(3_000);
  }

  @Test
  void setDelayBecomesTheHostsRateLimitInTheJob() throws Exception {
    frontier
        .blocking()
        .setDelay(
            QueueDelayParams.newBuilder().setKey("Slow.Example").setDelayRequestable(10).build());
    try (KafkaConsumer<String, String> control =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, frontier.broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "test-control",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
            new StringDeserializer(),
            new StringDeserializer())) {
      control.subscribe(List.of("crawl.control"));
      List<ControlMessage> rates = new ArrayList<>();
      long end = System.currentTimeMillis() + 20_000;
      while (rates.isEmpty() && System.currentTimeMillis() < end) {
        for (ConsumerRecord<String, String> r : control.poll(Duration.ofMillis(200))) {
          Parsed<ControlMessage> m = new ControlMessageCodec(-1).parse(r.value(), 0);
          if (m.ok() && m.value().kind() == ControlMessage.Kind.HOST_RATE) {
            rates.add(m.value());
          }
        }
      }
      // One URL every 10 s is 8,640 a day, for the host's key as the job writes it.
      assertThat(rates)
          .extracting(ControlMessage::host, ControlMessage::maxRate)
          .containsExactly(tuple("slow.example", 8_640.0));
    }
  }

  @Test
  void theServiceAnswersForItselfAndPausesWhenAskedTo() throws Exception {
    assertThat(frontier.blocking().listNodes(Empty.getDefaultInstance()).getValuesList())
        .hasSize(1);
    assertThat(frontier.blocking().getActive(Local.getDefaultInstance()).getState()).isTrue();
    frontier
        .blocking()
        .setLogLevel(
            LogLevelParams.newBuilder()
                .setPackage("io.recrawl.frontier")
                .setLevel(LogLevelParams.Level.DEBUG)
                .build());

    String url = "http://paused.example/";
    frontier.blocking().setActive(Active.newBuilder().setState(false).build());
    try {
      client.put(List.of(FrontierClient.discovered(url)));
      assertThat(frontier.blocking().getActive(Local.getDefaultInstance()).getState()).isFalse();
      Thread.sleep(2_000);
      assertThat(client.get(GetParams.newBuilder().setKey("paused.example").build())).isEmpty();
    } finally {
      frontier.blocking().setActive(Active.newBuilder().setState(true).build());
    }
    assertThat(client.getSoon(GetParams.newBuilder().setKey("paused.example").build(), 20_000))
        .extracting(URLInfo::getUrl)
        .containsExactly(url);
  }
}
