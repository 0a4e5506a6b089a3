package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A URL Frontier item as the job's status event. */
class UrlItemsTest {

  private static CrawlStatus known(Map<String, String> md) {
    return UrlItems.toEvent(FrontierClient.known("http://a.example/", 1, md), 5).status();
  }

  @Test
  void aKnownItemsStatusComesFromItsFetchMetadata() {
    assertThat(known(Map.of("fetch.statusCode", "200"))).isEqualTo(CrawlStatus.FETCHED);
    assertThat(known(Map.of("fetch.statusCode", "304"))).isEqualTo(CrawlStatus.FETCHED);
    assertThat(known(Map.of("fetch.statusCode", "301"))).isEqualTo(CrawlStatus.REDIRECTION);
    assertThat(known(Map.of("fetch.statusCode", "429"))).isEqualTo(CrawlStatus.FETCH_ERROR);
    assertThat(known(Map.of("fetch.statusCode", "503"))).isEqualTo(CrawlStatus.FETCH_ERROR);
    assertThat(known(Map.of("fetch.statusCode", "404"))).isEqualTo(CrawlStatus.ERROR);
    assertThat(known(Map.of("fetch.statusCode", "oops"))).isEqualTo(CrawlStatus.FETCH_ERROR);
    assertThat(known(Map.of("error.cause", "timeout"))).isEqualTo(CrawlStatus.FETCH_ERROR);
    assertThat(known(Map.of())).isEqualTo(CrawlStatus.FETCHED);
  }

  @Test
  void aKnownItemNeverToBeFetchedAgainIsAnError() {
    URLItem never = FrontierClient.known("http://a.example/", 0, Map.of("fetch.statusCode", "200"));
    assertThat(UrlItems.toEvent(never, 5).status()).isEqualTo(CrawlStatus.ERROR);
  }

  @Test
  void aDiscoveredItemIsDiscoveredAndTheMetadataTravelsWithTheEvent() {
    StatusEvent d = UrlItems.toEvent(FrontierClient.discovered("http://a.example/x"), 7);
    assertThat(d.status()).isEqualTo(CrawlStatus.DISCOVERED);
    assertThat(d.time()).isEqualTo(7);
    StatusEvent k =
        UrlItems.toEvent(
            FrontierClient.known(
                "http://a.example/x", 1, Map.of("signature", "abc", "protocol.etag", "\"e\"")),
            7);
    assertThat(k.metadata())
        .containsEntry("signature", List.of("abc"))
        .containsEntry("protocol.etag", List.of("\"e\""));
  }
}
