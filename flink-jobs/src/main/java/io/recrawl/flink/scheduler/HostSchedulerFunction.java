package io.recrawl.flink.scheduler;

import io.recrawl.engine.DemandLedger;
import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.EngineContext;
import io.recrawl.engine.HostEngine;
import io.recrawl.engine.HostState;
import io.recrawl.engine.HostStore;
import io.recrawl.engine.PageState;
import io.recrawl.flink.io.decisions.ReleaseDecision;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.streaming.api.operators.KeyContext;
import org.apache.flink.util.Collector;
import org.apache.flink.util.FlinkRuntimeException;

/**
 * The host-keyed scheduler: runs the {@link HostEngine} over RocksDB keyed state, with one
 * event-time timer per host (its next wake-up), and the control stream broadcast to every subtask.
 *
 * <ul>
 *   <li>A status event is applied with {@link HostEngine#onStatus}; a timer runs {@link
 *       HostEngine#onWake}, which re-checks due pages against the current threshold θ_i = λ_i + λ_0
 *       and releases the best one if the host's pacing allows.
 *   <li>Each call is one undoable {@link HostCall}: a call rolled back sends nothing.
 *   <li>{@code LAMBDA} messages set λ_0, {@code HOST_RATE} overrides go to broadcast state ({@link
 *       ControlSide}). λ_0 is read at every wake-up, so a change takes effect at each waiting
 *       page's next re-check. The broadcast side cannot register timers nor cheaply reach one key,
 *       so an override is applied lazily, on the host's next event or wake-up: releases only happen
 *       on wake-ups, so pacing always obeys the latest override (a raised limit may wait for the
 *       wake-up already scheduled, at most one old spacing).
 *   <li>{@code TICK}s only carry event time (as watermarks) and trigger the {@link
 *       SchedulerOutputs#DEMAND} report ({@link SubtaskDemand}); {@code BUDGET}s are the global
 *       lambda controller's.
 *   <li>The end of a bounded input or a drain (the Long.MAX_VALUE watermark) ends the schedule:
 *       {@link HostSchedulerOperator} does not let it fire timers, so each host keeps its wake-up
 *       for a restore; a timer it fires all the same (another operator) is dropped, instead of
 *       re-releasing leased pages until the end of time.
 *   <li>A host whose state cannot be read, or whose wake-up throws, fails the job, or is
 *       quarantined under {@code recrawl.quarantine.max-hosts} ({@link Quarantine}).
 * </ul>
 */
public class HostSchedulerFunction
    extends KeyedBroadcastProcessFunction<String, StatusEvent, ControlMessage, CrawlRequest> {

  private static final long serialVersionUID = 1L;

  // Descriptors are looked up on every event: build them once.
  private static final MapStateDescriptor<String, Double> GLOBAL =
      SchedulerState.globalDescriptor();
  private static final MapStateDescriptor<String, Double> HOST_RATES =
      SchedulerState.hostRatesDescriptor();
  private static final MapStateDescriptor<String, Double> HOST_LIMITS =
      SchedulerState.hostLimitsDescriptor();

  /** Sample one wake-up in this many for the host lambda histogram. */
  private static final int LAMBDA_SAMPLE_EVERY = 16;

  private final HashMap<String, Object> engineSettings;
  private final double initialGlobalLambda;
  private final boolean decisionLog;
  private String partitionMode;
  private long quarantineMaxHosts;
  private transient double[] restoredPriorMass;
  private transient EngineConfig config;

  private transient HostEngine engine;
  private transient FlinkHostStore store;
  private transient HostCall call;
  private transient SchedulerMetrics metrics;
  private transient SubtaskDemand demand;
  private transient ControlSide control;
  private transient Quarantine quarantine;
  private transient OutcomeApplier applier;
  private transient WatermarkAdvance advance;
  private transient long wakeCount;

  /**
   * @param engineSettings the engine keys of {@link io.recrawl.engine.EngineKeys#ALL} (the {@code
   *     recrawl.engine} section of the configuration); validated here, so a bad value fails at job
   *     build time
   * @param initialGlobalLambda λ_0 until the first LAMBDA message arrives
   * @param decisionLog whether to put a {@link ReleaseDecision} on {@link
   *     SchedulerOutputs#DECISIONS} for every request; off, none is built
   */
  public HostSchedulerFunction(
      Map<String, ?> engineSettings, double initialGlobalLambda, boolean decisionLog) {
    EngineConfig.fromMap(engineSettings, "recrawl.engine.");
    if (!(initialGlobalLambda >= 0) || Double.isInfinite(initialGlobalLambda)) {
      throw new IllegalArgumentException(
          "initial global lambda must be finite and >= 0, got " + initialGlobalLambda);
    }
    this.engineSettings = new HashMap<>(engineSettings);
    this.initialGlobalLambda = initialGlobalLambda;
    this.decisionLog = decisionLog;
  }

  /**
   * Names the partition mode that computed the keys of its input (see {@link StateSettings}); null
   * = not checked on restore.
   */
  HostSchedulerFunction keyedBy(String partitionMode) {
    this.partitionMode = partitionMode;
    return this;
  }

  /**
   * Lets this subtask quarantine up to {@code maxHosts} hosts (the job's {@code
   * recrawl.quarantine.max-hosts}) instead of failing; 0 = fail at the first.
   */
  HostSchedulerFunction quarantining(long maxHosts) {
    if (maxHosts < 0) {
      throw new IllegalArgumentException("quarantine.max-hosts must be >= 0, got " + maxHosts);
    }
    this.quarantineMaxHosts = maxHosts;
    return this;
  }

  // ---------------------------------------------------------------- the operator's hooks

  /** The learned prior's mass to start from, restored by the operator before {@link #open}. */
  void restoreLearnedPrior(double[] mass) {
    restoredPriorMass = mass;
  }

  /** The learned prior's mass now, for the operator's checkpoint; null if there is none. */
  double[] learnedPriorMass() {
    return engine == null || engine.changeLearning().learnedPrior() == null
        ? null
        : engine.changeLearning().learnedPrior().mass();
  }

  /** The partition mode of the keys, or null. */
  String partitionMode() {
    return partitionMode;
  }

  /** The engine settings, parsed once per task (the operator reads them before {@link #open}). */
  EngineConfig engineConfig() {
    if (config == null) {
      config = EngineConfig.fromMap(engineSettings, "recrawl.engine.");
    }
    return config;
  }

  /**
   * Switches host records to write-back (see {@link HostRecordCache}); the operator then calls
   * {@link #flushHostRecords} before every checkpoint barrier and at the end of input.
   */
  void writeBackHostRecords(KeyContext keys) {
    store.writeBack(keys);
  }

  /** Writes the host records changed since the last flush to keyed state. */
  void flushHostRecords() {
    store.flush();
  }

  /** The subtask's quarantine, for the operator's pass over the hosts on restore. */
  Quarantine quarantine() {
    return quarantine;
  }

  /** The watermark advance the operator opens and closes around each watermark. */
  WatermarkAdvance watermarkAdvance() {
    return advance;
  }

  @Override
  public void open(OpenContext openContext) {
    EngineConfig cfg = engineConfig();
    engine = new HostEngine(cfg);
    if (restoredPriorMass != null && engine.changeLearning().learnedPrior() != null) {
      engine.changeLearning().learnedPrior().restore(restoredPriorMass);
    }
    ValueState<HostState> host = getRuntimeContext().getState(SchedulerState.hostDescriptor());
    MapState<String, PageState> pages =
        getRuntimeContext().getMapState(SchedulerState.pagesDescriptor());
    MapState<Long, String> slots =
        getRuntimeContext().getMapState(SchedulerState.slotsDescriptor());
    ValueState<LeaseSlots> leases = getRuntimeContext().getState(SchedulerState.leasesDescriptor());
    store = new FlinkHostStore(host, leases, pages, slots);
    metrics = new SchedulerMetrics(getRuntimeContext().getMetricGroup());
    metrics.watch(store.hostCache());
    metrics.globalLambda = initialGlobalLambda;
    TaskInfo task = getRuntimeContext().getTaskInfo();
    demand =
        new SubtaskDemand(
            cfg,
            engine.thresholds(),
            metrics,
            task.getIndexOfThisSubtask(),
            task.getNumberOfParallelSubtasks());
    control = new ControlSide(cfg, metrics);
    quarantine = new Quarantine(quarantineMaxHosts, store, metrics, demand);
    applier = new OutcomeApplier(metrics, demand, decisionLog);
    call = new HostCall(engine, store, engineStore(store), applier, metrics, this::beforeCommit);
    advance = new WatermarkAdvance();
  }

  // ---------------------------------------------------------------- keyed side

  @Override
  public void processElement(StatusEvent e, ReadOnlyContext ctx, Collector<CrawlRequest> out)
      throws Exception {
    metrics.eventIn(e.status());
    String host = ctx.getCurrentKey();
    store.begin(host);
    HostState before;
    try {
      before = store.host();
    } catch (RuntimeException unreadable) {
      quarantine.quarantineOrThrow(
          host, unreadable, Math.max(e.time(), ctx.timerService().currentWatermark()));
      store.begin(host);
      before = null; // the event starts the host afresh
    }
    quarantine.sendLetters(ctx::output);
    long now = statusClock(e.time(), ctx.timerService().currentWatermark(), before);
    double lambda0 = globalLambda(ctx.getBroadcastState(GLOBAL));
    EngineContext context = call.start(host, now, lambda0);
    Double cap = ctx.getBroadcastState(HOST_LIMITS).get(host);
    if (cap != null) {
      context.maxPages(cap.longValue());
    }
    metrics.hostBefore(before);
    try {
      ReadOnlyBroadcastState<String, Double> rates = ctx.getBroadcastState(HOST_RATES);
      syncHostRate(host, rates);
      engine.onStatus(call.engineStore(), e, context, call.outcome());
      if (before == null) {
        syncHostRate(host, rates); // the event created the host
      }
      call.commit(host);
      String refusal = call.outcome().refusal();
      String refusalDetail = call.outcome().refusalDetail();
      call.send(lambda0, ctx.timerService(), OutcomeApplier.NO_TIMER, out, ctx::output);
      if (refusal != null) {
        deadLetter(ctx::output, raw(e), refusal, refusalDetail, now);
      }
      if (e.status() != CrawlStatus.DISCOVERED) {
        metrics.statusesSinceReport++;
      }
    } catch (FlinkRuntimeException stateFailure) {
      call.rollback();
      // The state backend failed (a real failure: let Flink restart), or a record of this host
      // cannot be read or written: quarantined if allowed, and the event with it.
      quarantine.quarantineOrThrow(host, stateFailure, now);
      quarantine.sendLetters(ctx::output);
      deadLetter(
          ctx::output, raw(e), SchedulerOutputs.HOST_QUARANTINED, "its host was quarantined", now);
      return;
    } catch (RuntimeException bad) {
      // An input the engine cannot digest must not fail (and then fail again after every restart).
      call.rollback();
      deadLetter(ctx::output, raw(e), SchedulerOutputs.REJECTED_BY_ENGINE, bad.toString(), now);
    }
    metrics.hostAfter(store.host());
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<CrawlRequest> out)
      throws Exception {
    if (ctx.timerService().currentWatermark() == Long.MAX_VALUE) {
      // The end of time (HostSchedulerOperator fires no timer then; a plain operator does): waking
      // up would release and re-lease pages until the end of time. The schedule ends at the last
      // real time.
      return;
    }
    String host = ctx.getCurrentKey();
    double lambda0 = globalLambda(ctx.getBroadcastState(GLOBAL));
    // The host's clock is its timer's time, not the (possibly far ahead) watermark: pacing on the
    // output is then exact in event time, even when a replay moves the watermark in big steps.
    store.begin(host);
    advance.applyTo(call.start(host, timestamp, lambda0));
    try {
      metrics.hostBefore(store.host());
      syncHostRate(host, ctx.getBroadcastState(HOST_RATES));
      engine.onWake(call.engineStore(), call.context(), call.outcome());
      call.commit(host);
    } catch (RuntimeException failure) {
      call.rollback(); // nothing was sent: the restart's wake-up releases the same pages
      quarantine.quarantineOrThrow(
          host, failure, timestamp); // a wake-up has no input to dead-letter
      quarantine.sendLetters(ctx::output);
      return;
    }
    call.send(lambda0, ctx.timerService(), timestamp, out, ctx::output);
    quarantine.sendLetters(ctx::output);
    HostState h = store.host();
    metrics.hostAfter(h);
    if (h != null && ++wakeCount % LAMBDA_SAMPLE_EVERY == 0) {
      double lambdaI = engine.thresholds().hostLambda(h, lambda0, timestamp);
      metrics.hostLambdaMicros.update(Math.round(Math.min(lambdaI, 1e12) * 1e6));
    }
  }

  /**
   * Called in every engine call after the engine and before the commit; does nothing. A seam for
   * tests: a failure here is a failure of the call after the engine released pages.
   */
  void beforeCommit(String host) {}

  /**
   * The store the engine works on: {@code store} itself. A seam for tests: a store that fails in
   * the middle of a call is a failure of the engine with its work half done.
   */
  HostStore engineStore(FlinkHostStore store) {
    return store;
  }

  /**
   * The host's clock for a status event: the event's time, but never at or past the host's pending
   * wake-up, and never behind the watermark. Events run ahead of the watermark (by the source's
   * out-of-orderness, or a whole file); a clock past the pending wake-up would make the engine
   * treat that wake-up as done and move it after the event, so a busy host would never wake up.
   */
  static long statusClock(long eventTime, long watermark, HostState host) {
    long clock = eventTime;
    if (host != null && host.wakeAt != Long.MAX_VALUE) {
      clock = Math.min(clock, host.wakeAt - 1); // pending timers are all after the watermark
    }
    return Math.max(clock, watermark);
  }

  /** Applies the broadcast rate override of this host if its record does not have it yet. */
  private void syncHostRate(String host, ReadOnlyBroadcastState<String, Double> rates)
      throws Exception {
    HostState h = store.host();
    if (h == null) {
      return;
    }
    Double override = rates.get(host);
    double want = override == null ? 0 : override;
    if (want != h.overrideRate) {
      engine.onHostRate(call.engineStore(), want, call.context(), call.outcome());
    }
  }

  // ---------------------------------------------------------------- broadcast side

  @Override
  public void processBroadcastElement(ControlMessage m, Context ctx, Collector<CrawlRequest> out)
      throws Exception {
    long now = Math.max(ctx.currentWatermark(), m.time());
    if (demand.stale()) {
      flushHostRecords(); // the rebuild reads RocksDB
      demand.rebuild(ctx, quarantine, now);
    }
    quarantine.sendLetters(ctx::output);
    switch (m.kind()) {
      case LAMBDA -> control.onGlobalLambda(m, ctx.getBroadcastState(GLOBAL), ctx::output, now);
      case HOST_RATE -> control.onHostRate(m, ctx.getBroadcastState(HOST_RATES), ctx::output, now);
      case HOST_LIMIT ->
          control.onHostLimit(m, ctx.getBroadcastState(HOST_LIMITS), ctx::output, now);
      case TICK -> ctx.output(SchedulerOutputs.DEMAND, demand.report(m.time()));
      case BUDGET -> {} // the global lambda controller's, not the schedulers'
      default -> control.onUnknown(m, ctx::output, now);
    }
  }

  // ---------------------------------------------------------------- front-end queries

  /**
   * A front end's change of {@code host}, the current key, as one engine call ({@link HostCall}).
   */
  long changeHost(
      String host,
      long now,
      double lambda0,
      HostCall.HostChange change,
      TimerService timers,
      Collector<CrawlRequest> out,
      SideOutput side) {
    return call.change(host, now, lambda0, change, timers, out, side);
  }

  /** Pages read from keyed state since the start: a catch-up step's work. */
  long pageReads() {
    return store == null ? 0 : store.reads();
  }

  /** The records of {@code host}, the current key, to read between engine calls. */
  FlinkHostStore read(String host) {
    return store.begin(host);
  }

  /** The event time of the latest request this subtask released since it started. */
  long latestRelease() {
    return applier.latestRelease();
  }

  /** The engine, for read-only questions. */
  HostEngine engine() {
    return engine;
  }

  // ---------------------------------------------------------------- helpers

  double globalLambda(ReadOnlyBroadcastState<String, Double> global) throws Exception {
    Double l = global.get(SchedulerState.GLOBAL_LAMBDA);
    return l == null ? initialGlobalLambda : l;
  }

  /** The event as JSON for a dead letter; an event too broken for the codec as its record text. */
  private static String raw(StatusEvent e) {
    try {
      return StatusEventCodec.toJson(e);
    } catch (RuntimeException unwritable) {
      return String.valueOf(e);
    }
  }

  private void deadLetter(SideOutput side, String raw, String reason, String detail, long now) {
    side.deadLetter(metrics, DeadLetter.of(raw, reason, detail, now));
  }

  /** The per-subtask ledger; for tests. */
  DemandLedger ledger() {
    return demand.ledger();
  }

  /** The subtask's metrics; for tests. */
  SchedulerMetrics metrics() {
    return metrics;
  }
}
