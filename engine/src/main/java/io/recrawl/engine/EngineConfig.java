package io.recrawl.engine;

import io.recrawl.estimate.ChangeRateEstimator;
import io.recrawl.value.Objective;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The engine's settings, read and checked from the keys of {@link EngineKeys}, where each key is
 * declared once with its default and meaning.
 */
public final class EngineConfig {

  public static final long DAY_MS = 86_400_000L;

  /**
   * The most {@code fetch-error.max} may be: its retries double from {@code fetch-error.backoff},
   * so later ones would never come, and from about the 41st at the default back-off the doubling
   * passes Long.MAX_VALUE ms. A page counts its errors in a byte.
   */
  public static final int MAX_FETCH_ERRORS = 32;

  public final Objective objective;
  public final double defaultMaxRate;
  public final long minRevisitMs;
  public final long maxRevisitMs;
  public final long leaseMs;
  public final long maxLeaseMs;

  /**
   * How long of a host's rate limit may be in flight: {@code host.in-flight}, or half the lease.
   */
  public final double hostInFlightMs;

  public final long bucketMs;
  public final long recheckMs;
  public final long horizonMs;
  public final long fetchErrorBackoffMs;
  public final int maxFetchErrors;
  public final long errorRetryMs;
  public final boolean errorRemove;
  public final long errorPurgeMs;
  public final int maxPagesPerHost;
  public final int maxHostRates;
  public final double defaultWeight;
  public final ChangeRateEstimator estimator;
  public final double optimism;
  public final boolean hostPrior;
  public final boolean expectedValue;
  public final double signalMinTrust;
  public final double signalMinTrustUnchanged;
  public final boolean gridPosterior;
  public final double exploration;
  public final ThresholdGrid grid;
  public final int maxSlotsPerWake;
  public final Set<String> metadataTransfer;
  public final int metadataMaxValueChars;
  public final int metadataMaxChars;
  public final double minHostRate;
  public final double hostRateCeiling;
  public final boolean pushBack;
  public final long maxRetryAfterMs;
  public final long backoffMs;
  public final long maxBackoffMs;
  public final double backoffJitter;
  public final int forgiveAfterFetches;
  public final long forgiveQuietMs;
  public final int outageMinFailures;
  public final double outageFailureShare;
  public final boolean responseTimes;
  public final double responseTimeSlow;
  public final double responseTimeFlat;
  public final double capacityOn429;
  public final double capacityStepUp;
  public final long maxCrawlDelayMs;

  private EngineConfig(Map<String, Object> m, String prefix) {
    Reader r = new Reader(m, prefix);
    objective = r.objective("objective");
    defaultMaxRate = r.positive("host.max-rate");
    minRevisitMs = r.duration("revisit.min-interval");
    maxRevisitMs = r.duration("revisit.max-interval");
    leaseMs = Math.max(1, r.duration("lease"));
    long maxLease = r.duration("lease.max");
    maxLeaseMs = maxLease == 0 ? 24 * leaseMs : maxLease;
    long inFlight = r.duration("host.in-flight");
    hostInFlightMs = inFlight == 0 ? leaseMs / 2.0 : inFlight;
    bucketMs = r.duration("due.bucket");
    recheckMs = r.duration("timer.recheck");
    horizonMs = r.duration("timer.horizon");
    fetchErrorBackoffMs = r.duration("fetch-error.backoff");
    double fetchErrors = r.positive("fetch-error.max");
    r.require(
        fetchErrors == Math.rint(fetchErrors) && fetchErrors <= MAX_FETCH_ERRORS,
        "fetch-error.max",
        "must be a whole number from 1 to " + MAX_FETCH_ERRORS);
    maxFetchErrors = (int) fetchErrors;
    errorRetryMs = r.duration("error.retry-interval");
    errorRemove = r.bool("error.remove");
    errorPurgeMs = r.duration("error.purge-after");
    maxPagesPerHost = (int) Math.min(r.positive("host.max-pages"), Integer.MAX_VALUE);
    maxHostRates = (int) Math.min(r.positive("host-rates.max"), Integer.MAX_VALUE);
    defaultWeight = r.positive("weight.default");
    estimator =
        r.build(
            "estimator.prior-rate",
            () ->
                new ChangeRateEstimator(
                    r.positive("estimator.prior-rate"),
                    r.positive("estimator.prior-shape"),
                    r.positive("estimator.max-shape")));
    optimism = r.number("estimator.optimism");
    hostPrior = r.bool("estimator.host-prior");
    expectedValue = r.bool("estimator.expected-value");
    signalMinTrust = r.positive("signals.min-trust");
    signalMinTrustUnchanged = r.positive("signals.min-trust-unchanged");
    String posterior = r.string("estimator.posterior");
    r.require(
        posterior.equals("gamma") || posterior.equals("grid"),
        "estimator.posterior",
        "must be gamma or grid");
    gridPosterior = posterior.equals("grid");
    exploration = r.number("estimator.exploration");
    r.require(
        exploration >= 0 && exploration <= 10, "estimator.exploration", "must be within [0, 10]");
    if (!(optimism >= 0) || optimism > 5) {
      throw new IllegalArgumentException(
          prefix
              + "estimator.optimism: must be within [0, 5] (got '"
              + m.get("estimator.optimism")
              + "')");
    }
    grid =
        r.build(
            "curve.min-threshold",
            () ->
                new ThresholdGrid(
                    r.positive("curve.min-threshold"),
                    r.positive("curve.max-threshold"),
                    (int) r.positive("curve.points-per-decade")));
    maxSlotsPerWake = (int) r.positive("wake.max-slots");
    metadataTransfer = Set.copyOf(r.list("metadata.transfer"));
    metadataMaxValueChars =
        (int) Math.min(r.positive("metadata.transfer.max-value-chars"), 1 << 24);
    metadataMaxChars = (int) Math.min(r.positive("metadata.transfer.max-chars"), 1 << 24);
    minHostRate = r.positive("host.min-rate");
    hostRateCeiling = r.positive("host.rate-ceiling");
    pushBack = r.bool("politeness.push-back");
    maxRetryAfterMs = r.duration("politeness.retry-after.max");
    backoffMs = r.duration("politeness.backoff.initial");
    maxBackoffMs = r.duration("politeness.backoff.max");
    backoffJitter = r.number("politeness.backoff.jitter");
    forgiveAfterFetches = (int) r.positive("politeness.backoff.forgive-after");
    forgiveQuietMs = r.duration("politeness.backoff.forgive-quiet");
    outageMinFailures = (int) r.positive("politeness.outage.min-failures");
    outageFailureShare = r.number("politeness.outage.failure-share");
    responseTimes = r.bool("politeness.response-time");
    responseTimeSlow = r.positive("politeness.response-time.slow");
    responseTimeFlat = r.positive("politeness.response-time.flat");
    capacityOn429 = r.positive("politeness.capacity.on-429");
    capacityStepUp = r.positive("politeness.capacity.step-up");
    maxCrawlDelayMs = r.duration("robots.max-crawl-delay");
    r.require(
        responseTimeFlat >= 1 && responseTimeFlat < responseTimeSlow,
        "politeness.response-time.flat",
        "must be at least 1 and below politeness.response-time.slow");
    r.require(capacityOn429 < 1, "politeness.capacity.on-429", "must be below 1");
    r.require(
        minHostRate <= defaultMaxRate && defaultMaxRate <= hostRateCeiling,
        "host.max-rate",
        "must lie within [host.min-rate, host.rate-ceiling] = ["
            + minHostRate
            + ", "
            + hostRateCeiling
            + "]");
    r.require(minHostRate >= 1e-3, "host.min-rate", "must be at least 0.001 crawls per day");
    r.require(maxRetryAfterMs > 0, "politeness.retry-after.max", "must be > 0");
    r.require(backoffMs > 0, "politeness.backoff.initial", "must be > 0");
    r.require(
        maxBackoffMs >= backoffMs,
        "politeness.backoff.max",
        "must be at least politeness.backoff.initial");
    r.require(
        backoffJitter >= 0 && backoffJitter < 1,
        "politeness.backoff.jitter",
        "must be within [0, 1)");
    r.require(
        outageMinFailures <= 16,
        "politeness.outage.min-failures",
        "at most 16 (the fetches remembered)");
    r.require(
        outageFailureShare > 0 && outageFailureShare < 1,
        "politeness.outage.failure-share",
        "must be within (0, 1)");
    r.require(maxCrawlDelayMs > 0, "robots.max-crawl-delay", "must be > 0");
    r.require(maxLeaseMs >= leaseMs, "lease.max", "must be 0 or at least lease");
    r.require(bucketMs > 0, "due.bucket", "must be > 0");
    r.require(maxPagesPerHost >= 1, "host.max-pages", "must be at least 1");
    r.require(maxHostRates >= 1, "host-rates.max", "must be at least 1");
    r.require(recheckMs >= bucketMs, "timer.recheck", "must be at least due.bucket");
    r.require(horizonMs >= recheckMs, "timer.horizon", "must be at least timer.recheck");
    r.require(
        bucketMs <= 0 || horizonMs / bucketMs < (1L << 31),
        "timer.horizon",
        "must be under 2^31 due buckets (due.bucket): a slot's key holds its bucket in 32 bits");
    r.require(
        maxRevisitMs == 0 || maxRevisitMs >= minRevisitMs,
        "revisit.max-interval",
        "must be >= revisit.min-interval");
    r.rejectUnknown();
  }

  /** The dead-letter detail of a host_rate override refused by {@code host-rates.max}. */
  public String hostRatesFullDetail() {
    return "the host-rate table holds its limit of "
        + maxHostRates
        + " hosts (recrawl.engine.host-rates.max)";
  }

  /** The defaults. */
  public static EngineConfig defaults() {
    return fromMap(Map.of(), "");
  }

  /**
   * Builds a configuration from a map of the keys in {@link EngineKeys} (missing keys take their
   * default). Unknown keys and bad values are refused with the full key ({@code prefix + key})
   * named.
   */
  public static EngineConfig fromMap(Map<String, ?> values, String prefix) {
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) values;
    return new EngineConfig(m, prefix);
  }

  /** A copy with some keys changed; handy in tests and in the simulator. */
  public static EngineConfig with(Map<String, ?> overrides) {
    return fromMap(overrides, "");
  }

  /** Reads typed values and remembers which keys it saw. */
  private static final class Reader {
    private final Map<String, Object> m;
    private final String prefix;
    private final Set<String> seen = new java.util.HashSet<>();

    Reader(Map<String, Object> m, String prefix) {
      this.m = m;
      this.prefix = prefix;
    }

    private Object raw(String key) {
      seen.add(key);
      Object v = m.get(key);
      return v != null ? v : EngineKeys.ALL.get(key)[0];
    }

    String string(String key) {
      return String.valueOf(raw(key)).strip();
    }

    /** Refuses the configuration, naming the key and its value, unless {@code ok}. */
    void require(boolean ok, String key, String why) {
      if (!ok) {
        throw bad(key, why);
      }
    }

    private IllegalArgumentException bad(String key, String why) {
      Object given =
          m.containsKey(key) ? m.get(key) : EngineKeys.ALL.get(key)[0] + "', the default, '";
      return new IllegalArgumentException(prefix + key + ": " + why + " (got '" + given + "')");
    }

    double number(String key) {
      Object v = raw(key);
      try {
        return v instanceof Number n ? n.doubleValue() : Double.parseDouble(v.toString().trim());
      } catch (NumberFormatException e) {
        throw bad(key, "not a number");
      }
    }

    double positive(String key) {
      double v = number(key);
      if (!(v > 0) || Double.isInfinite(v)) {
        throw bad(key, "must be a positive finite number");
      }
      return v;
    }

    long duration(String key) {
      Object v = raw(key);
      return Durations.parseMillis(prefix + key, v);
    }

    boolean bool(String key) {
      Object v = raw(key);
      if (v instanceof Boolean b) {
        return b;
      }
      String s = v.toString().trim();
      if (s.equals("true") || s.equals("false")) {
        return Boolean.parseBoolean(s);
      }
      throw bad(key, "must be true or false");
    }

    Objective objective(String key) {
      try {
        return Objective.byName(raw(key).toString().trim());
      } catch (IllegalArgumentException e) {
        throw bad(key, e.getMessage());
      }
    }

    List<String> list(String key) {
      Object v = raw(key);
      List<String> out = new ArrayList<>();
      if (v instanceof List<?> l) {
        for (Object o : l) {
          out.add(String.valueOf(o));
        }
        return out;
      }
      String s = v.toString().trim();
      if (s.startsWith("[") && s.endsWith("]")) {
        s = s.substring(1, s.length() - 1);
      }
      for (String part : s.split(",")) {
        if (!part.isBlank()) {
          out.add(part.trim());
        }
      }
      return out;
    }

    <T> T build(String key, java.util.function.Supplier<T> f) {
      try {
        return f.get();
      } catch (IllegalArgumentException e) {
        if (e.getMessage() != null && e.getMessage().startsWith(prefix)) {
          throw e;
        }
        throw bad(key, e.getMessage());
      }
    }

    void rejectUnknown() {
      for (String k : m.keySet()) {
        if (!EngineKeys.ALL.containsKey(k)) {
          throw new IllegalArgumentException(
              prefix
                  + k
                  + ": unknown key; known keys: "
                  + String.join(", ", EngineKeys.ALL.keySet()));
        }
      }
    }
  }
}
