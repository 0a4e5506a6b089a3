package io.recrawl.flink.io.deadletters;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * Counts records in and dead letters by reason, as Flink metrics: {@code recrawl.<stage>_in} and
 * {@code recrawl.reason.<reason>.<stage>_deadletters} (the reason is a metric variable, e.g. a
 * Prometheus label).
 */
public final class DeadLetterCounters {

  private final MetricGroup group;
  private final String stage;
  private final Counter in;
  private final Map<String, Counter> byReason = new HashMap<>();

  public DeadLetterCounters(MetricGroup parent, String stage) {
    this.group = parent.addGroup("recrawl");
    this.stage = stage;
    this.in = group.counter(stage + "_in");
  }

  /** One valid record. */
  public void accepted() {
    in.inc();
  }

  /** One dead letter; counters per reason are made on first use, since reasons are few. */
  public void rejected(String reason) {
    in.inc();
    byReason
        .computeIfAbsent(reason, r -> group.addGroup("reason", r).counter(stage + "_deadletters"))
        .inc();
  }

  /** Records seen (valid or not). */
  public long in() {
    return in.getCount();
  }

  /** Dead letters with this reason so far. */
  public long count(String reason) {
    Counter c = byReason.get(reason);
    return c == null ? 0 : c.getCount();
  }
}
