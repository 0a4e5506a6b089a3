package io.recrawl.wire;

/** What happened to a URL, with StormCrawler's names and meanings. */
public enum CrawlStatus {
  /** Found as a link; inserted if absent, otherwise ignored. */
  DISCOVERED,
  /** Fetched (HTTP 200, or 304 = unchanged). */
  FETCHED,
  /** A transient failure: retried with back-off, ERROR after too many. */
  FETCH_ERROR,
  /** A redirect: a fetch without content; the target arrives as DISCOVERED. */
  REDIRECTION,
  /** A permanent failure: no more scheduling. */
  ERROR
}
