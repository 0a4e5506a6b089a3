package io.recrawl.flink.control;

import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.GlobalLambdaController;
import io.recrawl.flink.scheduler.DemandReport;
import io.recrawl.wire.ControlMessage;
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
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The global lambda controller as a Flink operator (parallelism 1): the schedulers' demand reports
 * in, one λ_0 per control period out ({@link GlobalLambdaRounds}). What the controller has learned
 * is operator state, so a restore goes on where the checkpoint was.
 */
public class GlobalLambdaFunction extends ProcessFunction<DemandReport, ControlMessage> implements CheckpointedFunction {

  private static final long serialVersionUID = 1L;

  private final HashMap<String, Object> engineSettings;
  private final double budget;
  private final long periodMs;

  private transient GlobalLambdaRounds rounds;
  private transient ListState<double[]> saved;
  private transient Counter updates;

  /**
   * @param engineSettings the engine keys (their threshold grid is the demand curves')
   * @param budget k_0, crawls per day
   * @param periodMs the control period
   */
  public GlobalLambdaFunction(Map<String, ?> engineSettings, double budget, long periodMs) {
    EngineConfig.fromMap(engineSettings, "recrawl.engine."); // a bad key fails when the job is built
    if (!(budget > 0) || Double.isInfinite(budget) || periodMs <= 0) {
      throw new IllegalArgumentException("the controller needs a finite budget > 0 and a period > 0 ms, got " + budget + " and " + periodMs);
    }
    this.engineSettings = new HashMap<>(engineSettings);
    this.budget = budget;
    this.periodMs = periodMs;
  }

  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    EngineConfig cfg = EngineConfig.fromMap(engineSettings, "recrawl.engine.");
    rounds = new GlobalLambdaRounds(
        new GlobalLambdaController(cfg.grid, budget, periodMs / (double) EngineConfig.DAY_MS), periodMs);
    saved = context.getOperatorStateStore().getListState(
        new ListStateDescriptor<>("global-lambda-controller", PrimitiveArrayTypeInfo.DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO));
    for (double[] s : saved.get()) {
      rounds.restore(s);
    }
  }

  @Override
  public void open(OpenContext openContext) {
    MetricGroup group = getRuntimeContext().getMetricGroup().addGroup("recrawl").addGroup("controller");
    updates = group.counter("updates");
    group.gauge("globalLambda", () -> rounds.controller().lambda());
    group.gauge("budget", () -> rounds.controller().budget());
    group.gauge("bias", () -> rounds.controller().bias());
    group.gauge("fetchRate", () -> rounds.measuredRate());
  }

  @Override
  public void processElement(DemandReport report, Context ctx, Collector<ControlMessage> out) {
    ControlMessage lambda = rounds.add(report);
    if (lambda != null) {
      updates.inc();
      out.collect(lambda);
    }
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    saved.update(List.of(rounds.snapshot()));
  }

  /** The rounds behind this operator; for tests. */
  GlobalLambdaRounds rounds() {
    return rounds;
  }
}
