package io.recrawl.frontier;

import io.recrawl.wire.CrawlStatus;
import java.util.List;
import java.util.Map;

/**
 * The status of a known item, read from the metadata that StormCrawler's URL Frontier status
 * updater sends: it sends no status of its own, only the fetch's metadata and a refetch date.
 */
final class KnownStatus {

  /** Metadata keys whose presence says that the fetch failed without an HTTP answer. */
  static final List<String> ERROR_KEYS =
      List.of("fetch.exception", "error.cause", "error.message", "fetch.error.count");

  private KnownStatus() {}

  /**
   * @param refetchableFromDate the client's date, seconds since the epoch; 0 means never again
   */
  static CrawlStatus of(
      Map<String, List<String>> metadata, Integer httpStatus, long refetchableFromDate) {
    if (refetchableFromDate == 0) {
      return CrawlStatus.ERROR;
    }
    if (httpStatus == null) {
      for (String key : ERROR_KEYS) {
        if (metadata.containsKey(key)) {
          return CrawlStatus.FETCH_ERROR;
        }
      }
      return CrawlStatus.FETCHED;
    }
    int code = httpStatus;
    if (code == 304 || (code >= 200 && code < 300)) {
      return CrawlStatus.FETCHED;
    }
    if (code == 301 || code == 302 || code == 303 || code == 307 || code == 308) {
      return CrawlStatus.REDIRECTION;
    }
    if (code == 408 || code == 429 || code >= 500 || code < 100) {
      return CrawlStatus.FETCH_ERROR;
    }
    return CrawlStatus.ERROR;
  }

  /** StormCrawler's {@code fetch.statusCode}, or null when absent or not a number. */
  static Integer httpStatus(Map<String, List<String>> metadata) {
    List<String> v = metadata.get("fetch.statusCode");
    if (v == null || v.isEmpty()) {
      return null;
    }
    try {
      return Integer.valueOf(v.get(0).trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
