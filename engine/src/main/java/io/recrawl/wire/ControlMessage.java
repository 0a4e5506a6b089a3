package io.recrawl.wire;

/**
 * A message on the broadcast control stream (topic {@code crawl.control}): a new global lambda, a
 * clock tick, a per-host rate override, a new global budget for the controller, or a query of the
 * job's state.
 *
 * @param kind which of these this is
 * @param time event time, epoch milliseconds (ticks move event time forward while the crawl is
 *     quiet)
 * @param epoch the controller's epoch; stale global lambdas (lower epoch) are ignored
 * @param globalLambda the global lambda, for {@link Kind#LAMBDA}
 * @param host the host, for {@link Kind#HOST_RATE}
 * @param maxRate crawls per day: the host's maximum crawl rate for {@link Kind#HOST_RATE} (0 or
 *     less removes the override), the global budget k_0 for {@link Kind#BUDGET}; the most pages the
 *     host keeps for {@link Kind#HOST_LIMIT} (0 removes the cap)
 * @param query the query, for {@link Kind#QUERY}
 */
public record ControlMessage(
    Kind kind,
    long time,
    long epoch,
    double globalLambda,
    String host,
    double maxRate,
    StateQuery query) {

  /** The kinds of control message. */
  public enum Kind {
    LAMBDA,
    TICK,
    HOST_RATE,
    BUDGET,
    HOST_LIMIT,
    QUERY
  }

  public static ControlMessage tick(long time) {
    return new ControlMessage(Kind.TICK, time, 0, 0, null, 0, null);
  }

  public static ControlMessage lambda(long time, long epoch, double globalLambda) {
    return new ControlMessage(Kind.LAMBDA, time, epoch, globalLambda, null, 0, null);
  }

  public static ControlMessage hostRate(long time, String host, double maxRate) {
    return new ControlMessage(Kind.HOST_RATE, time, 0, 0, host, maxRate, null);
  }

  /** A new global crawl budget k_0, crawls per day, for the global lambda controller. */
  public static ControlMessage budget(long time, double crawlsPerDay) {
    return new ControlMessage(Kind.BUDGET, time, 0, 0, null, crawlsPerDay, null);
  }

  /** A cap on the pages a host keeps (0 removes it): a new page beyond it is refused. */
  public static ControlMessage hostLimit(long time, String host, long maxPages) {
    return new ControlMessage(Kind.HOST_LIMIT, time, 0, 0, host, maxPages, null);
  }

  /** The cap of a {@link Kind#HOST_LIMIT} message (it travels in {@link #maxRate}). */
  public long maxPages() {
    return (long) maxRate;
  }

  /** A query of the job's state, asked at its time. */
  public static ControlMessage query(StateQuery q) {
    return new ControlMessage(Kind.QUERY, q.time(), 0, 0, null, 0, q);
  }

  /**
   * The budget of a {@link Kind#BUDGET} message, crawls per day (it travels in {@link #maxRate}).
   */
  public double budget() {
    return maxRate;
  }
}
