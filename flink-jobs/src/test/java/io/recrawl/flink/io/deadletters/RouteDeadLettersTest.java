package io.recrawl.flink.io.deadletters;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.Parsed;
import java.util.List;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

class RouteDeadLettersTest {

  @Test
  void validValuesGoOnAndDeadLettersAsideAllCounted() throws Exception {
    RouteDeadLetters<String> fn = new RouteDeadLetters<>("status");
    try (var harness =
        new OneInputStreamOperatorTestHarness<Parsed<String>, String>(new ProcessOperator<>(fn))) {
      harness.open();
      harness.processElement(new StreamRecord<>(Parsed.ok("a"), 1));
      harness.processElement(
          new StreamRecord<>(Parsed.rejected(new DeadLetter("x", "bad_url", "no host", 7)), 2));
      harness.processElement(
          new StreamRecord<>(Parsed.rejected(new DeadLetter("y", "bad_url", "no host", 8)), 3));
      harness.processElement(
          new StreamRecord<>(Parsed.rejected(new DeadLetter("z", "malformed_json", "eof", 9)), 4));
      harness.processElement(new StreamRecord<>(Parsed.ok("b"), 5));

      assertThat(harness.extractOutputValues()).containsExactly("a", "b");
      assertThat(harness.getSideOutput(DeadLetters.TAG))
          .extracting(StreamRecord::getValue)
          .extracting(DeadLetter::raw)
          .containsExactly("x", "y", "z");
      assertThat(fn.counters().in()).isEqualTo(5);
      assertThat(fn.counters().count("bad_url")).isEqualTo(2);
      assertThat(fn.counters().count("malformed_json")).isEqualTo(1);
      assertThat(fn.counters().count("bad_weight")).isZero();
    }
  }

  @Test
  void countersWorkOnAPlainMetricGroup() {
    var c =
        new DeadLetterCounters(
            new org.apache.flink.metrics.groups.UnregisteredMetricsGroup(), "control");
    c.accepted();
    c.rejected("unknown_type");
    assertThat(List.of(c.in(), c.count("unknown_type"))).containsExactly(2L, 1L);
  }
}
