package io.recrawl.flink.tools.frontier;

import io.recrawl.wire.HostKeys;
import java.util.List;

/**
 * How rows become pages: the job's host keys, where a row's weight and last fetch time are read,
 * and the import's clock.
 *
 * @param mode the job's {@code recrawl.partition.mode}
 * @param weightKey the metadata key holding the page's weight, or null for none
 * @param lastFetchKeys metadata keys tried in turn for the last fetch time (ISO-8601 or HTTP date)
 * @param fetchIntervalMs without such a key, the last fetch is taken as this long before the next
 *     fetch date (StormCrawler's {@code fetchInterval.default})
 * @param now the import's clock, epoch ms: next fetch dates before it are overdue
 */
public record ImportSettings(
    HostKeys.Mode mode,
    String weightKey,
    List<String> lastFetchKeys,
    long fetchIntervalMs,
    long now) {

  public static final String DEFAULT_WEIGHT_KEY = "recrawl.weight";
  public static final List<String> DEFAULT_LAST_FETCH_KEYS =
      List.of(PageImport.LAST_FETCH_KEY, "protocol.date");
  public static final long DEFAULT_FETCH_INTERVAL_MS = 1440 * 60_000L;
}
