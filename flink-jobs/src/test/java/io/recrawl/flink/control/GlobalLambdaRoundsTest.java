package io.recrawl.flink.control;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.GlobalLambdaController;
import io.recrawl.engine.ThresholdGrid;
import io.recrawl.flink.scheduler.DemandReport;
import io.recrawl.wire.ControlMessage;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Demand reports of several scheduler subtasks, gathered into rounds and periods for the
 * controller.
 */
class GlobalLambdaRoundsTest {

  private static final ThresholdGrid GRID = EngineConfig.defaults().grid;
  private static final long T0 = 1_700_000_000_000L;
  private static final long TICK = 10_000;
  private static final long HOUR = 3_600_000;
  private static final double BUDGET = 10_000;

  /** Demand a / θ crawls per day: a subtask's summed curve. */
  private static double[] curve(double a) {
    double[] c = new double[GRID.size()];
    for (int i = 0; i < c.length; i++) {
      c[i] = a / GRID.threshold(i);
    }
    return c;
  }

  private static GlobalLambdaController controller() {
    return new GlobalLambdaController(GRID, BUDGET, HOUR / (double) EngineConfig.DAY_MS);
  }

  private static DemandReport report(
      int subtask, long time, long since, long statuses, double inFlight, double a) {
    return new DemandReport(subtask, 2, time, since, 0, statuses, inFlight, curve(a));
  }

  @Test
  void theFirstCompleteRoundPricesTheSummedDemandAtOnce() {
    GlobalLambdaRounds rounds = new GlobalLambdaRounds(controller(), HOUR);
    assertThat(rounds.add(report(0, T0, Long.MIN_VALUE, 0, 700, 12_000)))
        .as("one subtask of two")
        .isNull();
    ControlMessage m = rounds.add(report(1, T0, Long.MIN_VALUE, 0, 300, 8_000));
    assertThat(m).isNotNull();
    assertThat(m.kind()).isEqualTo(ControlMessage.Kind.LAMBDA);
    assertThat(m.time()).isEqualTo(T0);
    assertThat(m.epoch())
        .as("the tick's time, so epochs only grow, across restarts too")
        .isEqualTo(T0);
    // What one controller computes from the whole frontier's curve and backlog.
    double expected = controller().update(curve(20_000), Double.NaN, 1_000);
    assertThat(m.globalLambda()).isEqualTo(expected).isPositive();
    assertThat(GRID.demandAt(curve(20_000), m.globalLambda()))
        .isLessThan(BUDGET)
        .isGreaterThan(0.99 * BUDGET);
  }

  @Test
  void theNextUpdateComesAtTheFirstCompleteRoundAPeriodLaterWithThePeriodsFetchRate() {
    GlobalLambdaRounds rounds = new GlobalLambdaRounds(controller(), HOUR);
    GlobalLambdaController reference = controller();
    rounds.add(report(0, T0, Long.MIN_VALUE, 0, 0, 12_000));
    assertThat(rounds.add(report(1, T0, Long.MIN_VALUE, 0, 0, 8_000)).globalLambda())
        .isEqualTo(reference.update(curve(20_000), Double.NaN, 0));
    long statuses = 0;
    long end = T0 + HOUR;
    // Subtask 1 runs a tick ahead of subtask 0, so rounds complete out of step with the reports.
    assertThat(rounds.add(report(1, T0 + TICK, T0, 3, 0, 8_000))).isNull();
    for (long t = T0 + TICK; t < end; t += TICK) {
      if (t + TICK < end) {
        assertThat(rounds.add(report(1, t + TICK, t, 3, 0, 8_000))).isNull();
      }
      assertThat(rounds.add(report(0, t, t - TICK, 5, 0, 12_000))).as("within the period").isNull();
      statuses += 8;
    }
    rounds.add(report(0, end, end - TICK, 5, 40, 12_000));
    ControlMessage m = rounds.add(report(1, end, end - TICK, 3, 60, 9_000));
    statuses += 8;
    assertThat(m).isNotNull();
    assertThat(m.epoch()).isEqualTo(end);
    double rate = statuses / (HOUR / (double) EngineConfig.DAY_MS);
    assertThat(rounds.measuredRate()).isEqualTo(rate);
    assertThat(m.globalLambda()).isEqualTo(reference.update(curve(21_000), rate, 100));
  }

  @Test
  void aPeriodInWhichASubtaskRestartedHasNoFetchRate() {
    GlobalLambdaRounds rounds = new GlobalLambdaRounds(controller(), HOUR);
    GlobalLambdaController reference = controller();
    rounds.add(report(0, T0, Long.MIN_VALUE, 0, 0, 12_000));
    reference.update(curve(20_000), Double.NaN, 0);
    rounds.add(report(1, T0, Long.MIN_VALUE, 0, 0, 8_000));
    long end = T0 + HOUR;
    rounds.add(report(0, end, T0, 5_000, 0, 12_000));
    // Subtask 1 lost its count since its last report (it was restored from a checkpoint).
    ControlMessage m = rounds.add(report(1, end, Long.MIN_VALUE, 20, 0, 8_000));
    assertThat(rounds.measuredRate()).isNaN();
    assertThat(m.globalLambda()).isEqualTo(reference.update(curve(20_000), Double.NaN, 0));
  }

  @Test
  void aReportSeenTwiceOrForARoundAlreadyClosedCountsOnce() {
    GlobalLambdaRounds rounds = new GlobalLambdaRounds(controller(), HOUR);
    rounds.add(report(0, T0, Long.MIN_VALUE, 0, 0, 12_000));
    rounds.add(report(1, T0, Long.MIN_VALUE, 0, 0, 8_000));
    assertThat(rounds.add(report(1, T0, Long.MIN_VALUE, 999, 0, 8_000)))
        .as("a round already closed")
        .isNull();
    long end = T0 + HOUR;
    assertThat(rounds.add(report(0, end, T0, 100, 0, 12_000))).isNull();
    assertThat(rounds.add(report(0, end, T0, 100, 0, 12_000))).as("the same report again").isNull();
    assertThat(rounds.add(report(1, end, T0, 50, 0, 8_000))).isNotNull();
    assertThat(rounds.measuredRate()).isEqualTo(150 / (HOUR / (double) EngineConfig.DAY_MS));
  }

  @Test
  void demandThatFitsTheBudgetPricesAtZero() {
    GlobalLambdaRounds rounds = new GlobalLambdaRounds(controller(), HOUR);
    double[] small = new double[GRID.size()];
    Arrays.fill(small, 2_000); // every page at most 2,000 a day, at any price
    rounds.add(new DemandReport(0, 2, T0, Long.MIN_VALUE, 0, 0, 0, small));
    assertThat(
            rounds.add(new DemandReport(1, 2, T0, Long.MIN_VALUE, 0, 0, 0, small)).globalLambda())
        .isZero();
  }

  @Test
  void restoredRoundsGoOnAsIfNeverStopped() {
    GlobalLambdaRounds a = new GlobalLambdaRounds(controller(), HOUR);
    long t = T0;
    for (int period = 0; period < 30; period++, t += HOUR) {
      a.add(report(0, t, t == T0 ? Long.MIN_VALUE : t - HOUR, 400, 20, 12_000 + 100 * period));
      a.add(report(1, t, t == T0 ? Long.MIN_VALUE : t - HOUR, 420, 30, 8_000));
    }
    // Half a period into the next one: the counts so far are part of the snapshot.
    a.add(report(0, t - HOUR / 2, t - HOUR, 200, 20, 12_000));
    a.add(report(1, t - HOUR / 2, t - HOUR, 210, 30, 8_000));
    GlobalLambdaRounds b = new GlobalLambdaRounds(controller(), HOUR);
    b.restore(a.snapshot());
    for (int period = 0; period < 10; period++, t += HOUR) {
      DemandReport r0 = report(0, t, t - HOUR / (period == 0 ? 2 : 1), 400, 20, 15_000);
      DemandReport r1 = report(1, t, t - HOUR / (period == 0 ? 2 : 1), 420, 30, 8_000);
      a.add(r0);
      b.add(r0);
      ControlMessage ma = a.add(r1);
      ControlMessage mb = b.add(r1);
      assertThat(mb).as("period %d", period).isEqualTo(ma).isNotNull();
    }
    assertThat(b.snapshot()).containsExactly(a.snapshot());
  }
}
