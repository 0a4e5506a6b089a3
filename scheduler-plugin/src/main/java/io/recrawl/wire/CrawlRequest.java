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
 */
public record CrawlRequest(
    String url,
    String host,
    Map<String, List<String>> metadata,
    long time,
    long due,
    double value,
    double threshold,
    long lease) {

  public CrawlRequest {
    value = Math.min(value, Double.MAX_VALUE);
  }
}
