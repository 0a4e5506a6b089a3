package io.recrawl.flink.scheduler;

import io.recrawl.wire.DeadLetter;
import org.apache.flink.util.OutputTag;

/**
 * The side outputs of a call of the scheduler function, whichever context it runs in (an element, a
 * timer, a control message): {@code ctx::output}.
 */
interface SideOutput {

  <X> void output(OutputTag<X> tag, X value);

  /** Sends a dead letter, counted under its reason. */
  default void deadLetter(SchedulerMetrics metrics, DeadLetter letter) {
    metrics.deadLetter(letter.reason());
    output(SchedulerOutputs.DEAD_LETTERS, letter);
  }
}
