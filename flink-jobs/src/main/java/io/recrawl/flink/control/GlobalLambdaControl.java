package io.recrawl.flink.control;

import io.recrawl.flink.scheduler.DemandReport;
import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.ControlMessage;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/** Wires the global lambda controller into a job: the schedulers' demand reports in, λ_0 out. */
public final class GlobalLambdaControl {

  /** Operator uid of the controller (its state is found under it in savepoints). */
  public static final String OPERATOR_UID = "recrawl-global-lambda";

  private GlobalLambdaControl() {}

  /**
   * One {@code LAMBDA} control message per control period, computed by one subtask from the reports
   * of all scheduler subtasks ({@code SchedulerOutputs.DEMAND}); {@code BUDGET} messages of the
   * control stream change the budget. The caller sends the prices where the schedulers' control
   * stream reads them (the control topic).
   */
  public static SingleOutputStreamOperator<ControlMessage> globalLambdas(
      DataStream<DemandReport> reports,
      DataStream<ControlMessage> control,
      Map<String, ?> engineSettings,
      double budget,
      long periodMs,
      long dayMs) {
    DataStream<ControlMessage> budgets =
        control
            .filter(m -> m.kind() == ControlMessage.Kind.BUDGET)
            .name("control-budgets")
            .uid("control-budgets");
    return reports
        .connect(budgets)
        .process(
            new GlobalLambdaFunction(engineSettings, budget, periodMs, dayMs),
            WireTypes.CONTROL_MESSAGE)
        .setParallelism(1)
        .setMaxParallelism(1)
        .uid(OPERATOR_UID)
        .name("global-lambda-controller");
  }
}
