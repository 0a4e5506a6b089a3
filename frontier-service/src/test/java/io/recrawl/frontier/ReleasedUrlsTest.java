package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.CrawlRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReleasedUrlsTest {

  final ReleasedUrls urls = new ReleasedUrls();

  static CrawlRequest request(String host, String url) {
    return new CrawlRequest(url, host, Map.of(), 0, 0, 1, 0, 60_000);
  }

  List<CrawlRequest> take(int perQueue, int maxQueues, String key, long delayMs, long now)
      throws InterruptedException {
    return urls.take(perQueue, maxQueues, key, delayMs, now, 0);
  }

  @Test
  void aUrlHandedOutIsNotHandedOutAgainBeforeItsDelayUnlessUpdated() throws Exception {
    urls.released(request("h", "http://h/1"));
    assertThat(take(0, 0, "", 10_000, 1_000)).hasSize(1);
    // the job releases it again (its lease ran out): held until the delay is over
    urls.released(request("h", "http://h/1"));
    assertThat(take(0, 0, "", 10_000, 5_000)).isEmpty();
    assertThat(take(0, 0, "", 10_000, 11_000))
        .extracting(CrawlRequest::url)
        .containsExactly("http://h/1");
    // the client reported on it: the job's next release goes out at once
    urls.updated("http://h/1");
    urls.released(request("h", "http://h/1"));
    assertThat(take(0, 0, "", 10_000, 12_000)).hasSize(1);
  }

  @Test
  void unsentRequestsOfACancelledStreamWaitAgainFirstInLine() throws Exception {
    urls.released(request("h", "http://h/1"));
    urls.released(request("h", "http://h/2"));
    List<CrawlRequest> taken = take(0, 0, "", 60_000, 0);
    assertThat(taken).hasSize(2);
    urls.giveBack(taken.subList(1, 2));
    assertThat(urls.waiting()).isEqualTo(1);
    assertThat(take(1, 0, "", 60_000, 1))
        .extracting(CrawlRequest::url)
        .containsExactly("http://h/2");
  }

  @Test
  void maxUrlsPerQueueMaxQueuesAndKey() throws Exception {
    for (int h = 0; h < 3; h++) {
      for (int p = 0; p < 3; p++) {
        urls.released(request("h" + h, "http://h" + h + "/" + p));
      }
    }
    List<CrawlRequest> some = take(2, 2, "", 60_000, 0);
    assertThat(some).hasSize(4);
    assertThat(some.stream().map(CrawlRequest::host).distinct()).hasSize(2);
    assertThat(take(0, 0, "h2", 60_000, 0)).hasSize(3);
    assertThat(take(0, 0, "", 60_000, 0)).hasSize(2);
    assertThat(urls.waiting()).isZero();
  }

  @Test
  void aLaterReleaseOfAWaitingUrlReplacesIt() throws Exception {
    urls.released(request("h", "http://h/1"));
    urls.released(request("h", "http://h/1"));
    assertThat(urls.waiting()).isEqualTo(1);
  }

  @Test
  void anEmptyTakeWaitsAtMostItsTime() throws Exception {
    long t0 = System.nanoTime();
    assertThat(urls.take(0, 0, "", 1_000, System.currentTimeMillis(), 200)).isEmpty();
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(ms).isBetween(150L, 2_000L);
  }
}
