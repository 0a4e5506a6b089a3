package io.recrawl.frontier;

/**
 * How a URL Frontier crawl ID travels through recrawl: in a metadata key of the status event, which
 * the job carries into the URL's crawl requests ({@code recrawl.metadata.transfer}).
 */
public final class CrawlIds {

  /** URL Frontier's name of the crawl a client does not name. */
  public static final String DEFAULT = "DEFAULT";

  /** The metadata key that carries a crawl ID other than the default one. */
  public static final String KEY = "urlfrontier.crawlID";

  private CrawlIds() {}

  /** The crawl ID a client meant: an empty one is the default crawl. */
  public static String normalise(String crawlId) {
    return crawlId == null || crawlId.isEmpty() ? DEFAULT : crawlId;
  }
}
