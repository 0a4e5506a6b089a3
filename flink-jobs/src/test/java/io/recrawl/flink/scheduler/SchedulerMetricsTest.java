package io.recrawl.flink.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.CrawlStatus;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;

class SchedulerMetricsTest {

  /** A metric group that records each metric under its dotted name below the root. */
  private static final class Recording extends UnregisteredMetricsGroup {
    final Map<String, Metric> metrics;
    final String prefix;

    Recording(Map<String, Metric> metrics, String prefix) {
      this.metrics = metrics;
      this.prefix = prefix;
    }

    @Override
    public MetricGroup addGroup(String name) {
      return new Recording(metrics, prefix + name + ".");
    }

    @Override
    public MetricGroup addGroup(String key, String value) {
      return new Recording(metrics, prefix + key + "." + value + ".");
    }

    @Override
    public org.apache.flink.metrics.Counter counter(String name) {
      return counter(name, new org.apache.flink.metrics.SimpleCounter());
    }

    @Override
    public <C extends org.apache.flink.metrics.Counter> C counter(String name, C counter) {
      metrics.put(prefix + name, counter);
      return counter;
    }
  }

  @Test
  void statusEventsAreCountedInAllAndByStatusFromTheStart() {
    Map<String, Metric> registered = new HashMap<>();
    SchedulerMetrics m = new SchedulerMetrics(new Recording(registered, ""));
    for (CrawlStatus s : CrawlStatus.values()) {
      assertThat(registered).containsKey("recrawl.status." + s.name() + ".eventsIn");
    }
    m.eventIn(CrawlStatus.FETCHED);
    m.eventIn(CrawlStatus.FETCHED);
    m.eventIn(CrawlStatus.DISCOVERED);
    m.eventIn(null); // an event the engine cannot digest may have no status
    assertThat(m.eventsIn.getCount()).isEqualTo(4);
    assertThat(m.eventsIn(CrawlStatus.FETCHED)).isEqualTo(2);
    assertThat(m.eventsIn(CrawlStatus.DISCOVERED)).isEqualTo(1);
    assertThat(m.eventsIn(CrawlStatus.ERROR)).isZero();
    assertThat(
            ((org.apache.flink.metrics.Counter) registered.get("recrawl.status.FETCHED.eventsIn"))
                .getCount())
        .isEqualTo(2);
  }
}
