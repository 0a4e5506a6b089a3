package io.recrawl.flink.scheduler;

import io.recrawl.engine.HostState;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.HashMap;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.SimpleTimerService;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.TimerHeapInternalTimer;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithKeyedOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Flink's keyed-broadcast operator around a {@link HostSchedulerFunction}, with write-back host
 * records and the event-time rules of the scheduler.
 *
 * <ul>
 *   <li>Write-back host records: the function keeps changed host records on the heap and this
 *       operator has them written to keyed state before every checkpoint barrier and at the end of
 *       input, so every checkpoint and savepoint holds them (see {@link HostRecordCache}). A
 *       function never does this by itself: only an operator sees the barrier coming, and only an
 *       operator can switch between keys to write.
 *   <li>The end of time fires no timer. The final watermark ({@code Long.MAX_VALUE}: the end of a
 *       bounded input, or {@code flink stop --drain}) is passed downstream but does not advance the
 *       timer service: every host keeps the one timer its {@code wakeAt} stands for. Firing them
 *       would either re-release leased pages until the end of time or, dropped, use up each host's
 *       timer while its {@code wakeAt} stays set, so that after a restore from a drained savepoint
 *       a host without new status would never wake again. A bounded replay thus ends at its last
 *       real watermark.
 *   <li>A restore re-registers every host's wake-up timer (one pass over the host records; a timer
 *       already there is not doubled), which repairs savepoints drained before the rule above. A
 *       record that cannot be read there fails the restore, or is quarantined (see {@code
 *       Quarantine}).
 *   <li>Front-end queries ({@code query} control messages) do not reach the function: {@link
 *       StateQueries} answers them once the status input has been read past them, with the keyed
 *       state this operator can walk and switch to; a query of every host walks in slices, one per
 *       processing-time callback, and a host a status or a wake-up reaches first is visited first.
 *   <li>Optionally (bounded replays, see {@code ControlSources#eventTimeFromStatusOnly}) event time
 *       is the status input's alone: the control input's watermarks are ignored. Its messages
 *       arrive at an instant that depends on the machine's speed, and so would its watermark.
 * </ul>
 */
public final class HostSchedulerOperator
    extends CoBroadcastWithKeyedOperator<String, StatusEvent, ControlMessage, CrawlRequest> {

  private static final long serialVersionUID = 1L;

  /** The timer service's name in {@link CoBroadcastWithKeyedOperator}. */
  private static final String TIMERS = "user-timers";

  private final boolean controlCarriesTime;
  private final long statusLatenessMs;
  private transient boolean restored;

  /**
   * The last watermark this subtask moved to: every status before it has been read. Kept in
   * operator state, so that the first advance after a restore knows which leases had their chance.
   */
  private transient long lastWatermark = Long.MIN_VALUE;

  private transient OperatorStates states;

  private transient StateQueries queries;

  /** How event time moves to the input's watermark: in steps of bounded work. */
  private transient CatchUp catchUp;

  /** Wake-up timers fired, for {@link #catchUp}'s steps. */
  private transient long wakeUps;

  /** The end of the catch-up step in progress, or Long.MAX_VALUE; and the work when it began. */
  private transient long stepEnd = Long.MAX_VALUE;

  private transient long stepStart;

  /**
   * Hosts whose wake-up a full step put off to the next, with the wake-up's own time. In memory
   * only: after a restore every host's timer is armed again from its record.
   */
  private transient HashMap<String, Long> deferred;

  private transient InternalTimerService<VoidNamespace> deferrals;

  /** Each deferred host's deferral timer. */
  private transient HashMap<String, Long> deferralTimers;

  /** The time stamped on answers and on the requests of a change. */
  private transient long queryTime;

  /**
   * @param controlCarriesTime false: event time is the status input's watermark alone (bounded
   *     replays)
   */
  public HostSchedulerOperator(HostSchedulerFunction function, boolean controlCarriesTime) {
    this(function, controlCarriesTime, 0);
  }

  /**
   * @param statusLatenessMs how far event time lags behind the status events read (the status
   *     source's out-of-orderness): a query is answered once event time is this close to it
   */
  public HostSchedulerOperator(
      HostSchedulerFunction function, boolean controlCarriesTime, long statusLatenessMs) {
    super(function, SchedulerState.broadcastDescriptors());
    this.controlCarriesTime = controlCarriesTime;
    this.statusLatenessMs = statusLatenessMs;
  }

  private HostSchedulerFunction scheduler() {
    return (HostSchedulerFunction) userFunction;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    restored = context.isRestored();
    states =
        new OperatorStates(
            context.getOperatorStateStore(), scheduler(), getRuntimeContext().getTaskInfo());
    lastWatermark = states.restoredWatermark;
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    states.snapshot(lastWatermark, scheduler());
  }

  @Override
  public void open() throws Exception {
    super.open();
    catchUp = new CatchUp();
    if (restored) {
      catchUp.restored(); // a restore may find a long downtime due: step from the start
    }
    deferred = new HashMap<>();
    deferralTimers = new HashMap<>();
    stepEnd = Long.MAX_VALUE;
    deferrals = getInternalTimerService(TIMERS, VoidNamespaceSerializer.INSTANCE, this);
    if (!controlCarriesTime) {
      super.processWatermark2(Watermark.MAX_WATERMARK); // the control input never holds time back
    }
    if (restored) {
      rearmTimers();
    }
    scheduler().writeBackHostRecords(this);
    Collector<CrawlRequest> requests =
        new Collector<>() {
          @Override
          public void collect(CrawlRequest r) {
            output.collect(new StreamRecord<>(r, queryTime));
          }

          @Override
          public void close() {}
        };
    SideOutput side =
        new SideOutput() {
          @Override
          public <X> void output(OutputTag<X> tag, X value) {
            output.collect(tag, new StreamRecord<>(value, queryTime));
          }
        };
    queries =
        new StateQueries(
            scheduler(),
            getKeyedStateBackend(),
            new SimpleTimerService(
                getInternalTimerService(TIMERS, VoidNamespaceSerializer.INSTANCE, this)),
            requests,
            side,
            getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
            getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks(),
            getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks(),
            statusLatenessMs,
            this::sliceLater);
  }

  /** A slice of the walks over every host (a test harness runs such callbacks one at a time). */
  private void sliceLater() {
    later(
        () -> {
          queryTime = Math.max(queryTime, lastWatermark);
          queries.slice();
        });
  }

  /**
   * Runs {@code work} on the task thread at the next millisecond, once the input waiting has been
   * processed: a processing-time timer, which Flink runs between records and barriers.
   */
  private void later(org.apache.flink.util.function.ThrowingRunnable<Exception> work) {
    ProcessingTimeService time = getProcessingTimeService();
    time.registerTimer(time.getCurrentProcessingTime() + 1, t -> work.run());
  }

  @Override
  public void processElement1(StreamRecord<StatusEvent> element) throws Exception {
    if (!deferred.isEmpty()) {
      wakeDeferred((String) getCurrentKey()); // its wake-up comes before what follows it
    }
    if (queries.walking()) {
      queries.beforeHost((String) getCurrentKey());
    }
    super.processElement1(element);
  }

  /** The work done so far: wake-ups and pages read. */
  private long work() {
    return wakeUps + scheduler().pageReads();
  }

  /**
   * Runs a host's deferred wake-up now, at its own time, if it has one: as part of the catch-up's
   * advance of time, even when a status comes first between two steps.
   */
  private void wakeDeferred(String host) throws Exception {
    Long at = deferred.remove(host);
    if (at == null) {
      return;
    }
    WatermarkAdvance advance = scheduler().watermarkAdvance();
    boolean between = !advance.active();
    if (between) {
      advance.begin(catchUp.from(), catchUp.target());
    }
    try {
      wake(new TimerHeapInternalTimer<>(at, host, VoidNamespace.INSTANCE));
    } finally {
      if (between) {
        advance.end();
      }
    }
  }

  @Override
  public void onEventTime(InternalTimer<String, VoidNamespace> timer) throws Exception {
    String host = timer.getKey();
    if (!deferred.isEmpty()) {
      wakeDeferred(host); // a deferred wake-up first, at its own time, then this timer's
    }
    if (!deferralTimers.isEmpty() && deferralOnly(host, timer.getTimestamp())) {
      return; // it stood for a deferred wake-up, which has run
    }
    if (stepEnd != Long.MAX_VALUE && work() - stepStart >= CatchUp.WORK_PER_STEP) {
      // The step's work is done: the wake-ups it has left run in the callbacks that follow, each
      // at its own time (a timer just past the step stands for it across a restore's re-arming).
      deferred.put(host, timer.getTimestamp());
      deferralTimers.put(host, stepEnd + 1);
      deferrals.registerEventTimeTimer(VoidNamespace.INSTANCE, stepEnd + 1);
      return;
    }
    wake(timer);
  }

  /**
   * Whether the timer at {@code time} only stood for a deferred wake-up that has run: it is the
   * host's deferral timer and not also its wake-up.
   */
  private boolean deferralOnly(String host, long time) {
    Long at = deferralTimers.get(host);
    if (at == null || at != time) {
      return false;
    }
    deferralTimers.remove(host);
    HostState h = scheduler().read(host).host();
    return h == null || h.wakeAt != time;
  }

  private void wake(InternalTimer<String, VoidNamespace> timer) throws Exception {
    wakeUps++;
    if (queries.walking()) {
      queries.beforeHost(timer.getKey());
    }
    super.onEventTime(timer);
  }

  @Override
  public void processElement2(StreamRecord<ControlMessage> element) throws Exception {
    ControlMessage m = element.getValue();
    if (m.kind() != ControlMessage.Kind.QUERY) {
      super.processElement2(element);
      return;
    }
    queryTime = m.time();
    queries.add(m.query(), lastWatermark, globalLambda());
  }

  private double globalLambda() throws Exception {
    return scheduler()
        .globalLambda(
            getOperatorStateBackend().getBroadcastState(SchedulerState.globalDescriptor()));
  }

  /** Re-arms every host's wake-up timer ({@link RestorePass}). */
  private void rearmTimers() throws Exception {
    long latest =
        RestorePass.run(
            getKeyedStateBackend(),
            getInternalTimerService(TIMERS, VoidNamespaceSerializer.INSTANCE, this),
            scheduler(),
            states.forgetPriorSums,
            Math.max(0, lastWatermark),
            getRuntimeContext().getTaskInfo());
    if (lastWatermark == Long.MIN_VALUE) {
      // A savepoint of a build that kept no watermark: its leases all had their chance.
      lastWatermark = latest;
    }
  }

  @Override
  public void processWatermark(Watermark mark) throws Exception {
    if (mark.getTimestamp() == Long.MAX_VALUE) {
      // A bounded input ends: the catch-up in progress goes to its last time, whole.
      drainDeferred(Long.MAX_VALUE);
      advanceTo(catchUp.target());
      catchUp.stepped(lastWatermark, lastWatermark, 0);
      output.emitWatermark(mark); // the end of time: downstream ends, the timers stay
      return;
    }
    boolean busy = catchUp.stepping() || !deferred.isEmpty();
    catchUp.moveTo(mark.getTimestamp(), lastWatermark);
    if (!busy) {
      nextStep();
    }
  }

  /** The next piece of the catch-up: the wake-ups a full step put off, else the next step. */
  private void continueCatchUp() throws Exception {
    if (!deferred.isEmpty()) {
      drainDeferred(CatchUp.WORK_PER_STEP);
      laterContinue();
    } else if (catchUp.stepping()) {
      nextStep();
    }
  }

  /** Runs deferred wake-ups, each at its own time, until {@code work} is done. */
  private void drainDeferred(long work) throws Exception {
    long start = work();
    for (String host : new ArrayList<>(deferred.keySet())) {
      if (work() - start >= work) {
        return;
      }
      setCurrentKey(host);
      wakeDeferred(host);
    }
  }

  private void laterContinue() {
    if (catchUp.stepping() || !deferred.isEmpty()) {
      later(this::continueCatchUp);
    }
  }

  /**
   * One step of event time towards the input's watermark, as far as {@link CatchUp} allows; the
   * next is a processing-time callback, so that records, checkpoint barriers and queries go on
   * between steps however many wake-ups a long downtime left due.
   */
  private void nextStep() throws Exception {
    long from = lastWatermark;
    stepEnd = catchUp.nextStepEnd(from);
    stepStart = work();
    try {
      advanceTo(stepEnd);
    } finally {
      stepEnd = Long.MAX_VALUE;
    }
    catchUp.stepped(from, lastWatermark, work() - stepStart);
    laterContinue();
  }

  /**
   * Moves event time to {@code to}: the wake-ups due by then fire, then the waiting queries. Every
   * step of a catch-up is one advance from where it began to the input's watermark (see {@link
   * io.recrawl.engine.EngineContext#answeredUntil}): its requests are written now, when the
   * statuses have been read up to that watermark.
   */
  private void advanceTo(long to) throws Exception {
    if (to <= lastWatermark) {
      return;
    }
    scheduler().watermarkAdvance().begin(catchUp.from(), catchUp.target());
    try {
      super.processWatermark(new Watermark(to));
    } finally {
      scheduler().watermarkAdvance().end();
    }
    lastWatermark = to;
    if (queries.waiting()) {
      queryTime = lastWatermark;
      queries.answerUpTo(lastWatermark, globalLambda());
    }
  }

  @Override
  public void processWatermark2(Watermark mark) throws Exception {
    if (controlCarriesTime) {
      super.processWatermark2(mark);
    }
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    scheduler().flushHostRecords();
    super.prepareSnapshotPreBarrier(checkpointId);
  }

  @Override
  public void finish() throws Exception {
    scheduler().flushHostRecords();
    super.finish();
  }
}
