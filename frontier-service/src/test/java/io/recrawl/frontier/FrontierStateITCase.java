package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.BlockQueueParams;
import crawlercommons.urlfrontier.Urlfrontier.CountUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.CrawlLimitParams;
import crawlercommons.urlfrontier.Urlfrontier.DeleteCrawlMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.ListUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.Local;
import crawlercommons.urlfrontier.Urlfrontier.Pagination;
import crawlercommons.urlfrontier.Urlfrontier.QueueList;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.Stats;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the service answers from the job's state, with a real gRPC channel to the embedded service,
 * broker and job: statistics, lists and counts, a URL's status, deletions, blocks, crawl IDs kept
 * apart, and a crawl in the client mode. Every answer follows a PutURLs at once: the job answers a
 * query only once every status sent before it has been applied.
 */
class FrontierStateITCase {

  private static final String PLANNED = "planned";

  @TempDir static Path dir;
  static EmbeddedFrontier frontier;
  static FrontierClient client;

  @BeforeAll
  static void start() throws Exception {
    frontier =
        new EmbeddedFrontier(
            dir,
            Map.of(),
            null,
            s ->
                s.withModes(
                    FrontierSettings.RefetchMode.VALUE,
                    Map.of(PLANNED, FrontierSettings.RefetchMode.CLIENT)));
    client = new FrontierClient(frontier);
  }

  @AfterAll
  static void stop() throws Exception {
    if (frontier != null) {
      frontier.close();
    }
  }

  private static QueueWithinCrawlParams queue(String crawl, String key) {
    return QueueWithinCrawlParams.newBuilder().setCrawlID(crawl).setKey(key).build();
  }

  private static URLItem known(String crawl, String url, long refetchSeconds) {
    URLItem k = FrontierClient.known(url, refetchSeconds, Map.of("fetch.statusCode", "200"));
    return k.toBuilder()
        .setKnown(
            KnownURLItem.newBuilder(k.getKnown())
                .setInfo(k.getKnown().getInfo().toBuilder().setCrawlID(crawl)))
        .build();
  }

  private static void putAll(List<URLItem> items) throws Exception {
    assertThat(client.put(items))
        .extracting(AckMessage::getStatus)
        .containsOnly(AckMessage.Status.OK);
  }

  @Test
  void statsCountsAndListsComeFromTheJobAndCrawlsStayApart() throws Exception {
    putAll(
        List.of(
            FrontierClient.discovered("http://stats-a.example/a1"),
            FrontierClient.discovered("http://stats-a.example/a2"),
            FrontierClient.discovered("http://stats-a.example/b1"),
            FrontierClient.discovered("http://stats-b.example/"),
            FrontierClient.discovered("http://stats-b.example/x"),
            // The same URL in another crawl is another page of the same host.
            FrontierClient.discovered("other", "http://stats-a.example/a1")));

    Stats a = frontier.blocking().getStats(queue("", "stats-a.example"));
    assertThat(a.getCrawlID()).isEqualTo("DEFAULT");
    assertThat(a.getSize()).isEqualTo(3);
    assertThat(a.getNumberOfQueues()).isEqualTo(1);
    Stats other = frontier.blocking().getStats(queue("other", ""));
    assertThat(other.getCrawlID()).isEqualTo("other");
    assertThat(other.getSize()).isEqualTo(1);
    assertThat(other.getNumberOfQueues()).isEqualTo(1);

    CountUrlParams.Builder count = CountUrlParams.newBuilder().setKey("stats-a.example");
    assertThat(frontier.blocking().countURLs(count.build()).getValue()).isEqualTo(3);
    assertThat(frontier.blocking().countURLs(count.setFilter("/A").build()).getValue()).isZero();
    assertThat(frontier.blocking().countURLs(count.setIgnoreCase(true).build()).getValue())
        .isEqualTo(2);

    QueueList queues =
        frontier.blocking().listQueues(Pagination.newBuilder().setIncludeInactive(true).build());
    assertThat(queues.getValuesList()).contains("stats-a.example", "stats-b.example");
    assertThat(queues.getValuesList()).isSorted();
    QueueList first =
        frontier
            .blocking()
            .listQueues(Pagination.newBuilder().setIncludeInactive(true).setSize(1).build());
    QueueList second =
        frontier
            .blocking()
            .listQueues(
                Pagination.newBuilder().setIncludeInactive(true).setStart(1).setSize(1).build());
    assertThat(first.getValuesList()).containsExactly(queues.getValues(0));
    assertThat(second.getValuesList()).containsExactly(queues.getValues(1));
    assertThat(first.getTotal()).isEqualTo(queues.getTotal()).isGreaterThanOrEqualTo(2);
    assertThat(
            frontier
                .blocking()
                .listQueues(Pagination.newBuilder().setCrawlID("other").build())
                .getValuesList())
        .containsExactly("stats-a.example");

    List<URLItem> listed = new ArrayList<>();
    for (Iterator<URLItem> it =
            frontier
                .blocking()
                .listURLs(ListUrlParams.newBuilder().setKey("stats-b.example").build());
        it.hasNext(); ) {
      listed.add(it.next());
    }
    assertThat(listed)
        .extracting(i -> i.getKnown().getInfo())
        .extracting(URLInfo::getUrl, URLInfo::getCrawlID, URLInfo::getKey)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(
                "http://stats-b.example/", "DEFAULT", "stats-b.example"),
            org.assertj.core.groups.Tuple.tuple(
                "http://stats-b.example/x", "DEFAULT", "stats-b.example"));

    assertThat(frontier.blocking().listCrawls(Local.getDefaultInstance()).getValuesList())
        .contains("DEFAULT", "other");
  }

  /** URL Frontier's service reads a GetURLs with neither crawlID nor AnyCrawlID as any crawl. */
  @Test
  void aGetUrlsWithoutACrawlIdHandsOutEveryCrawlsUrls() throws Exception {
    putAll(List.of(FrontierClient.discovered("elsewhere", "http://unset-crawl.example/p")));
    List<String> got = new ArrayList<>();
    long end = System.currentTimeMillis() + 20_000;
    while (!got.contains("http://unset-crawl.example/p") && System.currentTimeMillis() < end) {
      client.get(GetParams.newBuilder().build()).forEach(u -> got.add(u.getUrl()));
    }
    assertThat(got).contains("http://unset-crawl.example/p");
  }

  /** What URL Frontier's DumpURLs asks: a crawl whole, in one call of size Integer.MAX_VALUE. */
  @Test
  void listUrlsOfAnySizeGivesEveryUrlOnceInOrderAcrossTheJobsParts() throws Exception {
    String crawl = "dump";
    List<URLItem> items = new ArrayList<>();
    for (int i = 0; i < 2_500; i++) {
      items.add(FrontierClient.discovered(crawl, "http://dump-" + (i % 37) + ".example/" + i));
    }
    putAll(items);
    List<String> all = listed(crawl, 0, Integer.MAX_VALUE);
    assertThat(all).hasSize(2_500).doesNotHaveDuplicates();
    assertThat(all)
        .containsExactlyInAnyOrderElementsOf(
            items.stream().map(u -> u.getDiscovered().getInfo().getUrl()).toList());
    assertThat(listed(crawl, 1_200, Integer.MAX_VALUE)).isEqualTo(all.subList(1_200, 2_500));
    assertThat(listed(crawl, 999, 1_002)).isEqualTo(all.subList(999, 2_001));
  }

  /** What URL Frontier's DumpURLs -t N asks: the queues, a page of them at a time. */
  @Test
  void listQueuesOfAnySizeGivesEveryQueueOnceInKeyOrder() throws Exception {
    String crawl = "queues";
    List<URLItem> items = new ArrayList<>();
    for (int i = 0; i < 1_100; i++) {
      items.add(FrontierClient.discovered(crawl, "http://q" + i + ".example/"));
    }
    putAll(items);
    QueueList all = queues(crawl, 0, Integer.MAX_VALUE);
    assertThat(all.getValuesList()).hasSize(1_100).isSorted().doesNotHaveDuplicates();
    assertThat(all.getTotal()).isEqualTo(1_100);
    QueueList tail = queues(crawl, 1_000, 500);
    assertThat(tail.getValuesList()).isEqualTo(all.getValuesList().subList(1_000, 1_100));
  }

  private static QueueList queues(String crawl, int start, int size) {
    return frontier
        .blocking()
        .listQueues(
            Pagination.newBuilder()
                .setCrawlID(crawl)
                .setIncludeInactive(true)
                .setStart(start)
                .setSize(size)
                .build());
  }

  private static List<String> listed(String crawl, int start, int size) {
    List<String> urls = new ArrayList<>();
    for (Iterator<URLItem> it =
            frontier
                .blocking()
                .listURLs(
                    ListUrlParams.newBuilder()
                        .setCrawlID(crawl)
                        .setStart(start)
                        .setSize(size)
                        .build());
        it.hasNext(); ) {
      urls.add(it.next().getKnown().getInfo().getUrl());
    }
    return urls;
  }

  @Test
  void aUrlsStatusIsTheJobsAndAClientsDateComesBackExactly() throws Exception {
    long date = System.currentTimeMillis() / 1_000 + 3_600;
    putAll(
        List.of(
            known(PLANNED, "http://status.example/planned", date),
            known("", "http://status.example/valued", date),
            FrontierClient.discovered("http://status.example/new")));

    URLItem planned =
        frontier
            .blocking()
            .getURLStatus(
                URLStatusRequest.newBuilder()
                    .setUrl("http://status.example/planned")
                    .setCrawlID(PLANNED)
                    .build());
    assertThat(planned.getKnown().getRefetchableFromDate()).isEqualTo(date);
    assertThat(planned.getKnown().getInfo().getCrawlID()).isEqualTo(PLANNED);

    // The value mode takes the job's date: a page just fetched is due later, not now.
    URLItem valued =
        frontier
            .blocking()
            .getURLStatus(
                URLStatusRequest.newBuilder().setUrl("http://status.example/valued").build());
    assertThat(valued.getKnown().getRefetchableFromDate())
        .isGreaterThan(System.currentTimeMillis() / 1_000);

    URLItem fresh =
        frontier
            .blocking()
            .getURLStatus(
                URLStatusRequest.newBuilder().setUrl("http://status.example/new").build());
    // As URL Frontier's server answers (its CLI reads only known items): a page never fetched is
    // known, with the date it goes; the job's own metadata stays the job's.
    assertThat(fresh.hasKnown()).isTrue();
    assertThat(fresh.getKnown().getRefetchableFromDate()).isPositive();
    assertThat(planned.getKnown().getInfo().getMetadataMap())
        .doesNotContainKey(io.recrawl.wire.StatusEvent.REFETCH_AT_KEY);

    assertThatThrownBy(
            () ->
                frontier
                    .blocking()
                    .getURLStatus(
                        URLStatusRequest.newBuilder()
                            .setUrl("http://status.example/planned")
                            .build())) // in the default crawl, it is not there
        .isInstanceOf(StatusRuntimeException.class)
        .hasMessageContaining("NOT_FOUND");
  }

  @Test
  void deletionsRemoveTheJobsStateAndTheOutboxAndSayHowMuch() throws Exception {
    putAll(
        List.of(
            FrontierClient.discovered("gone", "http://del.example/1"),
            FrontierClient.discovered("gone", "http://del.example/2"),
            FrontierClient.discovered("gone", "http://del.example/3"),
            FrontierClient.discovered("gone", "http://del-other.example/1"),
            FrontierClient.discovered("http://del.example/kept")));

    assertThat(frontier.blocking().deleteQueue(queue("gone", "del.example")).getValue())
        .isEqualTo(3);
    assertThat(frontier.blocking().getStats(queue("gone", "del.example")).getSize()).isZero();
    assertThat(frontier.blocking().getStats(queue("gone", "")).getSize()).isEqualTo(1);
    assertThat(frontier.blocking().getStats(queue("", "del.example")).getSize()).isEqualTo(1);
    // What the job had released of that queue is not handed out any more.
    Thread.sleep(1_500);
    assertThat(client.get(GetParams.newBuilder().setCrawlID("gone").setKey("del.example").build()))
        .isEmpty();

    assertThat(
            frontier
                .blocking()
                .deleteCrawl(DeleteCrawlMessage.newBuilder().setValue("gone").build())
                .getValue())
        .isEqualTo(1);
    assertThat(frontier.blocking().getStats(queue("gone", "")).getSize()).isZero();
    assertThat(frontier.blocking().listCrawls(Local.getDefaultInstance()).getValuesList())
        .doesNotContain("gone");
    assertThat(frontier.blocking().getStats(queue("", "del.example")).getSize()).isEqualTo(1);
  }

  @Test
  void aBlockedQueueHandsOutNothingUntilItsTime() throws Exception {
    long until = System.currentTimeMillis() + 6_000;
    putAll(List.of(FrontierClient.discovered("http://blocked.example/")));
    frontier
        .blocking()
        .blockQueueUntil(
            BlockQueueParams.newBuilder()
                .setKey("blocked.example")
                .setTime((until + 999) / 1_000)
                .build());
    GetParams get = GetParams.newBuilder().setKey("blocked.example").build();
    while (System.currentTimeMillis() < until - 1_500) {
      assertThat(client.get(get)).isEmpty();
    }
    List<URLInfo> got = client.getSoon(get, 20_000);
    assertThat(System.currentTimeMillis()).isGreaterThanOrEqualTo(until - 1_000);
    assertThat(got).extracting(URLInfo::getUrl).containsExactly("http://blocked.example/");
  }

  @Test
  void aCrawlLimitCapsTheHostsPagesFromTheNextUrlOn() throws Exception {
    frontier
        .blocking()
        .setCrawlLimit(CrawlLimitParams.newBuilder().setKey("capped.example").setLimit(2).build());
    List<URLItem> four = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      four.add(FrontierClient.discovered("http://capped.example/" + i));
    }
    putAll(four);
    assertThat(
            frontier
                .blocking()
                .countURLs(CountUrlParams.newBuilder().setKey("capped.example").build())
                .getValue())
        .isEqualTo(2);
  }

  @Test
  void aCrawlInTheClientModeHandsOutItsUrlsByTheirDatesSoonerFirst() throws Exception {
    long now = System.currentTimeMillis() / 1_000;
    putAll(
        List.of(
            known(PLANNED, "http://order.example/later", now),
            known(PLANNED, "http://order.example/sooner", now - 10_000),
            known(PLANNED, "http://order.example/tomorrow", now + 86_400)));
    List<URLInfo> got =
        client.getSoon(
            GetParams.newBuilder()
                .setCrawlID(PLANNED)
                .setKey("order.example")
                .setMaxUrlsPerQueue(3)
                .build(),
            20_000);
    assertThat(got.get(0).getUrl()).isEqualTo("http://order.example/sooner");
    assertThat(got).extracting(URLInfo::getUrl).doesNotContain("http://order.example/tomorrow");
  }
}
