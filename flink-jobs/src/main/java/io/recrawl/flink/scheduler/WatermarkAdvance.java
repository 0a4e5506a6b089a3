package io.recrawl.flink.scheduler;

import io.recrawl.engine.EngineContext;

/**
 * The advance of the watermark in progress, if any: the timers it fires run as one advance of time
 * in which no status is read (see {@link EngineContext#answeredUntil}), so that a watermark that
 * jumps after downtime sends a leased URL at most once. {@link HostSchedulerOperator} opens and
 * closes it around each watermark.
 */
final class WatermarkAdvance {

  private long answeredUntil = Long.MAX_VALUE;
  private long advanceEnd = Long.MIN_VALUE;

  /** The watermark moves from {@code from} to {@code to}: the timers it fires follow. */
  void begin(long from, long to) {
    answeredUntil = from;
    advanceEnd = to;
  }

  /** The watermark advance is over. */
  void end() {
    answeredUntil = Long.MAX_VALUE;
    advanceEnd = Long.MIN_VALUE;
  }

  /** Whether an advance is in progress. */
  boolean active() {
    return advanceEnd != Long.MIN_VALUE;
  }

  /** Marks a wake-up's context as part of the advance in progress, if there is one. */
  EngineContext applyTo(EngineContext context) {
    return advanceEnd == Long.MIN_VALUE ? context : context.advancing(answeredUntil, advanceEnd);
  }
}
