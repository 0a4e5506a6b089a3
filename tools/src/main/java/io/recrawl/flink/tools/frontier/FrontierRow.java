package io.recrawl.flink.tools.frontier;

import io.recrawl.wire.CrawlStatus;
import java.util.List;
import java.util.Map;

/**
 * One URL of an existing frontier as its store keeps it, before it is checked.
 *
 * @param line the line of the input it starts on (1 = the first)
 * @param url the URL as stored
 * @param status StormCrawler's status
 * @param nextFetch the next fetch date, epoch ms; {@link #NEVER} when the store has none
 * @param metadata StormCrawler's metadata, keys unescaped
 * @param raw the input text, for the reject file
 */
public record FrontierRow(
    long line,
    String url,
    CrawlStatus status,
    long nextFetch,
    Map<String, List<String>> metadata,
    String raw) {

  /** No next fetch date: the store would never fetch the URL again. */
  public static final long NEVER = Long.MAX_VALUE;
}
