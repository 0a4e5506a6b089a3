package io.recrawl.flink.scheduler;

import io.recrawl.engine.DemandLedger;
import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.EngineListener;
import io.recrawl.engine.GlobalLambdaController;
import io.recrawl.engine.HostCall;
import io.recrawl.engine.HostEngine;
import io.recrawl.engine.HostState;
import io.recrawl.engine.HostStore;
import io.recrawl.engine.HostThreshold;
import io.recrawl.engine.PageState;
import io.recrawl.engine.ReleaseReason;
import io.recrawl.flink.io.deadletters.DeadLetters;
import io.recrawl.flink.io.decisions.ReleaseDecision;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.streaming.api.operators.KeyContext;
import org.apache.flink.util.Collector;
import org.apache.flink.util.FlinkRuntimeException;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host-keyed scheduler: runs the {@link HostEngine} over RocksDB keyed state, with one
 * event-time timer per host (its next wake-up), and the control stream broadcast to every subtask.
 *
 * <ul>
 *   <li>A status event is applied with {@link HostEngine#onStatus}; a timer runs {@link
 *       HostEngine#onWake}, which re-checks due pages against the current threshold θ_i = λ_i + λ_0
 *       and releases the best one if the host's pacing allows.
 *   <li>{@code LAMBDA} messages set the global lambda λ_0 (stale epochs are ignored, see {@link
 *       #supersedes} for the rule of epochs); it is read at every wake-up, so a change takes effect
 *       at each waiting page's next re-check.
 *   <li>{@code HOST_RATE} overrides go to broadcast state. The broadcast side cannot register
 *       timers nor cheaply reach one key, so an override is applied lazily, on the host's next
 *       event or wake-up: releases only happen on wake-ups, so pacing always obeys the latest
 *       override. (A raised limit may wait for the wake-up already scheduled, at most one old
 *       spacing.)
 *   <li>{@code TICK}s only carry event time (as watermarks) and trigger the {@link #DEMAND} report.
 *   <li>{@code BUDGET}s are for the global lambda controller; the schedulers pass them by.
 *   <li>The end of a bounded input or a drain (the Long.MAX_VALUE watermark) ends the schedule:
 *       {@link HostSchedulerOperator} does not let it fire timers, so each host keeps its wake-up
 *       for a restore; a timer it fires all the same (another operator) is dropped, instead of
 *       re-releasing leased pages until the end of time.
 *   <li>Requests, decisions and metrics of an engine call go out when the call commits, never
 *       before: a call rolled back sends nothing, and leaves the engine's shared state (the learned
 *       prior, the demand scratch) as it was.
 *   <li>A host whose state cannot be read, or whose wake-up throws, fails the job, or is
 *       quarantined under {@code recrawl.quarantine.max-hosts} (see {@link #quarantineOrThrow}).
 * </ul>
 *
 * <p>The per-subtask {@link DemandLedger} and the URL/host counts are transient: after a restore
 * they are rebuilt from keyed state on the first control message (one pass over the subtask's
 * hosts).
 */
public class HostSchedulerFunction
    extends KeyedBroadcastProcessFunction<String, StatusEvent, ControlMessage, CrawlRequest> {

  private static final long serialVersionUID = 1L;

  private static final Logger LOG = LoggerFactory.getLogger(HostSchedulerFunction.class);

  /**
   * Inputs the operator refused, with a reason (the job's shared tag); counted in {@code
   * recrawl.deadLetters.<reason>}.
   */
  public static final OutputTag<DeadLetter> DEAD_LETTERS = DeadLetters.TAG;

  /** One {@link DemandReport} per subtask per tick: input of the global lambda controller. */
  public static final OutputTag<DemandReport> DEMAND =
      new OutputTag<>("demand", TypeInformation.of(DemandReport.class));

  /**
   * The decision log: one {@link ReleaseDecision} per crawl request, with its reason and the host
   * and global lambdas it was released at, when the function is built with it on (the job does so
   * when {@code recrawl.decisions.type} names a sink).
   */
  public static final OutputTag<ReleaseDecision> DECISIONS =
      new OutputTag<>("decisions", TypeInformation.of(ReleaseDecision.class));

  /** Dead-letter reasons of the operator itself (parsing has its own, see DeadLetterReason). */
  public static final String BAD_CONTROL = "bad_control";

  public static final String REJECTED_BY_ENGINE = "rejected_by_engine";

  /** A host moved aside, its key as the dead letter's raw (see {@link #quarantineOrThrow}). */
  public static final String HOST_QUARANTINED = "host_quarantined";

  // Descriptors are looked up on every event: build them once.
  private static final MapStateDescriptor<String, Double> GLOBAL =
      SchedulerState.globalDescriptor();
  private static final MapStateDescriptor<String, Double> HOST_RATES =
      SchedulerState.hostRatesDescriptor();

  /** The fired timer of a call that is not a wake-up: no timer has this time. */
  private static final long NO_TIMER = Long.MIN_VALUE;

  /** Sample one wake-up in this many for the host lambda histogram. */
  private static final int LAMBDA_SAMPLE_EVERY = 16;

  private final HashMap<String, Object> engineSettings;
  private final double initialGlobalLambda;
  private final boolean decisionLog;
  private String partitionMode;
  private long quarantineMaxHosts;
  private transient double[] restoredPriorMass;

  private transient HostEngine engine;
  private transient FlinkHostStore store;
  private transient HostStore engineStore;
  private transient DemandLedger ledger;
  private transient SchedulerMetrics metrics;
  private transient EngineCall call;
  private transient boolean rebuilt;
  private transient long lastReport;
  private transient long wakeCount;
  private transient long quarantined;
  private transient ArrayList<DeadLetter> quarantineLetters;

  /**
   * @param engineSettings the engine keys of {@link EngineConfig#KEYS} (the {@code recrawl.engine}
   *     section of the configuration); validated here, so a bad value fails at job build time
   * @param initialGlobalLambda λ_0 until the first LAMBDA message arrives
   * @param decisionLog whether to put a {@link ReleaseDecision} on {@link #DECISIONS} for every
   *     request; off, none is built
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
   * recrawl.quarantine.max-hosts}) instead of failing; 0 = fail at the first (see {@link
   * #quarantineOrThrow}).
   */
  HostSchedulerFunction quarantining(long maxHosts) {
    if (maxHosts < 0) {
      throw new IllegalArgumentException("quarantine.max-hosts must be >= 0, got " + maxHosts);
    }
    this.quarantineMaxHosts = maxHosts;
    return this;
  }

  /** The learned prior's mass to start from, restored by the operator before {@link #open}. */
  void restoreLearnedPrior(double[] mass) {
    restoredPriorMass = mass;
  }

  /** The learned prior's mass now, for the operator's checkpoint; null if there is none. */
  double[] learnedPriorMass() {
    return engine == null || engine.valuation().learnedPrior() == null
        ? null
        : engine.valuation().learnedPrior().mass();
  }

  /** The partition mode of the keys, or null. */
  String partitionMode() {
    return partitionMode;
  }

  /** The engine settings, parsed (for the operator's checks on restore, before {@link #open}). */
  EngineConfig engineConfig() {
    return EngineConfig.fromMap(engineSettings, "recrawl.engine.");
  }

  @Override
  public void open(OpenContext openContext) {
    EngineConfig cfg = EngineConfig.fromMap(engineSettings, "recrawl.engine.");
    engine = new HostEngine(cfg);
    if (restoredPriorMass != null && engine.valuation().learnedPrior() != null) {
      engine.valuation().learnedPrior().restore(restoredPriorMass);
    }
    ValueState<HostState> host = getRuntimeContext().getState(SchedulerState.hostDescriptor());
    MapState<String, PageState> pages =
        getRuntimeContext().getMapState(SchedulerState.pagesDescriptor());
    MapState<Long, String> slots =
        getRuntimeContext().getMapState(SchedulerState.slotsDescriptor());
    ValueState<LeaseSlots> leases = getRuntimeContext().getState(SchedulerState.leasesDescriptor());
    store = new FlinkHostStore(host, leases, pages, slots);
    engineStore = engineStore(store);
    ledger = new DemandLedger(cfg.grid);
    metrics = new SchedulerMetrics(getRuntimeContext().getMetricGroup());
    metrics.watch(store.hostCache());
    metrics.globalLambda = initialGlobalLambda;
    call = new EngineCall();
    quarantined = 0;
    quarantineLetters = new ArrayList<>(1);
    rebuilt = false;
    lastReport = Long.MIN_VALUE;
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
      quarantineOrThrow(
          host, unreadable, Math.max(e.time(), ctx.timerService().currentWatermark()));
      store.begin(host);
      before = null; // the event starts the host afresh
    }
    sendQuarantineLetters(ctx::output);
    long now = statusClock(e.time(), ctx.timerService().currentWatermark(), before);
    call.begin(
        host,
        now,
        globalLambda(ctx.getBroadcastState(GLOBAL)),
        ctx.timerService(),
        NO_TIMER,
        out,
        ctx::output);
    long backlogBefore = readySize(before);
    double inFlightBefore = inFlightForBudget(before);
    engine.begin();
    try {
      ReadOnlyBroadcastState<String, Double> rates = ctx.getBroadcastState(HOST_RATES);
      syncHostRate(host, rates);
      engine.onStatus(engineStore, e, call);
      if (before == null) {
        syncHostRate(host, rates); // the event created the host
      }
      beforeCommit(host);
      store.commit();
      engine.commit();
      String refusal = call.refusal;
      String refusalDetail = call.refusalDetail;
      call.commit();
      if (refusal != null) {
        deadLetter(ctx::output, raw(e), refusal, refusalDetail, now);
      }
      if (e.status() != CrawlStatus.DISCOVERED) {
        metrics.statusesSinceReport++;
      }
    } catch (FlinkRuntimeException stateFailure) {
      store.rollback();
      engine.rollback();
      call.rollback();
      // The state backend failed (a real failure: let Flink restart), or a record of this host
      // cannot be read or written: quarantined if allowed, and the event with it.
      quarantineOrThrow(host, stateFailure, now);
      sendQuarantineLetters(ctx::output);
      deadLetter(ctx::output, raw(e), HOST_QUARANTINED, "its host was quarantined", now);
      return;
    } catch (RuntimeException bad) {
      // An input the engine cannot digest must not fail (and then fail again after every restart).
      // Nothing of the call went out: its requests are emitted at the commit only.
      store.rollback();
      engine.rollback();
      call.rollback();
      deadLetter(ctx::output, raw(e), REJECTED_BY_ENGINE, bad.toString(), now);
    }
    metrics.dueBacklog += readySize(store.host()) - backlogBefore;
    metrics.inFlightForBudget += inFlightForBudget(store.host()) - inFlightBefore;
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
    call.begin(host, timestamp, lambda0, ctx.timerService(), timestamp, out, ctx::output);
    if (advanceEnd != Long.MIN_VALUE) {
      call.withinAdvance(answeredUntil, advanceEnd);
    }
    store.begin(host);
    long backlogBefore = 0;
    double inFlightBefore = 0;
    engine.begin();
    try {
      backlogBefore = readySize(store.host());
      inFlightBefore = inFlightForBudget(store.host());
      syncHostRate(host, ctx.getBroadcastState(HOST_RATES));
      engine.onWake(engineStore, call);
      beforeCommit(host);
      store.commit();
      engine.commit();
      call.commit();
    } catch (RuntimeException failure) {
      store.rollback();
      engine.rollback();
      call.rollback(); // nothing was sent: the restart's wake-up releases the same pages
      quarantineOrThrow(host, failure, timestamp); // a wake-up has no input to dead-letter
      sendQuarantineLetters(ctx::output);
      return;
    }
    sendQuarantineLetters(ctx::output);
    HostState h = store.host();
    metrics.dueBacklog += readySize(h) - backlogBefore;
    metrics.inFlightForBudget += inFlightForBudget(h) - inFlightBefore;
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
      engine.onHostRate(engineStore, want, call);
    }
  }

  // ---------------------------------------------------------------- broadcast side

  @Override
  public void processBroadcastElement(ControlMessage m, Context ctx, Collector<CrawlRequest> out)
      throws Exception {
    long now = Math.max(ctx.currentWatermark(), m.time());
    if (!rebuilt) {
      rebuild(ctx, now);
    }
    sendQuarantineLetters(ctx::output);
    switch (m.kind()) {
      case LAMBDA:
        onGlobalLambda(m, ctx, now);
        break;
      case HOST_RATE:
        if (m.host() == null
            || m.host().isBlank()
            || Double.isNaN(m.maxRate())
            || Double.isInfinite(m.maxRate())) {
          deadLetter(
              ctx::output,
              String.valueOf(m),
              BAD_CONTROL,
              "host rate override needs a host and a finite rate",
              now);
        } else if (m.maxRate() > 0 && !withinRateBounds(m.maxRate())) {
          EngineConfig cfg = engine.config();
          deadLetter(
              ctx::output,
              String.valueOf(m),
              BAD_CONTROL,
              "max_rate "
                  + m.maxRate()
                  + " outside [recrawl.engine.host.min-rate, recrawl.engine.host.rate-ceiling] = ["
                  + cfg.minHostRate
                  + ", "
                  + cfg.hostRateCeiling
                  + "]",
              now);
        } else {
          putHostRate(ctx, m, now);
        }
        break;
      case TICK:
        report(ctx, m.time());
        break;
      case BUDGET:
        break; // the global lambda controller's, not the schedulers'
      default:
        deadLetter(ctx::output, String.valueOf(m), BAD_CONTROL, "unknown control kind", now);
    }
  }

  /**
   * Puts (or, at a rate of 0 or less, removes) a host's rate override in the broadcast table, which
   * holds at most {@code host-rates.max} hosts: an override for one more is a dead letter.
   */
  private void putHostRate(Context ctx, ControlMessage m, long now) throws Exception {
    BroadcastState<String, Double> rates = ctx.getBroadcastState(HOST_RATES);
    boolean known = rates.contains(m.host());
    if (m.maxRate() <= 0) {
      if (known) {
        rates.remove(m.host());
        metrics.hostRateOverrides--;
      }
    } else if (known || metrics.hostRateOverrides < engine.config().maxHostRates) {
      rates.put(m.host(), m.maxRate());
      metrics.hostRateOverrides += known ? 0 : 1;
    } else {
      deadLetter(
          ctx::output,
          String.valueOf(m),
          EngineListener.RATE_TABLE_FULL,
          engine.config().hostRatesFullDetail(),
          now);
    }
  }

  /** The {@link #DEMAND} report of this tick: the global lambda controller's input. */
  private void report(Context ctx, long time) {
    TaskInfo task = getRuntimeContext().getTaskInfo();
    ctx.output(
        DEMAND,
        new DemandReport(
            task.getIndexOfThisSubtask(),
            task.getNumberOfParallelSubtasks(),
            time,
            lastReport,
            metrics.releasedSinceReport,
            metrics.statusesSinceReport,
            metrics.inFlightForBudget,
            ledger.snapshot()));
    metrics.releasedSinceReport = 0;
    metrics.statusesSinceReport = 0;
    lastReport = time;
  }

  private void onGlobalLambda(ControlMessage m, Context ctx, long now) throws Exception {
    if (!(m.globalLambda() >= 0) || Double.isInfinite(m.globalLambda())) {
      deadLetter(
          ctx::output,
          String.valueOf(m),
          BAD_CONTROL,
          "global lambda must be finite and >= 0",
          now);
      return;
    }
    if (m.epoch() < 0 || m.epoch() > m.time()) {
      deadLetter(
          ctx::output,
          String.valueOf(m),
          BAD_CONTROL,
          "a lambda's epoch must be between 0 and its time (the time of its control round)",
          now);
      return;
    }
    BroadcastState<String, Double> global = ctx.getBroadcastState(GLOBAL);
    Double epoch = global.get(SchedulerState.EPOCH);
    if (epoch != null && !supersedes(m.epoch(), m.time(), epoch)) {
      metrics.staleLambdas.inc(); // a late message from an older controller round
      return;
    }
    global.put(SchedulerState.EPOCH, (double) m.epoch());
    global.put(SchedulerState.GLOBAL_LAMBDA, m.globalLambda());
    metrics.globalLambda = m.globalLambda();
  }

  /**
   * How far the epoch in force may lead a new lambda's time before it is taken as corrupt and
   * replaced: a day, 24 of the controller's default periods.
   */
  static final long EPOCH_RESET_MS = 86_400_000L;

  /**
   * Whether a lambda of {@code epoch}, sent at {@code time}, replaces the one in force, of epoch
   * {@code inForce}. The rule of epochs (issue 19 §2):
   *
   * <ul>
   *   <li>An epoch is the event time, epoch ms, of the control round that priced the lambda: the
   *       controller stamps each lambda with its tick's time as both time and epoch; the static
   *       lambda has epoch 0. So an epoch is never after its message's time ({@link
   *       #processBroadcastElement} refuses one that is, as a dead letter), and the time itself is
   *       bounded by the codec's {@code recrawl.input.max-future-ms}.
   *   <li>A lambda replaces the one in force if its epoch is not older; an older one is stale (a
   *       late message from an earlier round) and ignored.
   *   <li>Reset: an epoch in force more than {@link #EPOCH_RESET_MS} ahead of a new lambda's time
   *       cannot be a real round (none is ahead of the clock); it is replaced. This clears a huge
   *       epoch kept in broadcast state from before this rule, across restores too.
   * </ul>
   *
   * No message can then hold λ_0 for longer than the codec's max future plus a day.
   */
  static boolean supersedes(long epoch, long time, double inForce) {
    return epoch >= inForce || inForce - time > EPOCH_RESET_MS;
  }

  /**
   * Rebuilds the transient per-subtask ledger and counts from keyed state and the host-rate table
   * (after a restore).
   */
  private void rebuild(Context ctx, long now) throws Exception {
    flushHostRecords(); // the scan below reads RocksDB
    DemandLedger fresh = new DemandLedger(engine.config().grid);
    long[] counts = new long[3];
    double[] inFlight = new double[1];
    ctx.applyToKeyedState(
        SchedulerState.hostDescriptor(),
        (host, state) -> {
          HostState h;
          try {
            h = state.value();
          } catch (Exception unreadable) {
            quarantineOrThrow(host, unreadable, now);
            return;
          }
          if (h != null) {
            fresh.replace(null, engine.thresholds().ledgerContribution(h));
            counts[0]++;
            counts[1] += h.pages;
            counts[2] += h.ready.size();
            inFlight[0] += inFlightForBudget(h);
          }
        });
    ledger = fresh;
    int overrides = 0;
    for (Map.Entry<String, Double> ignored : ctx.getBroadcastState(HOST_RATES).immutableEntries()) {
      overrides++;
    }
    metrics.hostRateOverrides = overrides;
    metrics.hosts = counts[0];
    metrics.urls = counts[1];
    metrics.dueBacklog = counts[2];
    metrics.inFlightForBudget = inFlight[0];
    rebuilt = true;
  }

  // ---------------------------------------------------------------- quarantine

  /**
   * Quarantines {@code host} (the current key) after {@code failure}, or rethrows it: the failure
   * is the state backend's, or this subtask has quarantined {@code recrawl.quarantine.max-hosts}
   * hosts already (0 by default: fail-fast, see docs/operations.md). A host whose record cannot be
   * read, or whose wake-up throws, would otherwise fail the job again after every restart.
   *
   * <p>Quarantined, the host's keyed state (record, lease slots, pages, slots) is cleared, it is
   * logged and dead-lettered with its key ({@link #HOST_QUARANTINED}, sent at the next call that
   * has an output) and counted in {@code recrawl.hostsQuarantined}; its next status starts it
   * afresh. The subtask's ledger and counts are rebuilt at the next control message.
   */
  void quarantineOrThrow(String host, Exception failure, long now) throws RuntimeException {
    if (backendFailure(failure) || quarantined >= quarantineMaxHosts) {
      RuntimeException thrown =
          failure instanceof RuntimeException r
              ? r
              : new FlinkRuntimeException("reading the state of host " + host, failure);
      if (!String.valueOf(thrown.getMessage()).contains(host)) {
        thrown = new FlinkRuntimeException("host " + host + ": " + thrown, thrown);
      }
      throw thrown;
    }
    quarantined++;
    store.quarantine(host);
    metrics.hostsQuarantined.inc();
    rebuilt = false;
    LOG.warn(
        "host {} quarantined ({} of recrawl.quarantine.max-hosts = {} on this subtask): its"
            + " state is cleared",
        host,
        quarantined,
        quarantineMaxHosts,
        failure);
    quarantineLetters.add(
        DeadLetter.of(
            host,
            HOST_QUARANTINED,
            "host " + host + " quarantined, its state cleared, after: " + failure,
            now));
  }

  /** Whether a failure is the state backend's own (RocksDB's), not one of a host's records. */
  private static boolean backendFailure(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t.getClass().getName().startsWith("org.rocksdb.")) {
        return true;
      }
    }
    return false;
  }

  private void sendQuarantineLetters(SideOutput ctx) {
    if (quarantineLetters.isEmpty()) {
      return;
    }
    for (DeadLetter d : quarantineLetters) {
      metrics.deadLetter(d.reason());
      ctx.output(DEAD_LETTERS, d);
    }
    quarantineLetters.clear();
  }

  // ---------------------------------------------------------------- helpers

  private double globalLambda(ReadOnlyBroadcastState<String, Double> global) throws Exception {
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

  private static long readySize(HostState h) {
    return h == null ? 0 : h.ready.size();
  }

  private static double inFlightForBudget(HostState h) {
    return h == null
        ? 0
        : HostThreshold.inFlightForBudget(h, GlobalLambdaController.QUEUE_ALLOWANCE_DAYS);
  }

  private interface SideOutput {
    <X> void output(OutputTag<X> tag, X value);
  }

  private void deadLetter(SideOutput ctx, String raw, String reason, String detail, long now) {
    metrics.deadLetter(reason);
    ctx.output(DEAD_LETTERS, DeadLetter.of(raw, reason, detail, now));
  }

  /** The per-subtask ledger; for tests. */
  DemandLedger ledger() {
    return ledger;
  }

  /** The subtask's metrics; for tests. */
  SchedulerMetrics metrics() {
    return metrics;
  }

  /**
   * The engine's view of one call: the host, its clock and λ_0, the timer service and the output.
   *
   * <p>Nothing leaves the call before it commits: requests, decisions, metrics and ledger changes
   * are held until {@link #commit}, and {@link #rollback} drops them with the state changes. A
   * request that went out from a call whose state was rolled back would be sent while its page is
   * not in flight, and sent again at the next wake-up (issue 19 §2). The host's timer moves at the
   * commit too, once, however often the engine moved its wake-up.
   */
  // The watermark advance in progress, if any (HostSchedulerOperator#processWatermark).
  private transient long answeredUntil = Long.MAX_VALUE;

  private transient long advanceEnd = Long.MIN_VALUE;

  private boolean withinRateBounds(double rate) {
    EngineConfig cfg = engine.config();
    return rate >= cfg.minHostRate && rate <= cfg.hostRateCeiling;
  }

  /** The watermark moves from {@code from} to {@code to}: the timers it fires follow. */
  void advancing(long from, long to) {
    answeredUntil = from;
    advanceEnd = to;
  }

  /** The watermark advance is over. */
  void advanced() {
    answeredUntil = Long.MAX_VALUE;
    advanceEnd = Long.MIN_VALUE;
  }

  private final class EngineCall extends HostCall implements EngineListener {
    private TimerService timers;
    private long fired;
    private Collector<CrawlRequest> out;
    private SideOutput side;
    private boolean moved;
    private long wakeBefore;
    private long wakeAfter;

    // Held until the commit.
    private final ArrayList<CrawlRequest> requests = new ArrayList<>(2);
    private final ArrayList<ReleaseReason> reasons = new ArrayList<>(2);
    private double[] maxRates = new double[2];
    private final ArrayList<double[]> demand = new ArrayList<>(4);
    private final ArrayList<String> removed = new ArrayList<>(2);
    private int leaseExpiries;
    private final ArrayList<String> blocked = new ArrayList<>(1);
    private int parked;
    private int duplicates;
    private int stale;
    private int metadataCut;
    private int pagesDelta;
    private int hostsDelta;

    /** The reason and detail the engine refused this call's status event with; null = none. */
    String refusal;

    String refusalDetail;

    /**
     * @param fired the timer that started this call, already gone from the timer service; or {@link
     *     #NO_TIMER}
     */
    void begin(
        String host,
        long now,
        double lambda0,
        TimerService timers,
        long fired,
        Collector<CrawlRequest> out,
        SideOutput side) {
      begin(host, now, lambda0);
      this.timers = timers;
      this.fired = fired;
      this.out = out;
      this.side = side;
      drop();
    }

    /** This call is a wake-up fired by a watermark advance (see {@link #advancing}). */
    void withinAdvance(long answeredUntil, long advanceEnd) {
      advancing(answeredUntil, advanceEnd);
    }

    @Override
    public void release(CrawlRequest request) {
      requests.add(request); // reasons and rates follow in released()
    }

    @Override
    public void reschedule(long previous, long next) {
      if (!moved) {
        wakeBefore = previous;
        moved = true;
      }
      wakeAfter = next;
    }

    /**
     * The call's state is committed: its requests go out (with their decisions and metrics), the
     * ledger takes its demand, and the host's one timer (the engine's wake-up) moves from where it
     * was to where the call left it.
     */
    void commit() {
      for (int i = 0; i < requests.size(); i++) {
        CrawlRequest request = requests.get(i);
        ReleaseReason reason = i < reasons.size() ? reasons.get(i) : null;
        out.collect(request);
        if (reason != null) {
          metrics.released(request, reason, maxRates[i]);
          if (decisionLog) {
            side.output(
                DECISIONS, ReleaseDecision.of(request, reason, globalLambda(), maxRates[i]));
          }
        }
      }
      for (int i = 0; i + 1 < demand.size(); i += 2) {
        ledger.replace(demand.get(i), demand.get(i + 1));
      }
      for (String url : removed) {
        metrics.pageRemoved(url);
      }
      for (int i = 0; i < leaseExpiries; i++) {
        metrics.leaseExpired();
      }
      for (String reason : blocked) {
        metrics.hostBlocked(reason);
      }
      for (int i = 0; i < parked; i++) {
        metrics.hostParked();
      }
      for (int i = 0; i < duplicates; i++) {
        metrics.duplicateDiscovered();
      }
      for (int i = 0; i < stale; i++) {
        metrics.staleStatus();
      }
      if (metadataCut > 0) {
        metrics.metadataCut(metadataCut);
      }
      if (pagesDelta != 0 || hostsDelta != 0) {
        metrics.stateChanged(pagesDelta, hostsDelta);
      }
      commitTimer();
      drop();
    }

    /** The call's state was rolled back: nothing of it goes out, and its timer stays as it was. */
    void rollback() {
      drop();
    }

    private void drop() {
      requests.clear();
      reasons.clear();
      demand.clear();
      removed.clear();
      leaseExpiries = 0;
      blocked.clear();
      parked = 0;
      duplicates = 0;
      stale = 0;
      metadataCut = 0;
      pagesDelta = 0;
      hostsDelta = 0;
      refusal = null;
      refusalDetail = null;
      moved = false;
    }

    private void commitTimer() {
      if (!moved) {
        return;
      }
      moved = false;
      if (wakeBefore != Long.MAX_VALUE && wakeBefore != fired && wakeBefore != wakeAfter) {
        timers.deleteEventTimeTimer(wakeBefore);
      }
      if (wakeAfter != Long.MAX_VALUE && (wakeAfter != wakeBefore || wakeAfter == fired)) {
        timers.registerEventTimeTimer(wakeAfter);
      }
    }

    @Override
    public void replaceDemand(double[] before, double[] after) {
      demand.add(before);
      demand.add(after);
    }

    @Override
    public EngineListener listener() {
      return this;
    }

    // As a listener: counted at the commit, and each release also goes to the decision log then.

    @Override
    public void released(CrawlRequest request, ReleaseReason reason, double hostMaxRate) {
      int i = reasons.size();
      reasons.add(reason);
      if (i == maxRates.length) {
        maxRates = Arrays.copyOf(maxRates, 2 * i);
      }
      maxRates[i] = hostMaxRate;
    }

    @Override
    public void leaseExpired() {
      leaseExpiries++;
    }

    @Override
    public void hostBlocked(String reason) {
      blocked.add(reason);
    }

    @Override
    public void hostParked() {
      parked++;
    }

    @Override
    public void duplicateDiscovered() {
      duplicates++;
    }

    @Override
    public void staleStatus() {
      stale++;
    }

    @Override
    public void metadataCut(int values) {
      metadataCut += values;
    }

    @Override
    public void pageRemoved(String url) {
      removed.add(url);
    }

    @Override
    public void refused(String reason, String detail) {
      refusal = reason;
      refusalDetail = detail;
    }

    @Override
    public void stateChanged(int pagesDelta, int hostsDelta) {
      this.pagesDelta += pagesDelta;
      this.hostsDelta += hostsDelta;
    }
  }
}
