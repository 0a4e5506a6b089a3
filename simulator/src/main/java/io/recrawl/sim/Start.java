package io.recrawl.sim;

import java.util.Locale;

/** What a run starts from ({@code --start}). */
public enum Start {
  /** An empty index: every page is discovered at day 0 and stale until its first fetch. */
  EMPTY,
  /**
   * A crawl under way ({@link PreviousCrawl}): every page fetched once before day 0; each policy is
   * told the last fetch times and plans from them.
   */
  CRAWLED,
  /**
   * The same crawl, taken over as {@code bin/recrawl import} does: {@code crawl-value} also plans
   * each page's first fetch at its next fetch date in that crawl.
   */
  IMPORTED;

  /** The command-line spelling. */
  public String option() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The value of a {@code --start} option. */
  public static Start of(String option) {
    for (Start s : values()) {
      if (s.option().equals(option)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "--start must be empty, crawled or imported; got '" + option + "'");
  }
}
