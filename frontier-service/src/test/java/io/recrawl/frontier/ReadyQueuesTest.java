package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadyQueuesTest {

  final ReadyQueues q = new ReadyQueues();

  static URLInfo info(String crawl, String key, String url) {
    return URLInfo.newBuilder().setUrl(url).setKey(key).setCrawlID(crawl).build();
  }

  void add(String crawl, String key, String url) {
    q.add(crawl, key, info(crawl, key, url));
  }

  @Test
  void aUrlHandedOutIsNotHandedOutAgainBeforeItsDelayUnlessUpdated() {
    add("c", "h", "http://h/1");
    assertThat(q.take("c", "", 0, 0, 10_000, 1_000)).hasSize(1);
    // the job releases it again (its lease ran out, or a duplicate): held until the delay passes
    add("c", "h", "http://h/1");
    assertThat(q.take("c", "", 0, 0, 10_000, 5_000)).isEmpty();
    assertThat(q.take("c", "", 0, 0, 10_000, 11_000))
        .extracting(URLInfo::getUrl)
        .containsExactly("http://h/1");
    // the client reported on it: the job's next release goes out at once
    q.updated("c", "http://h/1");
    add("c", "h", "http://h/1");
    assertThat(q.take("c", "", 0, 0, 10_000, 12_000)).hasSize(1);
  }

  @Test
  void unsentUrlsOfACancelledStreamWaitAgain() {
    add("c", "h", "http://h/1");
    add("c", "h", "http://h/2");
    List<URLInfo> taken = q.take("c", "", 0, 0, 60_000, 0);
    assertThat(taken).hasSize(2);
    q.giveBack(taken.subList(1, 2));
    assertThat(q.waiting("c", "")).isEqualTo(1);
    assertThat(q.inProcess("c", "", 1)).isEqualTo(1);
    assertThat(q.take("c", "", 0, 0, 60_000, 1))
        .extracting(URLInfo::getUrl)
        .containsExactly("http://h/2");
  }

  @Test
  void maxUrlsPerQueueMaxQueuesKeyAndCrawl() {
    for (int h = 0; h < 3; h++) {
      for (int p = 0; p < 3; p++) {
        add("c", "h" + h, "http://h" + h + "/" + p);
      }
    }
    add("other", "h0", "http://h0/other");
    assertThat(q.take("c", "", 2, 2, 60_000, 0)).hasSize(4);
    assertThat(q.take("c", "h2", 0, 0, 60_000, 0)).hasSize(3);
    assertThat(q.take(null, "", 0, 0, 60_000, 0))
        .extracting(URLInfo::getUrl)
        .containsExactlyInAnyOrder("http://h0/2", "http://h1/2", "http://h0/other");
  }

  @Test
  void blockDelayLimitAndActive() {
    add("c", "b", "http://b/1");
    q.block("c", "b", 5_000);
    assertThat(q.take("c", "", 0, 0, 1, 0)).isEmpty();
    assertThat(q.take("c", "", 0, 0, 1, 5_000)).hasSize(1);

    q.delay("c", "d", 3_000);
    add("c", "d", "http://d/1");
    add("c", "d", "http://d/2");
    assertThat(q.take("c", "d", 1, 0, 1, 10_000)).hasSize(1);
    assertThat(q.take("c", "d", 1, 0, 1, 12_000)).isEmpty();
    assertThat(q.take("c", "d", 1, 0, 1, 13_000)).hasSize(1);

    q.limit("c", "l", 1);
    add("c", "l", "http://l/1");
    add("c", "l", "http://l/2");
    assertThat(q.take("c", "l", 0, 0, 1, 0)).hasSize(1);
    assertThat(q.take("c", "l", 0, 0, 1, 0)).isEmpty();

    q.setActive(false);
    add("c", "a", "http://a/1");
    assertThat(q.take("c", "", 0, 0, 1, 20_000)).isEmpty();
    q.setActive(true);
    assertThat(q.take("c", "a", 0, 0, 1, 20_000)).hasSize(1);
  }

  @Test
  void deletionsCountWhatWasWaiting() {
    add("c", "x", "http://x/1");
    add("c", "x", "http://x/2");
    add("c", "y", "http://y/1");
    assertThat(q.deleteQueue("c", "x")).isEqualTo(2);
    assertThat(q.deleteQueue("c", "x")).isZero();
    assertThat(q.deleteCrawl("c")).isEqualTo(1);
    assertThat(q.crawlIds()).isEmpty();
  }
}
