package io.recrawl.wire;

import java.util.List;
import java.util.Map;

/**
 * A validated status event: what a crawler reports about one URL (topic {@code crawl.status}).
 *
 * @param url the URL as fetched; in a crawl other than the default one, its page key (see {@link
 *     PageKeys})
 * @param host the partition key: the normalised host (or domain) of the URL
 * @param status what happened
 * @param time event time, epoch milliseconds (the fetch time)
 * @param metadata StormCrawler's metadata multimap; never null
 * @param changed the crawler's own change verdict, or null when it did not judge
 * @param weight the page's importance, or null to keep the current one (or the default)
 * @param httpStatus the HTTP status code, or null
 */
public record StatusEvent(
    String url,
    String host,
    CrawlStatus status,
    long time,
    Map<String, List<String>> metadata,
    Boolean changed,
    Double weight,
    Integer httpStatus) {

  /**
   * Metadata key of a known change rate, changes per day (from a sitemap's changefreq, or the
   * simulator's oracle): the page's estimate is set to it instead of learned.
   */
  public static final String CHANGE_RATE_KEY = "recrawl.change-rate";

  /**
   * Metadata key of the date a client wants the page fetched again, epoch ms (URL Frontier's {@code
   * refetchable_from_date} in the {@code client} mode): the page goes then, whatever its crawl
   * value. The codec has checked it is a positive integer.
   */
  public static final String REFETCH_AT_KEY = "recrawl.refetch-at";

  /** StormCrawler's metadata key of the fetch's HTTP status. */
  public static final String STATUS_CODE_KEY = "fetch.statusCode";

  /** StormCrawler's metadata key of the content's signature (its MD5 parse filter). */
  public static final String SIGNATURE_KEY = "signature";

  /**
   * The response's ETag, Last-Modified and Date headers as the job reads them: StormCrawler's
   * {@code protocol.md.prefix} ({@code protocol.}) and the header in lower case.
   */
  public static final String ETAG_KEY = "protocol.etag";

  public static final String LAST_MODIFIED_KEY = "protocol.last-modified";
  public static final String DATE_KEY = "protocol.date";

  /** Metadata key of a page's change signal: a sitemap's lastmod, a feed's date, a ping. */
  public static final String SIGNAL_KEY = "sitemap.lastmod";

  /** StormCrawler's metadata key of the previous fetch's signature. */
  public static final String SIGNATURE_OLD_KEY = "signatureOld";

  /** The same event at another time (a replay that spreads or moves events). */
  public StatusEvent at(long otherTime) {
    return new StatusEvent(url, host, status, otherTime, metadata, changed, weight, httpStatus);
  }

  /** The client's refetch date this event carries ({@link #REFETCH_AT_KEY}), or 0. */
  public long refetchAt() {
    String v = first(REFETCH_AT_KEY);
    return v == null ? 0 : Long.parseLong(v.trim());
  }

  /**
   * The known change rate this event carries, or null; the codec has checked that it is a positive
   * number.
   */
  public Double knownChangeRate() {
    String v = first(CHANGE_RATE_KEY);
    return v == null ? null : Double.valueOf(v.trim());
  }

  /**
   * The fetch's HTTP status: {@code http_status}, else StormCrawler's {@code fetch.statusCode}
   * metadata; null when neither holds an integer.
   */
  public Integer statusCode() {
    if (httpStatus != null) {
      return httpStatus;
    }
    String code = first(STATUS_CODE_KEY);
    if (code == null) {
      return null;
    }
    try {
      return Integer.valueOf(code.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The first value of a metadata key, or null. The key is matched exactly. */
  public String first(String key) {
    List<String> values = metadata.get(key);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /**
   * The first value of a metadata key matched case-insensitively, or null: for the keys that carry
   * an HTTP header, whose name is case-insensitive ({@code protocol.retry-after} also finds {@code
   * protocol.Retry-After}). An exact match wins; otherwise the first matching key in the metadata's
   * order that has a value.
   */
  public String firstIgnoreCase(String key) {
    String exact = first(key);
    if (exact != null) {
      return exact;
    }
    for (Map.Entry<String, List<String>> e : metadata.entrySet()) {
      if (e.getKey().equalsIgnoreCase(key) && !e.getValue().isEmpty()) {
        return e.getValue().get(0);
      }
    }
    return null;
  }
}
