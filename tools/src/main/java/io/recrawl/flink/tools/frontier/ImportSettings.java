package io.recrawl.flink.tools.frontier;

import io.recrawl.wire.HostKeys;
import io.recrawl.wire.StatusEvent;
import java.util.List;
import java.util.Locale;

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
 * @param firstDue when a fetched page is first due in the job
 */
public record ImportSettings(
    HostKeys.Mode mode,
    String weightKey,
    List<String> lastFetchKeys,
    long fetchIntervalMs,
    long now,
    FirstDue firstDue) {

  /** When a fetched page is first due in the job ({@code --first-due}). */
  public enum FirstDue {
    /** At its next fetch date in the crawl imported, spread over the host's pace. */
    NEXT_FETCH,
    /** When the engine's own plan from its last fetch says, as after any status. */
    VALUE;

    /** The command-line spelling. */
    public String option() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The value of a {@code --first-due} option. */
    public static FirstDue of(String option) {
      for (FirstDue f : values()) {
        if (f.option().equals(option)) {
          return f;
        }
      }
      throw new IllegalArgumentException(
          "--first-due must be next-fetch or value, got '" + option + "'");
    }
  }

  /** Pages first due at their next fetch dates (the default). */
  public ImportSettings(
      HostKeys.Mode mode,
      String weightKey,
      List<String> lastFetchKeys,
      long fetchIntervalMs,
      long now) {
    this(mode, weightKey, lastFetchKeys, fetchIntervalMs, now, FirstDue.NEXT_FETCH);
  }

  public static final String DEFAULT_WEIGHT_KEY = "recrawl.weight";
  public static final List<String> DEFAULT_LAST_FETCH_KEYS =
      List.of(PageImport.LAST_FETCH_KEY, StatusEvent.DATE_KEY);
  public static final long DEFAULT_FETCH_INTERVAL_MS = 1440 * 60_000L;
}
