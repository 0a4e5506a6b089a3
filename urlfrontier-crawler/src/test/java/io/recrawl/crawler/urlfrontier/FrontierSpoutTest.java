package io.recrawl.crawler.urlfrontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FrontierSpoutTest {

  /**
   * A page the frontier hands out again within 30 s of its fetch (a fast-changing page, a crawl in
   * compressed time) is taken, not dropped by StormCrawler's purgatory for a search index.
   */
  @Test
  void aUrlAckedIsTakenAgainAtOnceUnlessTheTopologySetsAPurgatory() {
    assertThat(FrontierSpout.withDefaults(Map.of())).containsEntry(FrontierSpout.PURGATORY, 0);
    assertThat(FrontierSpout.withDefaults(Map.of(FrontierSpout.PURGATORY, 30)))
        .containsEntry(FrontierSpout.PURGATORY, 30);
  }
}
