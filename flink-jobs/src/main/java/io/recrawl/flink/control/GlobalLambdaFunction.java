package io.recrawl.flink.control;

import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.GlobalLambdaController;
import io.recrawl.flink.scheduler.DemandReport;
import io.recrawl.wire.ControlMessage;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.co.CoProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The global lambda controller as a Flink operator (parallelism 1): the schedulers' demand reports
 * in, one λ_0 per control period out ({@link GlobalLambdaRounds}); {@code BUDGET} control messages
 * on the second input change the budget. What the controller has learned, and a budget set that
 * way, are operator state, so a restore goes on where the checkpoint was.
 */
public class GlobalLambdaFunction
    extends CoProcessFunction<DemandReport, ControlMessage, ControlMessage>
    implements CheckpointedFunction {

  private static final long serialVersionUID = 1L;

  private final HashMap<String, Object> engineSettings;
  private final double budget;
  private final long periodMs;
  private final long dayMs;

  private transient GlobalLambdaRounds rounds;
  private transient ListState<double[]> saved;
  private transient Counter updates;
  private transient Counter budgetChanges;

  /**
   * @param engineSettings the engine keys (their threshold grid is the demand curves')
   * @param budget k_0, crawls per day, until a {@code BUDGET} message says otherwise
   * @param periodMs the control period
   * @param dayMs the length of the crawl's day ({@code recrawl.controller.day-ms}): a day in real
   *     time, a simulated day's length in compressed time
   */
  public GlobalLambdaFunction(
      Map<String, ?> engineSettings, double budget, long periodMs, long dayMs) {
    EngineConfig.fromMap(
        engineSettings, "recrawl.engine."); // a bad key fails when the job is built
    if (!(budget > 0) || Double.isInfinite(budget) || periodMs <= 0 || dayMs <= 0) {
      throw new IllegalArgumentException(
          "the controller needs a finite budget > 0, a period > 0 ms and a day > 0 ms, got "
              + budget
              + " and "
              + periodMs
              + " and "
              + dayMs);
    }
    this.engineSettings = new HashMap<>(engineSettings);
    this.budget = budget;
    this.periodMs = periodMs;
    this.dayMs = dayMs;
  }

  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    EngineConfig cfg = EngineConfig.fromMap(engineSettings, "recrawl.engine.");
    rounds =
        new GlobalLambdaRounds(
            new GlobalLambdaController(
                cfg.grid,
                budget,
                periodMs / (double) EngineConfig.DAY_MS,
                dayMs / (double) EngineConfig.DAY_MS),
            periodMs);
    saved =
        context
            .getOperatorStateStore()
            .getListState(
                new ListStateDescriptor<>(
                    "global-lambda-controller",
                    PrimitiveArrayTypeInfo.DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO));
    for (double[] s : saved.get()) {
      restore(s);
    }
  }

  /**
   * The rounds' snapshot, then the configured budget and the budget in force. A budget set by a
   * message holds across a restore, unless the configured one has changed since (a restart with a
   * new {@code recrawl.controller.budget} means that budget).
   */
  private void restore(double[] s) {
    int n = s.length - 2;
    rounds.restore(Arrays.copyOf(s, n));
    if (s[n] == budget) {
      rounds.controller().setBudget(s[n + 1]);
    }
  }

  @Override
  public void open(OpenContext openContext) {
    MetricGroup group =
        getRuntimeContext().getMetricGroup().addGroup("recrawl").addGroup("controller");
    updates = group.counter("updates");
    budgetChanges = group.counter("budgetChanges");
    group.gauge("globalLambda", () -> rounds.controller().lambda());
    group.gauge("budget", () -> rounds.controller().budget());
    group.gauge("bias", () -> rounds.controller().bias());
    group.gauge("fetchRate", () -> rounds.measuredRate());
  }

  @Override
  public void processElement1(DemandReport report, Context ctx, Collector<ControlMessage> out) {
    ControlMessage lambda = rounds.add(report);
    if (lambda != null) {
      updates.inc();
      out.collect(lambda);
    }
  }

  /** A new budget takes effect at the next control period. */
  @Override
  public void processElement2(ControlMessage m, Context ctx, Collector<ControlMessage> out) {
    if (m.kind() == ControlMessage.Kind.BUDGET && m.budget() > 0 && Double.isFinite(m.budget())) {
      rounds.controller().setBudget(m.budget());
      budgetChanges.inc();
    }
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    double[] r = rounds.snapshot();
    double[] s = Arrays.copyOf(r, r.length + 2);
    s[r.length] = budget;
    s[r.length + 1] = rounds.controller().budget();
    saved.update(List.of(s));
  }
}
