package io.recrawl.sim;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Counts what the servers of the push-back scenario answered, and checks every request against the
 * blocks the servers asked for, independently of the engine: a request to a host before the instant
 * a Retry-After named is a Retry-After violation; a request sooner than {@code
 * politeness.backoff.initial x (1 - politeness.backoff.jitter)} after a 429 or 503 without
 * Retry-After is a back-off violation. Each violation is also told apart by whether the page was
 * released before the push-back (it was already waiting in the crawler's queue) or after it (the
 * scheduler released it inside the block).
 */
public final class PushBackAuditor {

  private final long minBackoffMs;
  private final long[] retryAfterEnd;
  private final long[] backoffEnd;

  /** Per host, when its latest push-back came (epoch ms); Long.MIN_VALUE if none. */
  private final long[] lastPushBack;

  private final long[] requests;
  private final long[] tooMany;
  private final long[] tooManyWithRetryAfter;
  private final long[] unavailableOutside;
  private final long[] maintenance;
  private final long[] violations;
  private long retryAfterViolations;
  private long retryAfterViolationsInFlight;
  private long backoffViolations;
  private long backoffViolationsInFlight;
  private final boolean[] refusedAfterDay1;
  private double loadingTimeSum;
  private long loadingTimeCount;

  /**
   * @param minBackoffMs the shortest back-off the engine may choose (initial x (1 - jitter))
   */
  public PushBackAuditor(int hosts, double days, long minBackoffMs) {
    this.minBackoffMs = minBackoffMs;
    retryAfterEnd = new long[hosts];
    backoffEnd = new long[hosts];
    lastPushBack = new long[hosts];
    Arrays.fill(retryAfterEnd, Long.MIN_VALUE);
    Arrays.fill(backoffEnd, Long.MIN_VALUE);
    Arrays.fill(lastPushBack, Long.MIN_VALUE);
    int d = (int) Math.ceil(days);
    requests = new long[d];
    tooMany = new long[d];
    tooManyWithRetryAfter = new long[d];
    unavailableOutside = new long[d];
    maintenance = new long[d];
    violations = new long[d];
    refusedAfterDay1 = new boolean[hosts];
  }

  /**
   * A request to host {@code h} at {@code t} days ({@code ms} epoch ms) for a page released at
   * {@code releasedMs}, and the server's answer.
   */
  public void request(int h, double t, long ms, long releasedMs, ServerModel.Response r) {
    int d = Math.min(requests.length - 1, (int) t);
    requests[d]++;
    if (ms < retryAfterEnd[h]) {
      retryAfterViolations++;
      violations[d]++;
      if (releasedMs < lastPushBack[h]) {
        retryAfterViolationsInFlight++;
      }
    } else if (ms < backoffEnd[h]) {
      backoffViolations++;
      violations[d]++;
      if (releasedMs < lastPushBack[h]) {
        backoffViolationsInFlight++;
      }
    }
    switch (r.kind()) {
      case SERVED:
        loadingTimeSum += r.loadingTimeMs();
        loadingTimeCount++;
        return;
      case TOO_MANY:
        tooMany[d]++;
        if (r.retryAfter() != null) {
          tooManyWithRetryAfter[d]++;
        }
        if (t >= 1) {
          refusedAfterDay1[h] = true;
        }
        break;
      case MAINTENANCE:
        maintenance[d]++;
        break;
      default:
        throw new IllegalStateException();
    }
    lastPushBack[h] = ms;
    if (r.retryAfter() != null) {
      retryAfterEnd[h] = Math.max(retryAfterEnd[h], r.retryAfterEndMs());
    } else {
      backoffEnd[h] = Math.max(backoffEnd[h], ms + minBackoffMs);
    }
  }

  public long retryAfterViolations() {
    return retryAfterViolations;
  }

  public long backoffViolations() {
    return backoffViolations;
  }

  /** Requests refused outside maintenance (429, and 503 outside a window: none in this model). */
  public long refused(int fromDay) {
    long n = 0;
    for (int d = fromDay; d < requests.length; d++) {
      n += tooMany[d] + unavailableOutside[d];
    }
    return n;
  }

  public long requests(int fromDay) {
    long n = 0;
    for (int d = fromDay; d < requests.length; d++) {
      n += requests[d];
    }
    return n;
  }

  /** The measurements, in results.json's shape. */
  public Map<String, Object> results(ServerModel servers) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("hosts_below_limit", servers.hostsBelowLimit());
    m.put("maintenance_windows", servers.maintenanceWindows());
    m.put("requests", requests(0));
    m.put("refused", refused(0));
    m.put("requests_after_day_1", requests(1));
    m.put("refused_after_day_1", refused(1));
    long req1 = requests(1);
    m.put("refused_share_after_day_1", req1 > 0 ? refused(1) / (double) req1 : Double.NaN);
    long too = 0;
    long tooRa = 0;
    long maint = 0;
    long outside = 0;
    for (int d = 0; d < requests.length; d++) {
      too += tooMany[d];
      tooRa += tooManyWithRetryAfter[d];
      maint += maintenance[d];
      outside += unavailableOutside[d];
    }
    m.put("status_429", too);
    m.put("status_429_with_retry_after", tooRa);
    m.put("status_503_outside_maintenance", outside);
    m.put("status_503_in_maintenance", maint);
    int hostsRefused = 0;
    for (boolean b : refusedAfterDay1) {
      hostsRefused += b ? 1 : 0;
    }
    m.put("hosts_refusing_after_day_1", hostsRefused);
    m.put("retry_after_violations", retryAfterViolations);
    m.put("retry_after_violations_released_before_push_back", retryAfterViolationsInFlight);
    m.put("backoff_violations", backoffViolations);
    long after1 = 0;
    for (int d = 1; d < violations.length; d++) {
      after1 += violations[d];
    }
    m.put("block_violations_after_day_1", after1);
    m.put("backoff_violations_released_before_push_back", backoffViolationsInFlight);
    m.put(
        "block_violations_released_after_push_back",
        retryAfterViolations
            + backoffViolations
            - retryAfterViolationsInFlight
            - backoffViolationsInFlight);
    m.put("min_backoff_ms_checked", minBackoffMs);
    m.put(
        "mean_loading_time_ms",
        loadingTimeCount > 0 ? loadingTimeSum / loadingTimeCount : Double.NaN);
    long[] refusedByDay = new long[requests.length];
    for (int d = 0; d < requests.length; d++) {
      refusedByDay[d] = tooMany[d] + unavailableOutside[d];
    }
    Map<String, Object> byDay = new LinkedHashMap<>();
    byDay.put("requests", requests.clone());
    byDay.put("refused", refusedByDay);
    byDay.put("status_503_in_maintenance", maintenance.clone());
    byDay.put("block_violations", violations.clone());
    m.put("by_day", byDay);
    return m;
  }
}
