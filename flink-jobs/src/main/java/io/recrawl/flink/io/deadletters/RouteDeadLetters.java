package io.recrawl.flink.io.deadletters;

import io.recrawl.wire.Parsed;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Splits a source's output: valid values go on, dead letters to the {@link DeadLetters#TAG} side
 * output; both are counted.
 *
 * @param <T> the parsed type
 */
public final class RouteDeadLetters<T> extends ProcessFunction<Parsed<T>, T> {

  private static final long serialVersionUID = 1L;

  private final String stage;
  private transient DeadLetterCounters counters;

  /**
   * @param stage the name used in metrics, e.g. {@code status} or {@code control}
   */
  public RouteDeadLetters(String stage) {
    this.stage = stage;
  }

  @Override
  public void open(OpenContext context) {
    counters = new DeadLetterCounters(getRuntimeContext().getMetricGroup(), stage);
  }

  @Override
  public void processElement(Parsed<T> p, Context ctx, Collector<T> out) {
    if (p.ok()) {
      counters.accepted();
      out.collect(p.value());
    } else {
      counters.rejected(p.deadLetter().reason());
      ctx.output(DeadLetters.TAG, p.deadLetter());
    }
  }

  /** The counters (for tests). */
  DeadLetterCounters counters() {
    return counters;
  }
}
