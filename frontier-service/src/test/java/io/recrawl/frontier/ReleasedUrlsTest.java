package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.CrawlRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The job's outbox: what it released, taken by queue, held back for a delay. */
class ReleasedUrlsTest {

  private static CrawlRequest request(String host, String path) {
    return new CrawlRequest("http://" + host + path, host, Map.of(), 0, 0, 1, 1, Long.MAX_VALUE);
  }

  private static List<String> urls(List<CrawlRequest> rs) {
    return rs.stream().map(CrawlRequest::url).toList();
  }

  @Test
  void takesUpToSoManyPerQueueFromUpToSoManyQueuesInReleaseOrder() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    for (String host : List.of("a", "b", "c")) {
      for (int i = 0; i < 3; i++) {
        r.released(request(host, "/" + i), 0);
      }
    }
    assertThat(urls(r.take(2, 2, "", null, 1_000, 0, 0)))
        .containsExactly("http://a/0", "http://a/1", "http://b/0", "http://b/1");
    assertThat(urls(r.take(0, 0, "c", null, 1_000, 0, 0)))
        .containsExactly("http://c/0", "http://c/1", "http://c/2");
    assertThat(r.waiting()).isEqualTo(2);
  }

  @Test
  void aUrlHandedOutIsHeldBackForItsDelayEvenWhenReleasedAgainUnlessUpdated() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    r.released(request("a", "/x"), 0);
    assertThat(r.take(0, 0, "", null, 10_000, 1_000, 0)).hasSize(1);
    r.released(request("a", "/x"), 0); // the job's lease ran out
    assertThat(r.take(0, 0, "", null, 10_000, 5_000, 0)).isEmpty();
    assertThat(urls(r.take(0, 0, "", null, 10_000, 11_000, 0))).containsExactly("http://a/x");

    r.released(request("a", "/x"), 0);
    r.updated("http://a/x"); // the client answered for it
    assertThat(r.take(0, 0, "", null, 10_000, 12_000, 0)).hasSize(1);
  }

  @Test
  void aReleaseOfAUrlStillWaitingReplacesItAndWhatWasNotSentWaitsAgainFirstInLine()
      throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    r.released(request("a", "/1"), 0);
    r.released(request("a", "/2"), 0);
    r.released(request("a", "/1"), 0);
    assertThat(r.waiting()).isEqualTo(2);
    List<CrawlRequest> taken = r.take(0, 0, "", null, 10_000, 0, 0);
    assertThat(urls(taken)).containsExactly("http://a/2", "http://a/1");
    r.giveBack(taken.subList(1, 2));
    r.released(request("a", "/3"), 0);
    assertThat(urls(r.take(0, 0, "", null, 10_000, 0, 0)))
        .containsExactly("http://a/1", "http://a/3");
  }

  @Test
  void aTakeWaitsBoundedlyForAUrlOnItsWay() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    new Thread(
            () -> {
              try {
                Thread.sleep(200);
              } catch (InterruptedException ignored) {
                return;
              }
              r.released(request("a", "/late"), 0);
            })
        .start();
    long start = System.currentTimeMillis();
    assertThat(urls(r.take(0, 0, "", null, 1_000, start, 5_000))).containsExactly("http://a/late");
    assertThat(System.currentTimeMillis() - start).isLessThan(5_000);
    assertThat(r.take(0, 0, "", null, 1_000, System.currentTimeMillis(), 100)).isEmpty();
  }

  private static CrawlRequest released(String crawl, String host, String path, long time) {
    return new CrawlRequest(
        io.recrawl.wire.PageKeys.of(crawl, "http://" + host + path),
        host,
        Map.of(),
        time,
        0,
        1,
        1,
        Long.MAX_VALUE);
  }

  @Test
  void aUrlNotAnsweredWithinItsDelayWaitsAgainAndCountsAsInProcessUntilThen() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    r.released(request("a", "/x"), 0);
    assertThat(r.take(0, 0, "", null, 2_000, 1_000, 0)).hasSize(1);
    assertThat(r.inProcess("DEFAULT", "a", 2_999)).isEqualTo(1);
    assertThat(r.inProcess("DEFAULT", "b", 2_999)).isZero();
    assertThat(r.take(0, 0, "", null, 2_000, 2_999, 0)).isEmpty();
    assertThat(r.inProcess("DEFAULT", null, 3_000)).isZero();
    assertThat(urls(r.take(0, 0, "", null, 2_000, 3_000, 0))).containsExactly("http://a/x");
  }

  @Test
  void aBlockedQueueHandsOutNothingBeforeItsTime() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    r.released(request("a", "/x"), 0);
    r.released(request("b", "/y"), 0);
    r.block("a", 5_000);
    assertThat(urls(r.take(0, 0, "", null, 1_000, 4_999, 0))).containsExactly("http://b/y");
    assertThat(urls(r.take(0, 0, "", null, 1_000, 5_000, 0))).containsExactly("http://a/x");
  }

  @Test
  void crawlsAreTakenApartAndADeletionDropsWhatWasReleasedBeforeItEvenOnItsWay() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    r.released(released("news", "a", "/1", 100), 0);
    r.released(released(null, "a", "/1", 100), 0);
    assertThat(urls(r.take(0, 0, "", "news", 1_000, 0, 0))).containsExactly("news\thttp://a/1");
    r.released(released("news", "a", "/2", 100), 0);
    r.deleted("news", "a", 500);
    r.released(released("news", "a", "/3", 400), 0); // released before the deletion, late
    r.released(released("news", "a", "/4", 600), 0); // after it: a page put again
    assertThat(r.inProcess("news", null, 1)).isZero();
    assertThat(urls(r.take(0, 0, "", null, 1_000, 1, 0))).containsExactly("http://a/1");
    // Released 500 ms after the queue's last: handed out no sooner after it.
    assertThat(urls(r.take(0, 0, "", null, 1_000, 501, 0))).containsExactly("news\thttp://a/4");
  }

  @Test
  void fromTheAskToTheJobsAnswerEvenALateOneNothingOfADeletedQueueIsHandedOut() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    r.released(released("news", "a", "/1", 100), 0);
    r.released(released(null, "a", "/1", 100), 0);
    r.deleting("news", "a", 1_000); // asked at 1,000: what waits goes at once
    assertThat(r.waiting()).isEqualTo(1);
    // The ask timed out; the job applies it later, releasing meanwhile what it still holds.
    r.released(released("news", "a", "/2", 5_000), 5_000);
    r.released(released(null, "b", "/1", 5_000), 5_000); // another queue: not held up
    assertThat(urls(r.take(0, 0, "", null, 60_000, 5_000, 0)))
        .containsExactlyInAnyOrder("http://a/1", "http://b/1");
    r.deleted("news", "a", 6_000); // the job's late answer
    r.released(released("news", "a", "/3", 5_500), 7_000); // released before it, on its way
    r.released(released("news", "a", "/4", 6_500), 7_000); // a page put again after it
    // A queue's hand-outs are spaced as its releases: /4 was released 6.4 s after /1.
    assertThat(urls(r.take(0, 0, "", null, 1_000, 11_400, 0))).containsExactly("news\thttp://a/4");
  }

  @Test
  void aDeletionTheJobNeverAnswersHoldsItsQueueForTheDeletionsMemoryOnly() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    r.deleting("DEFAULT", null, 1_000); // every queue; the job restarted and lost it
    long end = 1_000 + Deletions.MEMORY_MS;
    r.released(released(null, "a", "/1", end - 1), end - 1);
    assertThat(r.waiting()).isZero();
    r.released(released(null, "a", "/2", end), end);
    assertThat(r.waiting()).isEqualTo(1);
  }

  @Test
  void aQueuesHandOutsAreSpacedAtLeastAsTheJobSpacedItsReleases() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    // Released two seconds apart; the first reached the outbox late, then nobody asked a while.
    r.released(released(null, "a", "/1", 1_000), 2_900);
    r.released(released(null, "a", "/2", 3_000), 3_000);
    r.released(released(null, "a", "/3", 5_000), 5_000);
    r.released(released(null, "b", "/1", 5_000), 5_000);
    assertThat(urls(r.take(0, 0, "", null, 60_000, 10_000, 0)))
        .containsExactly("http://a/1", "http://b/1");
    assertThat(r.take(0, 0, "", null, 60_000, 11_999, 0)).isEmpty();
    assertThat(urls(r.take(0, 0, "", null, 60_000, 12_000, 0))).containsExactly("http://a/2");
    List<CrawlRequest> third = r.take(0, 0, "", null, 60_000, 14_000, 0);
    assertThat(urls(third)).containsExactly("http://a/3");
    r.giveBack(third); // never sent: the queue's pace is the second's again
    assertThat(urls(r.take(0, 0, "", null, 60_000, 14_000, 0))).containsExactly("http://a/3");
    // Unanswered, the first ones are offered again once their delay is over.
    assertThat(urls(r.take(0, 0, "", null, 60_000, 70_000, 0)))
        .containsExactly("http://a/1", "http://b/1");
  }

  /**
   * A first crawl taken over half a minute: its last URL of queue a went out 30 s after its
   * release. The job's next release of a, a minute later, of a host it spaces by a second, goes out
   * as soon as a second has passed since that hand-out: without the stated spacing it waited the
   * whole gap between the releases after the late hand-out, and every later URL of the queue as
   * late.
   */
  @Test
  void aLateHandOutDelaysTheQueuesNextOnlyByTheHostsSpacing() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    r.released(spaced("/1", 0, 1_000), 0);
    assertThat(urls(r.take(0, 0, "", null, 600_000, 30_000, 0))).containsExactly("http://a/1");
    r.released(spaced("/2", 60_000, 1_000), 60_000);
    assertThat(urls(r.take(0, 0, "", null, 600_000, 60_000, 0))).containsExactly("http://a/2");
    // And never sooner than the spacing after the last hand-out, late as that was.
    r.released(spaced("/3", 61_000, 1_000), 61_000);
    r.released(spaced("/4", 62_000, 1_000), 62_000);
    assertThat(urls(r.take(1, 0, "", null, 600_000, 70_000, 0))).containsExactly("http://a/3");
    assertThat(r.take(0, 0, "", null, 600_000, 70_999, 0)).isEmpty();
    assertThat(urls(r.take(0, 0, "", null, 600_000, 71_000, 0))).containsExactly("http://a/4");
  }

  private static CrawlRequest spaced(String path, long time, long spacing) {
    return new CrawlRequest(
        "http://a" + path, "a", Map.of(), time, 0, 1, 1, Long.MAX_VALUE, spacing);
  }

  @Test
  void aRequestWhoseLeaseRanOutIsNotHandedOutTheJobsNextReleaseIs() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    CrawlRequest stale = new CrawlRequest("http://a/x", "a", Map.of(), 0, 0, 1, 1, 1_000);
    r.released(stale, 1_000); // read after its lease: dropped
    assertThat(r.waiting()).isZero();
    r.released(stale, 999);
    assertThat(r.take(0, 0, "", null, 10, 1_000, 0)).isEmpty(); // ran out while it waited
    CrawlRequest again = new CrawlRequest("http://a/x", "a", Map.of(), 1_000, 0, 1, 1, 3_000);
    r.released(again, 1_000);
    assertThat(r.take(0, 0, "", null, 10, 1_001, 0)).containsExactly(again);
  }

  @Test
  void withMaxQueuesTheQueueServedFirstMovesOnAtEveryCall() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    for (int i = 0; i < 4; i++) {
      r.released(request("a", "/" + i), 0);
    }
    r.released(request("b", "/0"), 0);
    r.released(request("c", "/0"), 0);
    List<String> calls = new java.util.ArrayList<>();
    for (int call = 0; call < 5; call++) {
      calls.addAll(urls(r.take(1, 1, "", null, 60_000, 0, 0)));
    }
    assertThat(calls)
        .containsExactly("http://a/0", "http://b/0", "http://c/0", "http://a/1", "http://a/2");
  }

  @Test
  void aUrlReleasedAgainAndAgainWhileNobodyTakesItHoldsOneEntry() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    for (int i = 0; i < 100_000; i++) {
      r.released(request("a", "/x"), i);
      // a client that asks only for another queue, as with key or max_queues
      assertThat(r.take(0, 0, "b", null, 1_000, i, 0)).isEmpty();
    }
    assertThat(r.entries()).isEqualTo(1);
    assertThat(r.waiting()).isEqualTo(1);
    assertThat(urls(r.take(0, 0, "", null, 1_000, 100_000, 0))).containsExactly("http://a/x");
    assertThat(r.entries()).isZero();
  }

  private static CrawlRequest valued(String host, String path, double value) {
    return new CrawlRequest(
        "http://" + host + path, host, Map.of(), 0, 0, value, 1, Long.MAX_VALUE);
  }

  @Test
  void betweenQueuesTheMostValuableUrlsGoFirst() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    r.released(valued("a", "/low", 2), 0);
    r.released(valued("b", "/high", 9), 0);
    r.released(valued("c", "/mid", 5), 0);
    r.released(valued("d", "/new", Double.MAX_VALUE), 0); // a first crawl: no ceiling
    assertThat(urls(r.take(1, 2, "", null, 1_000, 0, 0)))
        .containsExactly("http://d/new", "http://b/high");
    assertThat(urls(r.take(1, 0, "", null, 1_000, 0, 0)))
        .containsExactly("http://c/mid", "http://a/low");
  }

  @Test
  void thePullCountsCallsThatLeftUrlsTheyCouldHaveHadAndCallsThatTookAll() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    long t = System.currentTimeMillis(); // one call below waits on the clock
    for (String host : List.of("a", "b", "c")) {
      r.released(request(host, "/1"), t);
    }
    r.take(1, 2, "", null, 60_000, t, 0); // two queues of three: one left ready
    assertThat(r.pullSample(t, 0)).isEqualTo(new PullSample(1, 1, 2, 1, 1));

    r.take(1, 2, "", null, 60_000, t, 0); // the last one: nothing left
    // Nothing at all, after a wait of several looks: still one call.
    r.take(1, 2, "", null, 60_000, System.currentTimeMillis(), 300);
    PullSample hungry = r.pullSample(System.currentTimeMillis(), 0);
    assertThat(hungry).isEqualTo(new PullSample(2, 0, 1, 0, 0));
    assertThat(hungry.emptied()).isEqualTo(2);

    long later = System.currentTimeMillis() + 120_000;
    r.released(request("a", "/2"), later);
    r.released(request("a", "/3"), later); // released together: the second is ready as soon
    r.take(1, 0, "", null, 60_000, later, 0);
    assertThat(r.pullSample(later, 0).leftReady()).isEqualTo(1);
  }

  @Test
  void thePullCountsAsTakeableOnlyWhatTheHostsSpacingLetsOutWithinTheHorizon() throws Exception {
    ReleasedUrls r = new ReleasedUrls();
    for (int i = 0; i < 30; i++) { // a host spaced by a second, 30 URLs ahead of the crawler
      r.released(spaced("/" + i, i * 1_000L, 1_000), 0);
    }
    r.released(request("b", "/1"), 0);
    r.released(request("b", "/2"), 0); // no spacing stated: both at once
    assertThat(r.pullSample(0, 10_000).takeable()).isEqualTo(11 + 2);
    r.take(1, 0, "a", null, 60_000, 0, 0); // the host's last hand-out now: the next a second on
    assertThat(r.pullSample(500, 10_000).takeable()).isEqualTo(10 + 2);
    r.block("b", 60_000);
    assertThat(r.pullSample(500, 10_000).takeable()).isEqualTo(10);
  }
}
