package io.recrawl.schedule;

import io.recrawl.estimate.ChangeEvidence;
import io.recrawl.estimate.ChangeEvidence.Verdict;
import io.recrawl.estimate.ChangeRateEstimator;
import io.recrawl.estimate.ChangeStats;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.OptionalLong;

/**
 * Per-URL revisit decisions for a crawler that keeps its own status store: after each fetch it
 * updates the page's change-rate posterior from the change evidence and schedules the next fetch
 * when the crawl value V(tau) reaches the configured threshold theta, within the revisit bounds.
 * With a fixed theta this is the blog's policy for one host and one budget price.
 */
public final class RevisitPolicy {

  private static final double MINUTES_PER_DAY = 1440.0;
  private static final long MILLIS_PER_MINUTE = 60_000L;
  private static final double MILLIS_PER_DAY = 86_400_000.0;

  private final RevisitSettings settings;
  private final ChangeRateEstimator estimator;

  public RevisitPolicy(RevisitSettings settings) {
    this.settings = settings;
    this.estimator = settings.estimator();
  }

  /**
   * Updates the URL's history in {@code md} and returns the epoch ms of its next fetch, or empty
   * for never.
   */
  public OptionalLong schedule(CrawlStatus status, MetadataView md, long nowMillis) {
    switch (status) {
      case DISCOVERED:
        return OptionalLong.of(nowMillis);
      case FETCHED:
        PageHistory.setErrors(md, 0);
        return afterFetch(md, nowMillis);
      case REDIRECTION:
        // A fetch without content: no change evidence, the page keeps its current schedule rule.
        PageHistory.setErrors(md, 0);
        return atThreshold(md, currentStats(md), nowMillis);
      case FETCH_ERROR:
        return afterFetchError(md, nowMillis);
      case ERROR:
      default:
        PageHistory.setErrors(md, 0);
        return afterError(nowMillis);
    }
  }

  /** The change verdict of a fetch, from the fetcher's metadata and the page's history. */
  public Verdict evidence(MetadataView md) {
    String prefix = settings.protocolPrefix();
    String previousSignature = md.get(StatusEvent.SIGNATURE_OLD_KEY);
    if (previousSignature == null) {
      previousSignature = md.get(PageHistory.SIGNATURE);
    }
    return ChangeEvidence.assess(
        null,
        statusCode(md.get(StatusEvent.STATUS_CODE_KEY)),
        md.get(StatusEvent.SIGNATURE_KEY),
        previousSignature,
        md.get(prefix + "etag"),
        md.get(PageHistory.ETAG),
        ChangeEvidence.parseDate(md.get(prefix + "last-modified")),
        PageHistory.lastFetch(md));
  }

  private OptionalLong afterFetch(MetadataView md, long now) {
    ChangeStats stats = currentStats(md);
    long last = PageHistory.lastFetch(md);
    Verdict verdict = evidence(md);
    if (last > 0 && now > last) {
      double sinceChange = verdict == Verdict.CHANGED ? sinceLastChange(md, last, now) : -1;
      stats =
          estimator.learn(
              stats, (now - last) / MILLIS_PER_DAY, verdict, sinceChange / MILLIS_PER_DAY);
    }
    PageHistory.setStats(md, stats, estimator.rate(stats));
    PageHistory.setLastFetch(md, now);
    String etag = md.get(settings.protocolPrefix() + "etag");
    if (etag != null && !etag.isBlank()) {
      md.set(PageHistory.ETAG, etag);
    }
    String ifModifiedSince =
        PageHistory.ifModifiedSince(md.get(settings.protocolPrefix() + "last-modified"));
    if (settings.setLastModified() && ifModifiedSince != null) {
      md.set(PageHistory.IF_MODIFIED_SINCE, ifModifiedSince);
    }
    // Keep our own copy of the signature only when the parser does not keep signatureOld.
    String signature = md.get(StatusEvent.SIGNATURE_KEY);
    if (md.get(StatusEvent.SIGNATURE_OLD_KEY) != null) {
      md.remove(PageHistory.SIGNATURE);
    } else if (signature != null && !signature.isBlank()) {
      md.set(PageHistory.SIGNATURE, signature);
    }
    return atThreshold(md, stats, now);
  }

  /**
   * Milliseconds from the page's last change to this fetch, or -1 (see {@link
   * ChangeEvidence#sinceLastChange}).
   */
  private long sinceLastChange(MetadataView md, long lastFetch, long now) {
    if (!settings.lastModifiedTiming()) {
      return -1;
    }
    String prefix = settings.protocolPrefix();
    return ChangeEvidence.sinceLastChange(
        ChangeEvidence.parseDate(md.get(prefix + "last-modified")),
        ChangeEvidence.parseDate(md.get(prefix + "date")),
        lastFetch,
        now);
  }

  /** now + tau*(theta), clamped to the revisit bounds. */
  private OptionalLong atThreshold(MetadataView md, ChangeStats stats, long now) {
    double tauDays =
        settings.expectedValue()
            ? settings
                .objective()
                .expectedTimeToThreshold(
                    weight(md), stats.shape(), stats.rate(), settings.thresholdDays())
            : settings
                .objective()
                .timeToThreshold(weight(md), estimator.rate(stats), settings.thresholdDays());
    double minutes = Math.max(tauDays * MINUTES_PER_DAY, settings.minIntervalMinutes());
    if (settings.maxIntervalMinutes() >= 0) {
      minutes = Math.min(minutes, settings.maxIntervalMinutes());
    } else if (Double.isInfinite(minutes)) {
      return OptionalLong.empty(); // theta is at or above the value ceiling and there is no floor
    }
    return OptionalLong.of(now + Math.round(minutes * MILLIS_PER_MINUTE));
  }

  private OptionalLong afterFetchError(MetadataView md, long now) {
    int errors = PageHistory.errors(md) + 1;
    if (errors >= settings.maxFetchErrors()) {
      PageHistory.setErrors(md, 0);
      return afterError(now);
    }
    PageHistory.setErrors(md, errors);
    // Back-off doubles per consecutive error; the shift is bounded so it cannot overflow.
    double minutes = settings.fetchErrorMinutes() * Math.pow(2, Math.min(errors - 1, 40));
    if (settings.maxIntervalMinutes() >= 0) {
      minutes = Math.min(minutes, settings.maxIntervalMinutes());
    }
    return OptionalLong.of(now + Math.round(minutes * MILLIS_PER_MINUTE));
  }

  private OptionalLong afterError(long now) {
    if (settings.errorRetryMinutes() < 0) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(now + Math.round(settings.errorRetryMinutes() * MILLIS_PER_MINUTE));
  }

  private ChangeStats currentStats(MetadataView md) {
    ChangeStats s = PageHistory.stats(md);
    return s == null ? estimator.prior() : s;
  }

  /**
   * The page's weight from its metadata; the configured default when absent or not a positive
   * number.
   */
  double weight(MetadataView md) {
    Double w = PageHistory.positive(md.get(settings.weightKey()));
    return w == null ? settings.defaultWeight() : w;
  }

  private static Integer statusCode(String v) {
    if (v == null) {
      return null;
    }
    try {
      return Integer.valueOf(v.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
