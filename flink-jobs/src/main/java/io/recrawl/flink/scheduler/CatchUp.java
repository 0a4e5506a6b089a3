package io.recrawl.flink.scheduler;

/**
 * How event time moves to the input's watermark: at once when that is little work, else in steps of
 * about {@value #WORK_PER_STEP} units of work each (a wake-up, or a page read from state). Flink
 * fires every timer a watermark passes in one uninterrupted call, so a restore after a long
 * downtime (a day of a large crawl's wake-ups falling due at once) would otherwise hold back
 * records, checkpoint barriers and the output watermark until the whole backlog is done. A step's
 * length in event time follows the work the last one did: it shrinks to the rate measured, and
 * grows at most twofold a step; wake-ups due at one instant beyond a step's work go in the next
 * (see {@code HostSchedulerOperator}). It depends on counts only, never on the machine's speed, so
 * a replay steps the same everywhere.
 */
final class CatchUp {

  /** About the most work one step does: wake-ups and pages read. */
  static final long WORK_PER_STEP = 20_000;

  /** A step's length after a restore, when nothing is known yet, ms of event time. */
  static final long FIRST_STEP_MS = 1_000;

  /** No bound: a running job moves at once until a step's work says otherwise. */
  private static final long UNBOUNDED = Long.MAX_VALUE / 4;

  private long target = Long.MIN_VALUE;
  private long from = Long.MIN_VALUE;
  private long step = UNBOUNDED;
  private boolean stepping;

  /** The job was restored: its first watermark may cover a long downtime. */
  void restored() {
    step = FIRST_STEP_MS;
  }

  /** The input's watermark is now {@code watermark}; event time stands at {@code current}. */
  void moveTo(long watermark, long current) {
    if (!stepping) {
      from = current;
    }
    target = Math.max(target, watermark);
  }

  /** The input's watermark: where the steps go. */
  long target() {
    return target;
  }

  /** Where event time stood when the steps in progress began. */
  long from() {
    return from;
  }

  /** Whether event time is still short of the input's watermark. */
  boolean stepping() {
    return stepping;
  }

  /** The end of the next step from {@code current}. */
  long nextStepEnd(long current) {
    if (current == Long.MIN_VALUE || target - current <= step) {
      return target; // the first watermark: no timer can be due before it
    }
    return current + step;
  }

  /** A step from {@code from} to {@code to} did {@code work}. */
  void stepped(long from, long to, long work) {
    stepping = to < target;
    if (from == Long.MIN_VALUE || to <= from) {
      return;
    }
    long grown = step > Long.MAX_VALUE / 4 ? step : 2 * step;
    if (work < WORK_PER_STEP) {
      step = grown;
    } else {
      double atRate = (double) (to - from) * WORK_PER_STEP / work;
      step = (long) Math.max(1, Math.min(grown, atRate));
    }
  }
}
