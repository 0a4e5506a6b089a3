package io.recrawl.engine;

/**
 * Sums of epoch times and durations that saturate instead of overflowing: a time computed from
 * hostile input (a back-off doubled many times, a crawl-delay of 10^16 s) must stay the far future,
 * never wrap round into the past and switch pacing off.
 */
public final class Times {

  private Times() {}

  /** {@code time + duration}, held within [Long.MIN_VALUE, Long.MAX_VALUE]. */
  public static long plus(long time, long duration) {
    long sum = time + duration;
    if (((time ^ sum) & (duration ^ sum)) < 0) {
      return duration > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
    return sum;
  }

  /** {@code duration × 2^doublings} for a non-negative duration, at most Long.MAX_VALUE. */
  public static long doubled(long duration, int doublings) {
    if (duration <= 0 || doublings <= 0) {
      return Math.max(0, duration);
    }
    if (doublings >= Long.numberOfLeadingZeros(duration) - 1) {
      return Long.MAX_VALUE;
    }
    return duration << doublings;
  }

  /** Milliseconds of a duration in seconds, at most Long.MAX_VALUE; NaN or negative is 0. */
  public static long secondsToMillis(double seconds) {
    if (!(seconds > 0)) {
      return 0;
    }
    double ms = seconds * 1000.0;
    return ms >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) ms;
  }
}
