package io.recrawl.flink.job;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.flink.control.GlobalLambdaControl;
import io.recrawl.flink.io.control.ControlSources;
import io.recrawl.flink.io.deadletters.DeadLetters;
import io.recrawl.flink.io.deadletters.RouteDeadLetters;
import io.recrawl.flink.scheduler.HostScheduler;
import io.recrawl.flink.scheduler.HostSchedulerFunction;
import io.recrawl.flink.scheduler.SchedulerOutputs;
import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.StatusEvent;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The recrawl scheduler job, wiring only. Read it top to bottom to follow a status event from the
 * {@code crawl.status} topic to a crawl request:
 *
 * <ol>
 *   <li>{@link JobSources}: Kafka or files (+ seeds) → parsed events or dead letters, with
 *       watermarks ({@code io.recrawl.flink.io.status.StatusSources}); the control stream of lambda
 *       and ticks ({@code io.recrawl.flink.io.control.ControlSources});
 *   <li>{@link RouteDeadLetters}: valid records on, refused ones to the dead-letter side output;
 *   <li>key by host ({@link StatusEvent#host()}, computed by {@code io.recrawl.wire.HostKeys});
 *   <li>{@link #schedule}: the keyed scheduler (RocksDB state, timers, broadcast control);
 *   <li>{@link JobSinks}: crawl requests to Kafka or files, dead letters to files or Kafka, the
 *       decision log (why each request went) if configured, and the answers to front-end queries
 *       (which arrive on the control topic);
 *   <li>with a global budget, {@link GlobalLambdaControl}: the schedulers' demand reports → one λ_0
 *       per control period → the control topic, which step 1's control stream reads.
 * </ol>
 *
 * <p>Sources and sinks are parameters, so the same pipeline runs in tests (bounded sources,
 * collecting sinks), on a local MiniCluster ({@code bin/recrawl run}) and on a cluster ({@code
 * flink run}).
 */
public final class RecrawlJob {

  private RecrawlJob() {}

  /** Builds the production pipeline into {@code env}. */
  public static void build(
      StreamExecutionEnvironment env, RecrawlConfig config, JobSources sources, JobSinks sinks) {
    build(env, config, sources, sinks, RecrawlJob::schedule);
  }

  /**
   * Builds the pipeline with a given scheduling stage (tests use this to check the wiring alone).
   */
  public static void build(
      StreamExecutionEnvironment env,
      RecrawlConfig config,
      JobSources sources,
      JobSinks sinks,
      SchedulerStage stage) {
    long parallelism = config.get(RecrawlOptions.PARALLELISM);
    if (parallelism > 0) {
      env.setParallelism((int) parallelism);
    }
    // The number of key groups: hosts are hashed to key groups, key groups to subtasks. It bounds
    // the parallelism a savepoint can be restored at and must stay the same for the state's life.
    long maxParallelism = config.get(RecrawlOptions.MAX_PARALLELISM);
    if (maxParallelism > 0) {
      env.setMaxParallelism((int) maxParallelism);
    }

    // 1-2. Status events in; refused ones aside.
    SingleOutputStreamOperator<StatusEvent> events =
        sources
            .statusEvents(env)
            .process(new RouteDeadLetters<StatusEvent>("status"), WireTypes.STATUS_EVENT)
            .name("validate-status")
            .uid("validate-status");
    if (ControlSources.inputIsBounded(config)) {
      // A replay reads its files in one subtask, in order (StatusSources.files): kept so up to the
      // keying, or a rebalance would mix the order of events and watermarks (not deterministic).
      events.setParallelism(1);
    }

    // The control stream: static lambda, ticks, control topic.
    SingleOutputStreamOperator<ControlMessage> control =
        sources
            .control(env)
            .process(new RouteDeadLetters<ControlMessage>("control"), WireTypes.CONTROL_MESSAGE)
            .name("validate-control")
            .uid("validate-control");

    // 3-4. Keyed by host, scheduled.
    KeyedStream<StatusEvent, String> byHost = events.keyBy(StatusEvent::host, Types.STRING);
    SingleOutputStreamOperator<CrawlRequest> requests = stage.schedule(byHost, control, config);

    // 5. Out.
    sinks.requests(requests);
    DataStream<DeadLetter> deadLetters =
        events
            .getSideOutput(DeadLetters.TAG)
            .union(control.getSideOutput(DeadLetters.TAG), requests.getSideOutput(DeadLetters.TAG));
    sinks.deadLetters(deadLetters);
    sinks.decisions(requests.getSideOutput(SchedulerOutputs.DECISIONS));
    sinks.answers(requests.getSideOutput(SchedulerOutputs.ANSWERS));

    // 6. The price of the global budget, back to the schedulers through the control topic.
    if (config.controllerOn()) {
      sinks.globalLambdas(
          GlobalLambdaControl.globalLambdas(
              requests.getSideOutput(SchedulerOutputs.DEMAND),
              control,
              config.engineSettings(),
              config.get(RecrawlOptions.CONTROLLER_BUDGET),
              config.get(RecrawlOptions.CONTROLLER_PERIOD_MS),
              config.get(RecrawlOptions.CONTROLLER_DAY_MS)));
    }
  }

  /**
   * The keyed scheduler: {@link HostSchedulerFunction} runs {@code io.recrawl.engine.HostEngine}
   * over RocksDB keyed state, one event-time timer per host, with the control stream broadcast.
   */
  public static SingleOutputStreamOperator<CrawlRequest> schedule(
      KeyedStream<StatusEvent, String> eventsByHost,
      DataStream<ControlMessage> control,
      RecrawlConfig config) {
    return HostScheduler.schedule(
        eventsByHost,
        control,
        config.engineSettings(),
        config.get(RecrawlOptions.GLOBAL_LAMBDA),
        !"none".equals(config.get(RecrawlOptions.DECISIONS_TYPE)),
        ControlSources.carriesEventTime(config),
        config.partitionMode().configName(),
        config.get(RecrawlOptions.QUARANTINE_MAX_HOSTS),
        config.get(RecrawlOptions.WATERMARK_OUT_OF_ORDERNESS_MS));
  }
}
