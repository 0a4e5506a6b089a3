package io.recrawl.wire;

/**
 * A message on the broadcast control stream (topic {@code crawl.control}): a new global lambda,
 * a clock tick, or a per-host rate override.
 *
 * @param kind which of the three this is
 * @param time event time, epoch milliseconds (ticks move event time forward while the crawl is quiet)
 * @param epoch the controller's epoch; stale global lambdas (lower epoch) are ignored
 * @param globalLambda the global lambda, for {@link Kind#LAMBDA}
 * @param host the host, for {@link Kind#HOST_RATE}
 * @param maxRate the host's maximum crawl rate in crawls per day, for {@link Kind#HOST_RATE}; 0 or
 *     less removes the override
 */
public record ControlMessage(Kind kind, long time, long epoch, double globalLambda, String host, double maxRate) {

  /** The kinds of control message. */
  public enum Kind {
    LAMBDA,
    TICK,
    HOST_RATE
  }

  public static ControlMessage tick(long time) {
    return new ControlMessage(Kind.TICK, time, 0, 0, null, 0);
  }

  public static ControlMessage lambda(long time, long epoch, double globalLambda) {
    return new ControlMessage(Kind.LAMBDA, time, epoch, globalLambda, null, 0);
  }

  public static ControlMessage hostRate(long time, String host, double maxRate) {
    return new ControlMessage(Kind.HOST_RATE, time, 0, 0, host, maxRate);
  }
}
