package io.recrawl.engine;

import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;

/**
 * What a host's own answers say about how hard it may be crawled: its robots.txt crawl-delay, its
 * push-back (HTTP 429 or 503, with or without Retry-After), an outage (most recent fetches got no
 * answer) and its response times. It sets the host's blocks and learned capacity in {@link
 * HostState}; {@link HostThreshold#maxRate} and the engine's release checks obey them.
 */
final class HostPoliteness {

  /** Metadata key a status updater sets from robots.txt, seconds. */
  static final String CRAWL_DELAY_KEY = "robots.crawl.delay";

  /** Metadata key of the fetch's response time, ms (StormCrawler's FetcherBolt writes it). */
  static final String RESPONSE_TIME_KEY = "fetch.loadingTime";

  private static final long DAY = EngineConfig.DAY_MS;
  private static final int OUTCOMES = 16;

  /** The learned capacity moves at most once in this long. */
  private static final long CAPACITY_STEP_MS = 3_600_000L;

  /** What a status event means for its page. */
  enum Outcome {
    /** Nothing that concerns the host as a whole: the page's status applies. */
    PAGE,
    /** The host pushed back (429/503) or is down: the page keeps its schedule. */
    HOST_BLOCKED
  }

  private final EngineConfig cfg;
  private final HostThreshold thresholds;

  HostPoliteness(EngineConfig cfg, HostThreshold thresholds) {
    this.cfg = cfg;
    this.thresholds = thresholds;
  }

  /** Learns from one status event of the host; says whether it blocked the host. */
  Outcome observe(HostState h, StatusEvent e, String host, long now, EngineOutcome out) {
    crawlDelay(h, e, now, out);
    if (!cfg.pushBack) {
      return Outcome.PAGE;
    }
    Integer code = e.statusCode();
    if (code != null && (code == 429 || code == 503)) {
      if (pushBack(h, e, host, now, code == 429)) {
        out.blocked(
            code == 429 ? EngineOutcome.Block.TOO_MANY_REQUESTS : EngineOutcome.Block.UNAVAILABLE);
      }
      return Outcome.HOST_BLOCKED;
    }
    boolean visit = e.status() == CrawlStatus.FETCHED || e.status() == CrawlStatus.REDIRECTION;
    boolean failure =
        e.status() == CrawlStatus.FETCH_ERROR && (code == null || code <= 0 || code >= 500);
    if (!visit && e.status() != CrawlStatus.FETCH_ERROR) {
      return Outcome.PAGE; // ERROR is the crawler's verdict on the page, not news of the host
    }
    h.recentOutcomes = ((h.recentOutcomes << 1) | (failure ? 1 : 0)) & 0xFFFF;
    h.outcomeCount = Math.min(OUTCOMES, h.outcomeCount + 1);
    if (failure) {
      if (hostDown(h)) {
        if (pushBack(h, e, host, now, false)) {
          out.blocked(EngineOutcome.Block.OUTAGE);
        }
        return Outcome.HOST_BLOCKED;
      }
      return Outcome.PAGE;
    }
    // The host answered.
    if (++h.fetchesSincePushBack >= cfg.forgiveAfterFetches) {
      h.pushBacks = 0;
    }
    capacityFromResponse(h, e, now);
    return Outcome.PAGE;
  }

  /** Whether most of the host's recent fetches got no answer. */
  boolean hostDown(HostState h) {
    int failures = Integer.bitCount(h.recentOutcomes); // only ever the last outcomeCount bits
    return failures >= cfg.outageMinFailures && failures > cfg.outageFailureShare * h.outcomeCount;
  }

  /** When the host may next be sent a request, whatever its pacing: after any block or park. */
  static long openAt(HostState h) {
    return Math.max(h.blockedUntil, h.parkedUntil);
  }

  /**
   * Until when what the host has said still binds, epoch ms: its blocks and park, its crawl-delay,
   * its push-backs until forgiven by quiet, and a learned capacity until the step-up rule would
   * have brought it back to the configured limit. A host without pages keeps its record until then.
   */
  long heldUntil(HostState h, long now) {
    long until = Math.max(openAt(h), h.evidenceUntil);
    if (h.pushBacks > 0) {
      until = Math.max(until, Times.plus(h.lastPushBack, cfg.forgiveQuietMs));
    }
    double configured = thresholds.configuredRate(h, now);
    if (h.capacityRate > 0 && h.capacityRate < configured) {
      double steps =
          Math.ceil(Math.log(configured / h.capacityRate) / Math.log1p(cfg.capacityStepUp));
      long recovery =
          steps >= Long.MAX_VALUE / CAPACITY_STEP_MS
              ? Long.MAX_VALUE
              : (long) steps * CAPACITY_STEP_MS;
      until = Math.max(until, Times.plus(h.capacityStepAt, recovery));
    }
    return until;
  }

  private void crawlDelay(HostState h, StatusEvent e, long now, EngineOutcome out) {
    Double seconds = number(e.first(CRAWL_DELAY_KEY));
    if (seconds == null || seconds < 0) {
      return;
    }
    long delayMs = Times.secondsToMillis(seconds);
    boolean belowMinRate = delayMs > 0 && DAY / (double) delayMs < cfg.minHostRate;
    if (delayMs > cfg.maxCrawlDelayMs || belowMinRate) {
      // Not worth crawling at that pace, or slower than any rate limit can pace (host.min-rate
      // raises every limit to itself): park it until robots.txt is read again.
      if (h.parkedUntil <= now) {
        out.hostParked();
      }
      h.parkedUntil = Times.plus(now, parkMs(delayMs));
      // The first request after the park re-reads robots.txt; until its answer re-parks the host,
      // no second one follows at the configured pace.
      h.evidenceRate = cfg.minHostRate;
      h.evidenceUntil = Times.plus(h.parkedUntil, DAY);
      return;
    }
    if (h.parkedUntil != 0) {
      // robots.txt is within the limits again: the pace the park held ends with it.
      h.parkedUntil = 0;
      h.evidenceRate = 0;
      h.evidenceUntil = 0;
    }
    if (delayMs > 0) {
      h.evidenceRate = DAY / (double) delayMs; // at least host.min-rate, checked above
      h.evidenceUntil = Times.plus(now, DAY); // robots.txt is re-read about daily
    }
  }

  /**
   * How long a crawl-delay parks its host: a day (robots.txt is re-read about daily), or the
   * crawl-delay itself when it is longer and within {@code robots.max-crawl-delay}, so that the
   * request that re-reads robots.txt does not come sooner than the delay asks. A crawl-delay above
   * {@code robots.max-crawl-delay} is re-read after that maximum.
   */
  private long parkMs(long delayMs) {
    return Math.max(DAY, Math.min(delayMs, cfg.maxCrawlDelayMs));
  }

  /**
   * A 429 or 503, or an outage: blocks the host until the instant its Retry-After names, else for a
   * back-off that doubles with each push-back in a row, from the later of the event's time and the
   * job's clock; a 429 also lowers the host's capacity. Returns whether it is news: false for a
   * request refused inside the block it repeats.
   */
  private boolean pushBack(HostState h, StatusEvent e, String host, long now, boolean tooMany) {
    // Counted from the job's clock at the earliest: a push-back delivered late (a record sent
    // again, a crawler whose clock runs behind) would otherwise set a block that is already over.
    long at = Math.max(e.time(), now);
    // Requests the crawler had queued before the block are refused too: they repeat the push-back
    // that set it, and neither lengthen the back-off nor lower the capacity again.
    boolean news = at >= h.blockedUntil;
    if (news) {
      if (at - h.lastPushBack >= cfg.forgiveQuietMs) {
        h.pushBacks = 0;
      }
      h.pushBacks = Math.min(62, h.pushBacks + 1);
      h.fetchesSincePushBack = 0;
    }
    h.lastPushBack = Math.max(h.lastPushBack, at);
    String retryAfter = e.firstIgnoreCase(RetryAfter.KEY);
    long until =
        retryAfter != null
            ? RetryAfter.blockUntil(retryAfter, at, cfg.maxRetryAfterMs)
            : Times.plus(at, backoffMs(h, host, at));
    h.blockedUntil = Math.max(h.blockedUntil, until);
    if (tooMany && news) {
      h.capacityRate = Math.max(cfg.minHostRate, thresholds.maxRate(h, now) * cfg.capacityOn429);
      h.capacityStepAt = at;
    }
    return news;
  }

  /**
   * The back-off of the host's {@link HostState#pushBacks}-th push-back in a row, with a jitter
   * drawn from the host and the time, so that a replay draws the same.
   */
  long backoffMs(HostState h, String host, long at) {
    long base = Math.min(cfg.maxBackoffMs, Times.doubled(cfg.backoffMs, h.pushBacks - 1));
    long seed = host.hashCode() * 0x9E3779B97F4A7C15L ^ at * 0xBF58476D1CE4E5B9L ^ h.pushBacks;
    seed ^= seed >>> 31;
    seed *= 0x94D049BB133111EBL;
    seed ^= seed >>> 29;
    double u = (seed >>> 11) * 0x1.0p-53;
    double scaled = base * (1 + cfg.backoffJitter * (2 * u - 1));
    return (long) Math.min(cfg.maxBackoffMs, scaled);
  }

  /**
   * The capacity rule, one step an hour at most. While the host's recent response times run at more
   * than {@code politeness.response-time.slow} times their baseline (8: a server that queues is
   * then seven eighths busy), its rate steps down by a tenth; while they stay within {@code
   * politeness.response-time.flat} times it (4), or none are reported, a learned capacity steps
   * back up by {@code politeness.capacity.step-up} until the configured limit is reached. A host
   * that slows down as it is crawled harder is near its capacity; a 429 is the late sign.
   */
  private void capacityFromResponse(HostState h, StatusEvent e, long now) {
    long at = e.time() > 0 ? e.time() : now;
    Double rt = cfg.responseTimes ? number(e.first(RESPONSE_TIME_KEY)) : null;
    boolean slow = false;
    boolean flat = true;
    if (rt != null && rt >= 0 && rt < 1e9) {
      float ms = rt.floatValue();
      if (h.responseTimeBaseline <= 0) {
        h.responseTimeBaseline = Math.max(1f, ms);
        h.responseTimeRecent = ms;
      } else {
        h.responseTimeRecent = 0.7f * h.responseTimeRecent + 0.3f * ms;
        // The baseline follows falls at once and rises only slowly (a half-life of some 1,400
        // answers): the host's unloaded pace, which a server that is slower for good becomes.
        h.responseTimeBaseline =
            Math.max(
                1f,
                ms < h.responseTimeBaseline
                    ? 0.5f * (h.responseTimeBaseline + ms)
                    : 0.9995f * h.responseTimeBaseline + 0.0005f * ms);
      }
      slow = h.responseTimeRecent > cfg.responseTimeSlow * h.responseTimeBaseline;
      flat = h.responseTimeRecent <= cfg.responseTimeFlat * h.responseTimeBaseline;
    }
    if (at - h.capacityStepAt < CAPACITY_STEP_MS) {
      return;
    }
    if (slow) {
      h.capacityRate = Math.max(cfg.minHostRate, thresholds.maxRate(h, now) * 0.9);
      h.capacityStepAt = at;
    } else if (flat && h.capacityRate > 0) {
      double stepped = h.capacityRate * (1 + cfg.capacityStepUp);
      h.capacityRate = stepped >= thresholds.configuredRate(h, now) ? 0 : stepped;
      h.capacityStepAt = at;
    }
  }

  private static Double number(String s) {
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
}
