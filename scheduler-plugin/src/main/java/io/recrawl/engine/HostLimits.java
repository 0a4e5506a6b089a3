package io.recrawl.engine;

import io.recrawl.wire.StatusEvent;

/**
 * Learns a host's rate limit from what the host itself says: a robots.txt crawl-delay, HTTP 429 or
 * 503, a Retry-After header. Evidence can only lower the configured default, never raise it.
 */
final class HostLimits {

  /** Metadata key a status updater may set from robots.txt, seconds. */
  static final String CRAWL_DELAY_KEY = "robots.crawl.delay";

  static final String RETRY_AFTER_KEY = "protocol.retry-after";
  private static final long DAY = EngineConfig.DAY_MS;
  private static final long DEFAULT_BACKOFF_MS = 3_600_000L;

  private HostLimits() {}

  static void observe(HostState h, StatusEvent e, long now, double defaultRate) {
    Double delay = seconds(e.first(CRAWL_DELAY_KEY));
    if (delay != null && delay > 0) {
      h.evidenceRate = DAY / (delay * 1000.0);
      h.evidenceUntil = now + DAY; // robots.txt is re-read about daily
    }
    Integer code = e.httpStatus();
    if (code == null) {
      String s = e.first("fetch.statusCode");
      code = s == null ? null : parseIntOrNull(s);
    }
    if (code != null && (code == 429 || code == 503)) {
      // The host asks us to slow down: halve the rate we use, for Retry-After or an hour.
      double current =
          h.evidenceRate > 0 && now < h.evidenceUntil
              ? Math.min(defaultRate, h.evidenceRate)
              : defaultRate;
      h.evidenceRate = current / 2;
      Double retry = seconds(e.first(RETRY_AFTER_KEY));
      h.evidenceUntil =
          now + (retry != null && retry > 0 ? (long) (retry * 1000) : DEFAULT_BACKOFF_MS);
    }
  }

  private static Double seconds(String s) {
    if (s == null) {
      return null;
    }
    try {
      double v = Double.parseDouble(s.trim());
      return Double.isFinite(v) ? v : null;
    } catch (NumberFormatException ex) {
      return null;
    }
  }

  private static Integer parseIntOrNull(String s) {
    try {
      return Integer.valueOf(s.trim());
    } catch (NumberFormatException ex) {
      return null;
    }
  }
}
