package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.HostKeys;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ItemMappingTest {

  final ItemMapping mapping = new ItemMapping(HostKeys.Mode.BY_HOST);
  static final long NOW = 1_700_000_000_000L;

  ItemMapping.Mapped known(Map<String, String> md, long date) {
    return mapping.map(FrontierClient.known("http://Example.com:80/a", "", md, date), NOW);
  }

  @Test
  void aDiscoveredItemIsDiscoveredKeyedByTheJobsHostKey() {
    ItemMapping.Mapped m =
        mapping.map(FrontierClient.discovered("http://Example.com:80/a", ""), NOW);
    assertThat(m.ok()).isTrue();
    assertThat(m.event().status()).isEqualTo(CrawlStatus.DISCOVERED);
    assertThat(m.event().host()).isEqualTo("example.com");
    assertThat(m.event().time()).isEqualTo(NOW);
    assertThat(m.crawlId()).isEqualTo(CrawlIds.DEFAULT);
    assertThat(m.event().metadata()).doesNotContainKey(CrawlIds.KEY);
  }

  @Test
  void knownItemsTakeTheirStatusFromStormCrawlersMetadata() {
    assertThat(known(Map.of("fetch.statusCode", "200", "signature", "s"), 1).event().status())
        .isEqualTo(CrawlStatus.FETCHED);
    assertThat(known(Map.of("fetch.statusCode", "304"), 1).event().status())
        .isEqualTo(CrawlStatus.FETCHED);
    assertThat(known(Map.of("fetch.statusCode", "301"), 1).event().status())
        .isEqualTo(CrawlStatus.REDIRECTION);
    assertThat(known(Map.of("fetch.statusCode", "404"), 1).event().status())
        .isEqualTo(CrawlStatus.ERROR);
    assertThat(known(Map.of("fetch.statusCode", "429"), 1).event().status())
        .isEqualTo(CrawlStatus.FETCH_ERROR);
    assertThat(known(Map.of("fetch.statusCode", "503"), 1).event().status())
        .isEqualTo(CrawlStatus.FETCH_ERROR);
    assertThat(known(Map.of("fetch.exception", "timeout"), 1).event().status())
        .isEqualTo(CrawlStatus.FETCH_ERROR);
    assertThat(known(Map.of("fetch.statusCode", "200"), 0).event().status())
        .as("refetchable_from_date 0: never again")
        .isEqualTo(CrawlStatus.ERROR);
  }

  @Test
  void fetchEvidenceAndTheClientsDateTravelInTheMetadata() {
    ItemMapping.Mapped m =
        known(
            Map.of("fetch.statusCode", "200", "signature", "abc", "protocol.etag", "\"e1\""), 1234);
    assertThat(m.event().httpStatus()).isEqualTo(200);
    assertThat(m.event().first("signature")).isEqualTo("abc");
    assertThat(m.event().first("protocol.etag")).isEqualTo("\"e1\"");
    assertThat(m.event().first(ItemMapping.REFETCH_DATE_KEY)).isEqualTo("1234");
  }

  @Test
  void aCrawlIdTravelsInTheMetadata() {
    ItemMapping.Mapped m = mapping.map(FrontierClient.discovered("http://a.test/", "news"), NOW);
    assertThat(m.crawlId()).isEqualTo("news");
    assertThat(m.event().first(CrawlIds.KEY)).isEqualTo("news");
  }

  @Test
  void whatTheJobsCodecRefusesIsRefusedWithItsReason() {
    assertThat(mapping.map(FrontierClient.discovered("not a url", ""), NOW).refused().reason())
        .isEqualTo("bad_url");
    assertThat(mapping.map(URLItem.getDefaultInstance(), NOW).ok()).isFalse();
    assertThat(
            mapping
                .map(
                    FrontierClient.known(
                        "http://a.test/", "", Map.of("recrawl.change-rate", "-1"), 5),
                    NOW)
                .refused()
                .reason())
        .isEqualTo("bad_metadata");
  }
}
