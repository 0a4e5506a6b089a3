package io.recrawl.schedule;

import io.recrawl.estimate.ChangeRateEstimator;
import io.recrawl.value.Objective;
import java.util.Map;

/**
 * The configuration of a {@link RevisitPolicy}, read from a StormCrawler-style flat map. Every bad
 * value is refused with a message that starts with its key.
 *
 * @param thresholdDays theta, in the value function's unit (days, for weight 1)
 * @param minIntervalMinutes the shortest revisit interval
 * @param maxIntervalMinutes the longest revisit interval; negative = none (a page can be "never")
 * @param fetchErrorMinutes the back-off after the first consecutive fetch error; doubles per error
 * @param maxFetchErrors consecutive fetch errors after which the page is treated as ERROR
 * @param errorRetryMinutes retry interval of an ERROR page; negative = never
 * @param setLastModified copy the server's Last-Modified into {@code last-modified}, from which
 *     StormCrawler's HTTP protocols send If-Modified-Since (a 304 then costs no body)
 * @param lastModifiedTiming on a changed fetch, take the time of the last change from Last-Modified
 *     (measured against the server's Date header) instead of only "changed"
 * @param expectedValue time revisits by the crawl value averaged over the change-rate posterior
 *     ({@link io.recrawl.value.Objective#expectedTimeToThreshold}), as the Flink job does; false =
 *     by the value at the posterior mean
 */
public record RevisitSettings(
    Objective objective,
    double thresholdDays,
    double minIntervalMinutes,
    double maxIntervalMinutes,
    String weightKey,
    double defaultWeight,
    ChangeRateEstimator estimator,
    double fetchErrorMinutes,
    int maxFetchErrors,
    double errorRetryMinutes,
    String protocolPrefix,
    boolean setLastModified,
    boolean lastModifiedTiming,
    boolean expectedValue) {

  public static final String OBJECTIVE = "recrawl.objective";
  public static final String THRESHOLD = "recrawl.scheduler.threshold";
  public static final String INTERVAL_MIN = "recrawl.scheduler.interval.min";
  public static final String INTERVAL_MAX = "recrawl.scheduler.interval.max";
  public static final String WEIGHT_KEY = "recrawl.scheduler.weight.key";
  public static final String WEIGHT_DEFAULT = "recrawl.scheduler.weight.default";
  public static final String PRIOR_RATE = "recrawl.scheduler.estimator.prior-rate";
  public static final String PRIOR_SHAPE = "recrawl.scheduler.estimator.prior-shape";
  public static final String MAX_SHAPE = "recrawl.scheduler.estimator.max-shape";
  public static final String EXPECTED_VALUE = "recrawl.scheduler.estimator.expected-value";
  public static final String SET_LAST_MODIFIED = "recrawl.scheduler.set-last-modified";
  public static final String LAST_MODIFIED_TIMING = "recrawl.scheduler.last-modified-timing";

  /**
   * StormCrawler's own keys, read with the same meaning as DefaultScheduler and the status updater
   * give them.
   */
  public static final String FETCH_ERROR_INTERVAL = "fetchInterval.fetch.error";

  public static final String MAX_FETCH_ERRORS = "max.fetch.errors";
  public static final String ERROR_INTERVAL = "fetchInterval.error";
  public static final String PROTOCOL_PREFIX = "protocol.md.prefix";

  /**
   * Reads and checks the settings; an absent key takes its default from {@link
   * DefaultConf#SCHEDULER}, the documented default file (config/crawler-conf-scheduler.yaml).
   */
  public static RevisitSettings fromConf(Map<String, ?> conf) {
    ConfReader r = new ConfReader(conf, DefaultConf.SCHEDULER);
    Objective objective;
    String name = r.string(OBJECTIVE);
    try {
      objective = Objective.byName(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(OBJECTIVE + ": " + e.getMessage());
    }
    double threshold = r.positive(THRESHOLD);
    double min = r.nonNegative(INTERVAL_MIN);
    double max = r.number(INTERVAL_MAX);
    if (max >= 0 && max < min) {
      throw new IllegalArgumentException(
          INTERVAL_MAX
              + ": must be >= "
              + INTERVAL_MIN
              + " ("
              + min
              + ") or negative for no bound, got "
              + max);
    }
    String weightKey = r.string(WEIGHT_KEY);
    if (weightKey.isBlank()) {
      throw new IllegalArgumentException(WEIGHT_KEY + ": must not be empty");
    }
    double weight = r.positive(WEIGHT_DEFAULT);
    double priorRate = r.positive(PRIOR_RATE);
    double priorShape = r.positive(PRIOR_SHAPE);
    double maxShape = r.positive(MAX_SHAPE);
    if (maxShape < priorShape) {
      throw new IllegalArgumentException(
          MAX_SHAPE + ": must be >= " + PRIOR_SHAPE + " (" + priorShape + "), got " + maxShape);
    }
    double fetchError = r.positive(FETCH_ERROR_INTERVAL);
    double maxErrors = r.positive(MAX_FETCH_ERRORS);
    if (maxErrors != Math.rint(maxErrors)) {
      throw new IllegalArgumentException(
          MAX_FETCH_ERRORS + ": must be a whole number >= 1, got " + maxErrors);
    }
    double errorRetry = r.number(ERROR_INTERVAL);
    String prefix = r.string(PROTOCOL_PREFIX);
    boolean setLastModified = r.bool(SET_LAST_MODIFIED);
    boolean lastModifiedTiming = r.bool(LAST_MODIFIED_TIMING);
    boolean expectedValue = r.bool(EXPECTED_VALUE);
    return new RevisitSettings(
        objective,
        threshold,
        min,
        max,
        weightKey,
        weight,
        new ChangeRateEstimator(priorRate, priorShape, maxShape),
        fetchError,
        (int) maxErrors,
        errorRetry,
        prefix,
        setLastModified,
        lastModifiedTiming,
        expectedValue);
  }
}
