package io.recrawl.crawler.urlfrontier;

import static org.assertj.core.api.Assertions.assertThat;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.persistence.Status;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the status updater puts for each status, and what the spout makes of a URL it gets. */
class FrontierStatusUpdaterTest {

  private static Metadata metadata() {
    Metadata m = new Metadata();
    m.addValue("fetch.statusCode", "200");
    m.setValues("signature", new String[] {"abc", "def"});
    return m;
  }

  @Test
  void aFetchIsAKnownItemWithItsMetadataAndItsRefetchDateInSeconds() {
    URLItem item =
        FrontierStatusUpdater.item(
            "http://a.example/x",
            Status.FETCHED,
            metadata(),
            Optional.of(new Date(1_700_000_123_456L)));
    assertThat(item.getID()).isEqualTo("http://a.example/x");
    assertThat(item.hasKnown()).isTrue();
    assertThat(item.getKnown().getRefetchableFromDate()).isEqualTo(1_700_000_123L);
    assertThat(item.getKnown().getInfo().getMetadataMap().get("signature").getValuesList())
        .containsExactly("abc", "def");
  }

  @Test
  void aStatusTheSchedulerNeverWantsAgainIsRefetchableFromZero() {
    URLItem item =
        FrontierStatusUpdater.item(
            "http://a.example/gone", Status.ERROR, new Metadata(), Optional.empty());
    assertThat(item.getKnown().getRefetchableFromDate()).isZero();
  }

  @Test
  void aDiscoveryIsADiscoveredItem() {
    URLItem item =
        FrontierStatusUpdater.item(
            "http://a.example/new", Status.DISCOVERED, metadata(), Optional.empty());
    assertThat(item.hasDiscovered()).isTrue();
    assertThat(item.getDiscovered().getInfo().getUrl()).isEqualTo("http://a.example/new");
  }

  @Test
  void theSpoutKeepsEveryValueOfAUrlsMetadata() {
    URLItem item =
        FrontierStatusUpdater.item(
            "http://a.example/x", Status.FETCHED, metadata(), Optional.empty());
    Metadata back = FrontierSpout.metadata(item.getKnown().getInfo());
    assertThat(Map.of("signature", List.of(back.getValues("signature"))))
        .containsEntry("signature", List.of("abc", "def"));
    assertThat(back.getFirstValue("fetch.statusCode")).isEqualTo("200");
  }
}
