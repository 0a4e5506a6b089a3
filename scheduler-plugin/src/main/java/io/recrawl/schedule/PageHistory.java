package io.recrawl.schedule;

import io.recrawl.estimate.ChangeEvidence;
import io.recrawl.estimate.ChangeStats;
import io.recrawl.wire.Dates;
import java.time.Instant;

/**
 * What the revisit policy remembers about a URL between fetches, kept in the URL's own metadata so
 * that any status store persists it (list these keys in StormCrawler's {@code metadata.persist}).
 */
public final class PageHistory {

  /** Gamma posterior shape of the change rate. */
  public static final String SHAPE = "recrawl.shape";

  /** Gamma posterior rate parameter (days of observation, discounted). */
  public static final String RATE = "recrawl.rate";

  /** ISO-8601 instant of the last successful fetch. */
  public static final String LAST_FETCH = "recrawl.lastFetch";

  /** Consecutive fetch errors. */
  public static final String ERRORS = "recrawl.errors";

  /** The ETag of the last fetch, to compare with the next one. */
  public static final String ETAG = "recrawl.etag";

  /**
   * The content signature of the last fetch, used when the parser keeps no {@code signatureOld}.
   */
  public static final String SIGNATURE = "recrawl.signature";

  /** Informational: the current change-rate estimate, per day. */
  public static final String CHANGE_RATE = "recrawl.changeRate";

  /** Unprefixed: StormCrawler's HTTP protocols send If-Modified-Since from it. */
  public static final String IF_MODIFIED_SINCE = "last-modified";

  private PageHistory() {}

  /**
   * The server's Last-Modified header as the value of {@link #IF_MODIFIED_SINCE}, or null when it
   * is not a date: an ISO instant, the only form StormCrawler 2.4's {@code
   * HttpHeaders.formatHttpDate} turns back into If-Modified-Since (anything else gives an empty
   * header, and no 304 ever comes).
   */
  public static String ifModifiedSince(String lastModifiedHeader) {
    Long t = ChangeEvidence.parseDate(lastModifiedHeader);
    return t == null ? null : Instant.ofEpochMilli(t).toString();
  }

  /** The stored posterior, or null when absent or unreadable (then the prior applies). */
  public static ChangeStats stats(MetadataView md) {
    Double shape = positive(md.get(SHAPE));
    Double rate = positive(md.get(RATE));
    return shape == null || rate == null ? null : new ChangeStats(shape, rate);
  }

  public static void setStats(MetadataView md, ChangeStats s, double changeRate) {
    md.set(SHAPE, Double.toString(s.shape()));
    md.set(RATE, Double.toString(s.rate()));
    md.set(CHANGE_RATE, Double.toString(changeRate));
  }

  /** Epoch ms of the last successful fetch; 0 when unknown. */
  public static long lastFetch(MetadataView md) {
    Long t = Dates.instant(md.get(LAST_FETCH));
    return t == null ? 0 : t;
  }

  public static void setLastFetch(MetadataView md, long epochMillis) {
    md.set(LAST_FETCH, Instant.ofEpochMilli(epochMillis).toString());
  }

  public static int errors(MetadataView md) {
    String v = md.get(ERRORS);
    if (v == null) {
      return 0;
    }
    try {
      return Math.max(0, Integer.parseInt(v.trim()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  public static void setErrors(MetadataView md, int errors) {
    if (errors <= 0) {
      md.remove(ERRORS);
    } else {
      md.set(ERRORS, Integer.toString(errors));
    }
  }

  /** The positive finite number a metadata value states, or null (absent, malformed, 0 or less). */
  public static Double positive(String v) {
    if (v == null) {
      return null;
    }
    try {
      double d = Double.parseDouble(v.trim());
      return d > 0 && Double.isFinite(d) ? d : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
