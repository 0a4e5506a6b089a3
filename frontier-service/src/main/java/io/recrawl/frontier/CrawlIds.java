package io.recrawl.frontier;

/** Crawl identifiers: what a client sends, and the default crawl's name. */
final class CrawlIds {

  /** The crawl of an item or request that names none (URL Frontier's {@code CrawlID.DEFAULT}). */
  static final String DEFAULT = "DEFAULT";

  private CrawlIds() {}

  static String orDefault(String crawlId) {
    return crawlId == null || crawlId.isEmpty() ? DEFAULT : crawlId;
  }
}
