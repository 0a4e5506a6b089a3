package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.BlockQueueParams;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueDelayParams;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two service instances in front of one job, as URL Frontier's distributed service cannot do
 * strictly: each hands out the queues of its share of the requests' partitions, and a delay or a
 * block given to either holds for both, since the job keeps it in its keyed state and each instance
 * follows the other's changes on the control topic.
 */
class FrontierTwoInstancesITCase {

  @TempDir static Path dir;
  static EmbeddedFrontier frontier;
  static FrontierServer second;
  static ManagedChannel secondChannel;

  @BeforeAll
  static void start() throws Exception {
    // A lease of a minute: a host paced at one URL per 2 s may have 15 in flight.
    frontier = new EmbeddedFrontier(dir, Map.of("recrawl.engine.lease", "60 s"));
    second = FrontierServer.start(frontier.settings.withPort(0));
    secondChannel =
        NettyChannelBuilder.forAddress("127.0.0.1", second.port()).usePlaintext().build();
    // The requests' consumer group shares its partitions out once both instances have joined:
    // probe URLs until each instance has some, then take them all.
    long end = System.currentTimeMillis() + 60_000;
    for (int round = 0;
        (frontier.server.waiting() == 0 || second.waiting() == 0)
            && System.currentTimeMillis() < end;
        round++) {
      put(hosts("probe" + round + "-", 8), 1);
      Thread.sleep(1_000);
    }
    assertThat(second.waiting()).as("the second instance's share").isPositive();
    for (URLFrontierGrpc.URLFrontierBlockingStub stub : both()) {
      take(stub, List.of());
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (secondChannel != null) {
      secondChannel.shutdownNow();
    }
    if (second != null) {
      second.close();
    }
    if (frontier != null) {
      frontier.close();
    }
  }

  private static List<URLFrontierGrpc.URLFrontierBlockingStub> both() {
    return List.of(frontier.blocking(), URLFrontierGrpc.newBlockingStub(secondChannel));
  }

  private static List<String> hosts(String prefix, int n) {
    List<String> hosts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      hosts.add(prefix + i + ".example");
    }
    return hosts;
  }

  private static void put(List<String> hosts, int perHost) throws InterruptedException {
    List<URLItem> items = new ArrayList<>();
    for (String h : hosts) {
      for (int i = 0; i < perHost; i++) {
        items.add(FrontierClient.discovered("http://" + h + "/" + i));
      }
    }
    new FrontierClient(frontier).put(items);
  }

  /** What {@code stub} hands out of {@code hosts} now, each URL with the time it came. */
  private static Map<String, List<Long>> take(
      URLFrontierGrpc.URLFrontierBlockingStub stub, List<String> hosts) {
    Map<String, List<Long>> got = new HashMap<>();
    Iterator<URLInfo> it =
        stub.withDeadlineAfter(10, TimeUnit.SECONDS)
            .getURLs(GetParams.newBuilder().setDelayRequestable(600).build());
    while (it.hasNext()) {
      URLInfo u = it.next();
      long at = System.currentTimeMillis();
      String host = java.net.URI.create(u.getUrl()).getHost();
      if (hosts.contains(host)) {
        got.computeIfAbsent(host, h -> new ArrayList<>()).add(at);
      }
    }
    return got;
  }

  @Test
  void aBlockGivenToOneInstanceHoldsForTheUrlsTheOtherHandsOut() throws Exception {
    List<String> hosts = hosts("blocked", 8);
    put(hosts, 2);
    // Released by the job and waiting in both outboxes before the block comes.
    long end = System.currentTimeMillis() + 30_000;
    while (frontier.server.waiting() + second.waiting() < hosts.size()
        && System.currentTimeMillis() < end) {
      Thread.sleep(50);
    }
    assertThat(frontier.server.waiting()).isPositive();
    assertThat(second.waiting()).isPositive();
    long blockEnd = (System.currentTimeMillis() + 6_000 + 999) / 1_000 * 1_000;
    for (String h : hosts) {
      frontier
          .blocking()
          .blockQueueUntil(
              BlockQueueParams.newBuilder().setKey(h).setTime(blockEnd / 1_000).build());
      assertThat(frontier.server.blocks(h)).as("the instance asked holds %s", h).isTrue();
    }
    // The other instance follows at its next read of the control topic: milliseconds, seconds
    // on a loaded machine.
    end = System.currentTimeMillis() + 5_000;
    while (!hosts.stream().allMatch(second::blocks) && System.currentTimeMillis() < end) {
      Thread.sleep(10);
    }
    assertThat(hosts).allMatch(second::blocks, "held by the other instance");
    // Every hand-out of a blocked host, by either instance, comes at the block's end or later; a
    // GetURLs that waits may end with one after it.
    Map<String, List<Long>> after = new HashMap<>();
    end = blockEnd + 30_000;
    while (after.size() < hosts.size() && System.currentTimeMillis() < end) {
      for (URLFrontierGrpc.URLFrontierBlockingStub stub : both()) {
        take(stub, hosts)
            .forEach((h, at) -> after.computeIfAbsent(h, k -> new ArrayList<>()).addAll(at));
      }
      Thread.sleep(100);
    }
    after.forEach((h, at) -> assertThat(at).as("hand-outs of %s", h).allMatch(t -> t >= blockEnd));
    assertThat(after.keySet()).containsExactlyInAnyOrderElementsOf(hosts);
  }

  @Test
  void underConcurrentClientsOnBothInstancesNoHostGetsTwoUrlsInsideItsDelay() throws Exception {
    List<String> hosts = hosts("paced", 4);
    for (String h : hosts) { // given to one instance, for every URL of the host
      frontier
          .blocking()
          .setDelay(QueueDelayParams.newBuilder().setKey(h).setDelayRequestable(2).build());
    }
    put(hosts, 8);
    // Nobody asks for a while: several URLs of each host wait, released 2 s apart.
    Thread.sleep(9_000);
    Map<String, List<Long>> handedOut = Collections.synchronizedMap(new HashMap<>());
    long stopAt = System.currentTimeMillis() + 9_000;
    List<Thread> clients = new ArrayList<>();
    for (int c = 0; c < 6; c++) {
      URLFrontierGrpc.URLFrontierBlockingStub stub = both().get(c % 2);
      Thread t =
          new Thread(
              () -> {
                while (System.currentTimeMillis() < stopAt) {
                  take(stub, hosts)
                      .forEach(
                          (h, times) ->
                              handedOut.computeIfAbsent(h, k -> new ArrayList<>()).addAll(times));
                }
              },
              "client-" + c);
      t.start();
      clients.add(t);
    }
    for (Thread t : clients) {
      t.join();
    }
    assertThat(handedOut.keySet()).containsExactlyInAnyOrderElementsOf(hosts);
    for (Map.Entry<String, List<Long>> e : handedOut.entrySet()) {
      List<Long> times = new ArrayList<>(e.getValue());
      Collections.sort(times);
      assertThat(times).as(e.getKey()).hasSizeGreaterThanOrEqualTo(3);
      for (int i = 1; i < times.size(); i++) {
        // 2 s apart at the server; the clients' clocks read them after the network, hence 100 ms
        assertThat(times.get(i) - times.get(i - 1))
            .as("%s, hand-outs %d and %d", e.getKey(), i - 1, i)
            .isGreaterThanOrEqualTo(1_900);
      }
    }
  }
}
