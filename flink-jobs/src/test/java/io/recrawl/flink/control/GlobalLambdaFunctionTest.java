package io.recrawl.flink.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.ThresholdGrid;
import io.recrawl.flink.scheduler.DemandReport;
import io.recrawl.wire.ControlMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.CoProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.TwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The controller operator: budget messages; its learned state survives a checkpoint and restore.
 */
class GlobalLambdaFunctionTest {

  private static final ThresholdGrid GRID = EngineConfig.defaults().grid;
  private static final long T0 = 1_700_000_000_000L;
  private static final long HOUR = 3_600_000;
  private static final long DAY_MS = 86_400_000;

  private static TwoInputStreamOperatorTestHarness<DemandReport, ControlMessage, ControlMessage>
      harness() throws Exception {
    return harness(10_000);
  }

  private static TwoInputStreamOperatorTestHarness<DemandReport, ControlMessage, ControlMessage>
      harness(double budget) throws Exception {
    return new TwoInputStreamOperatorTestHarness<>(
        new CoProcessOperator<>(new GlobalLambdaFunction(Map.of(), budget, HOUR, DAY_MS)));
  }

  /** Period {@code i}'s two reports: a demand that grows, a steady fetch count, a backlog. */
  private static List<DemandReport> period(int i) {
    double[] curve = new double[GRID.size()];
    for (int g = 0; g < curve.length; g++) {
      curve[g] = (10_000 + 200 * i) / GRID.threshold(g);
    }
    long t = T0 + i * HOUR;
    long since = i == 0 ? Long.MIN_VALUE : t - HOUR;
    return List.of(
        new DemandReport(0, 2, t, since, 0, 200, 30, curve),
        new DemandReport(1, 2, t, since, 0, 210, 40, curve));
  }

  private static List<Double> feed(
      TwoInputStreamOperatorTestHarness<DemandReport, ControlMessage, ControlMessage> h,
      int from,
      int to)
      throws Exception {
    int before = h.extractOutputValues().size();
    for (int i = from; i < to; i++) {
      for (DemandReport r : period(i)) {
        h.processElement1(new StreamRecord<>(r, r.time));
      }
    }
    List<ControlMessage> all = h.extractOutputValues();
    List<Double> out = new ArrayList<>();
    all.subList(before, all.size()).forEach(m -> out.add(m.globalLambda()));
    return out;
  }

  @Test
  void aRestoredControllerPricesLikeOneThatNeverStopped() throws Exception {
    List<Double> uninterrupted;
    try (var h = harness()) {
      h.open();
      feed(h, 0, 100);
      uninterrupted = feed(h, 100, 120);
    }
    OperatorSubtaskState snapshot;
    try (var h = harness()) {
      h.open();
      assertThat(feed(h, 0, 100)).hasSize(100).allSatisfy(l -> assertThat(l).isPositive());
      snapshot = h.snapshot(1, T0 + 100 * HOUR);
    }
    try (var restored = harness()) {
      restored.initializeState(snapshot);
      restored.open();
      assertThat(feed(restored, 100, 120)).containsExactlyElementsOf(uninterrupted);
    }
    // Without the state the prices differ: the snapshot carried what was learned.
    try (var fresh = harness()) {
      fresh.open();
      assertThat(feed(fresh, 100, 120)).isNotEqualTo(uninterrupted);
    }
  }

  @Test
  void aBudgetMessageRepricesAtTheNextPeriodAndHoldsAcrossARestore() throws Exception {
    List<Double> atTheNewBudget;
    try (var reference = harness(5_000)) {
      reference.open();
      atTheNewBudget = feed(reference, 0, 10);
    }
    OperatorSubtaskState snapshot;
    try (var h = harness(10_000)) {
      h.open();
      feed(h, 0, 1);
      h.processElement2(new StreamRecord<>(ControlMessage.budget(T0 + 1, 5_000)));
      h.processElement2(new StreamRecord<>(ControlMessage.tick(T0 + 2))); // not a budget: ignored
      // The first price was made at 10,000 a day; from the next period on, the same as a controller
      // configured with 5,000 (the first period's curve-only price is all either has learned).
      List<Double> after = feed(h, 1, 5);
      assertThat(after).containsExactlyElementsOf(atTheNewBudget.subList(1, 5));
      snapshot = h.snapshot(1, T0 + 5 * HOUR);
    }
    try (var restored = harness(10_000)) {
      restored.initializeState(snapshot);
      restored.open();
      assertThat(feed(restored, 5, 10))
          .as("the budget from the message, not the configuration")
          .containsExactlyElementsOf(atTheNewBudget.subList(5, 10));
    }
    try (var reconfigured = harness(7_000)) {
      reconfigured.initializeState(snapshot);
      reconfigured.open();
      assertThat(feed(reconfigured, 5, 6).get(0))
          .as("a new configured budget wins over the restored one")
          .isLessThan(atTheNewBudget.get(5));
    }
  }

  @Test
  void aBudgetOrPeriodThatCannotWorkIsRefusedWhenTheJobIsBuilt() {
    assertThatThrownBy(() -> new GlobalLambdaFunction(Map.of(), 0, HOUR, DAY_MS))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new GlobalLambdaFunction(Map.of(), 100, 0, DAY_MS))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new GlobalLambdaFunction(Map.of("bogus", 1), 100, HOUR, DAY_MS))
        .hasMessageContaining("bogus");
  }
}
