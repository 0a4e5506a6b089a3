package io.recrawl.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Page keys keep crawls apart, and a crawl travels beside the URL on the wire. */
class PageKeysTest {

  @Test
  void theDefaultCrawlIsTheBareUrlAndAnotherIsQualified() {
    String url = "http://a.example/with space?q=1";
    assertThat(PageKeys.of(null, url)).isEqualTo(url);
    assertThat(PageKeys.of("", url)).isEqualTo(url);
    assertThat(PageKeys.of("DEFAULT", url)).isEqualTo(url);
    String key = PageKeys.of("news desk", url);
    assertThat(PageKeys.crawl(key)).isEqualTo("news desk");
    assertThat(PageKeys.url(key)).isEqualTo(url);
    assertThat(PageKeys.crawl(url)).isEqualTo("DEFAULT");
    assertThat(PageKeys.url(url)).isEqualTo(url);
    assertThat(PageKeys.inCrawl(key, "news desk")).isTrue();
    assertThat(PageKeys.inCrawl(key, "news")).isFalse();
    assertThat(PageKeys.inCrawl(key, "DEFAULT")).isFalse();
    assertThat(PageKeys.inCrawl(url, "")).isTrue();
    assertThat(PageKeys.inCrawl(key, null)).isTrue();
  }

  @Test
  void aStatusEventAndARequestCarryTheirCrawlBesideTheUrl() {
    StatusEventCodec codec = StatusEventCodec.withDefaults();
    StatusEvent e =
        codec
            .parse(
                "{\"url\":\"http://A.example/p\",\"crawl\":\"news\",\"status\":\"DISCOVERED\","
                    + "\"time\":1000}",
                1000)
            .value();
    assertThat(e.url()).isEqualTo(PageKeys.of("news", "http://a.example/p"));
    assertThat(e.host()).isEqualTo("a.example");
    String json = StatusEventCodec.toJson(e);
    assertThat(json).contains("\"url\":\"http://a.example/p\"").contains("\"crawl\":\"news\"");
    assertThat(codec.parse(json, 1000).value()).isEqualTo(e);

    CrawlRequest r = new CrawlRequest(e.url(), "a.example", Map.of(), 1, 1, 1, 1, 2);
    String request = CrawlRequestCodec.toJson(r);
    assertThat(request).contains("\"url\":\"http://a.example/p\"").contains("\"crawl\":\"news\"");
    assertThat(CrawlRequestCodec.parse(request, 1).value()).isEqualTo(r);
  }

  @Test
  void aCrawlIdWithAControlCharacterIsRefused() {
    Parsed<StatusEvent> p =
        StatusEventCodec.withDefaults()
            .parse(
                "{\"url\":\"http://a.example/\",\"crawl\":\"a\\tb\",\"status\":\"DISCOVERED\","
                    + "\"time\":1000}",
                1000);
    assertThat(p.ok()).isFalse();
    assertThat(p.deadLetter().reason()).isEqualTo(DeadLetterReason.BAD_CRAWL);
  }
}
