package io.recrawl.wire;

import java.util.List;
import java.util.Map;

/**
 * "Fetch this URL now" (topic {@code crawl.requests}), with the numbers that explain the decision.
 *
 * @param url the URL to fetch
 * @param host the partition key
 * @param metadata the metadata carried over to the crawler
 * @param time event time of the release, epoch milliseconds
 * @param due when the page became due, epoch milliseconds
 * @param value the page's crawl value at release; an unbounded one (a page never fetched whose
 *     value has no ceiling) is stated as the largest finite double, since JSON has no infinity
 * @param threshold the host's threshold (host lambda + global lambda) at release
 * @param lease when the release expires and the URL is released again, epoch milliseconds
 * @param spacing the host's spacing at release, milliseconds: the least time the job leaves between
 *     two of its fetches (its rate limit); 0 when not stated (a request of an older job)
 */
public record CrawlRequest(
    String url,
    String host,
    Map<String, List<String>> metadata,
    long time,
    long due,
    double value,
    double threshold,
    long lease,
    long spacing) {

  public CrawlRequest {
    value = Math.min(value, Double.MAX_VALUE);
    spacing = Math.max(0, spacing);
  }

  /** A request that does not state its host's spacing. */
  public CrawlRequest(
      String url,
      String host,
      Map<String, List<String>> metadata,
      long time,
      long due,
      double value,
      double threshold,
      long lease) {
    this(url, host, metadata, time, due, value, threshold, lease, 0);
  }
}
