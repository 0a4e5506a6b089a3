package io.recrawl.frontier;

import static io.recrawl.frontier.FrontierSettings.RefetchMode.CLIENT;
import static io.recrawl.frontier.FrontierSettings.RefetchMode.VALUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A URL Frontier item as the job's status event. */
class UrlItemsTest {

  private static CrawlStatus known(Map<String, String> md) {
    return UrlItems.toEvent(FrontierClient.known("http://a.example/", 1, md), 5, VALUE).status();
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
    assertThat(UrlItems.toEvent(never, 5, VALUE).status()).isEqualTo(CrawlStatus.ERROR);
  }

  @Test
  void aDiscoveredItemIsDiscoveredAndTheMetadataTravelsWithTheEvent() {
    StatusEvent d = UrlItems.toEvent(FrontierClient.discovered("http://a.example/x"), 7, VALUE);
    assertThat(d.status()).isEqualTo(CrawlStatus.DISCOVERED);
    assertThat(d.time()).isEqualTo(7);
    StatusEvent k =
        UrlItems.toEvent(
            FrontierClient.known(
                "http://a.example/x", 1, Map.of("signature", "abc", "protocol.etag", "\"e\"")),
            7,
            VALUE);
    assertThat(k.metadata())
        .containsEntry("signature", List.of("abc"))
        .containsEntry("protocol.etag", List.of("\"e\""));
  }

  @Test
  void inTheClientModeAKnownItemsDateTravelsInMillisecondsAndOnlyThere() {
    URLItem item =
        FrontierClient.known(
            "http://a.example/x", 1_700_000_000L, Map.of(StatusEvent.REFETCH_AT_KEY, "1"));
    assertThat(UrlItems.toEvent(item, 5, CLIENT).metadata())
        .containsEntry(StatusEvent.REFETCH_AT_KEY, List.of("1700000000000"));
    // A client's own key of that name is not taken for a date in the value mode.
    assertThat(UrlItems.toEvent(item, 5, VALUE).metadata())
        .doesNotContainKey(StatusEvent.REFETCH_AT_KEY);
    assertThat(
            UrlItems.toEvent(FrontierClient.discovered("http://a.example/y"), 5, CLIENT).metadata())
        .doesNotContainKey(StatusEvent.REFETCH_AT_KEY);
  }

  @Test
  void anItemOfAnotherCrawlIsKeyedInItsCrawlAndTheDefaultCrawlIsTheBareUrl() {
    URLItem bespoke =
        URLItem.newBuilder()
            .setDiscovered(
                crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem.newBuilder()
                    .setInfo(
                        crawlercommons.urlfrontier.Urlfrontier.URLInfo.newBuilder()
                            .setUrl("http://a.example/a b")
                            .setCrawlID("my crawl")))
            .build();
    String key = UrlItems.toEvent(bespoke, 5, VALUE).url();
    assertThat(io.recrawl.wire.PageKeys.crawl(key)).isEqualTo("my crawl");
    assertThat(io.recrawl.wire.PageKeys.url(key)).isEqualTo("http://a.example/a b");
    assertThat(UrlItems.toEvent(FrontierClient.discovered("http://a.example/"), 5, VALUE).url())
        .isEqualTo("http://a.example/");
  }

  @Test
  void inTheClientModeOnlyADateOfZeroMakesAPageGone() {
    long in1Minute = System.currentTimeMillis() / 1_000 + 60;
    URLItem notFound =
        FrontierClient.known("http://a.example/404", in1Minute, Map.of("fetch.statusCode", "404"));
    StatusEvent client = UrlItems.toEvent(notFound, 5, CLIENT);
    assertThat(client.status()).isNotEqualTo(CrawlStatus.ERROR);
    assertThat(client.metadata())
        .containsEntry(StatusEvent.REFETCH_AT_KEY, List.of(Long.toString(in1Minute * 1_000)));
    assertThat(UrlItems.toEvent(notFound, 5, VALUE).status()).isEqualTo(CrawlStatus.ERROR);
    URLItem never = FrontierClient.known("http://a.example/gone", 0, Map.of());
    assertThat(UrlItems.toEvent(never, 5, CLIENT).status()).isEqualTo(CrawlStatus.ERROR);
  }

  @Test
  void aDiscoveryWeighsItsPageAsASeedLineDoes() {
    URLItem weighed =
        URLItem.newBuilder()
            .setDiscovered(
                DiscoveredURLItem.newBuilder()
                    .setInfo(
                        URLInfo.newBuilder()
                            .setUrl("http://a.example/heavy")
                            .putMetadata(
                                "recrawl.weight",
                                StringList.newBuilder().addValues("2.5").build())))
            .build();
    assertThat(UrlItems.toEvent(weighed, 7, VALUE).weight()).isEqualTo(2.5);
    assertThat(UrlItems.toEvent(FrontierClient.discovered("http://a.example/x"), 7, VALUE).weight())
        .isNull();
    assertThatThrownBy(
            () ->
                UrlItems.toEvent(
                    FrontierClient.known("http://a.example/", 1, Map.of("recrawl.weight", "heavy")),
                    7,
                    VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad_weight");
  }
}
