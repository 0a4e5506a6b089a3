package io.recrawl.flink.scheduler;

import io.recrawl.engine.HostState;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.StatusEvent;
import java.util.List;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithKeyedOperator;
import org.apache.flink.streaming.api.watermark.Watermark;

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
 *       already there is not doubled), which repairs savepoints drained before the rule above.
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
  private transient boolean restored;

  public HostSchedulerOperator(HostSchedulerFunction function) {
    this(function, true);
  }

  /**
   * @param controlCarriesTime false: event time is the status input's watermark alone (bounded
   *     replays)
   */
  public HostSchedulerOperator(HostSchedulerFunction function, boolean controlCarriesTime) {
    super(
        function, List.of(SchedulerState.globalDescriptor(), SchedulerState.hostRatesDescriptor()));
    this.controlCarriesTime = controlCarriesTime;
  }

  private HostSchedulerFunction scheduler() {
    return (HostSchedulerFunction) userFunction;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    restored = context.isRestored();
  }

  @Override
  public void open() throws Exception {
    super.open();
    if (!controlCarriesTime) {
      super.processWatermark2(Watermark.MAX_WATERMARK); // the control input never holds time back
    }
    if (restored) {
      rearmTimers();
    }
    scheduler().writeBackHostRecords(this);
  }

  /** Registers the timer of every host with a wake-up; an existing one is not doubled. */
  private void rearmTimers() throws Exception {
    InternalTimerService<VoidNamespace> timers =
        getInternalTimerService(TIMERS, VoidNamespaceSerializer.INSTANCE, this);
    getKeyedStateBackend()
        .applyToAllKeys(
            VoidNamespace.INSTANCE,
            VoidNamespaceSerializer.INSTANCE,
            SchedulerState.hostDescriptor(),
            (host, state) -> {
              HostState h = state.value();
              if (h != null && h.wakeAt != Long.MAX_VALUE) {
                timers.registerEventTimeTimer(VoidNamespace.INSTANCE, h.wakeAt);
              }
            });
  }

  @Override
  public void processWatermark(Watermark mark) throws Exception {
    if (mark.getTimestamp() == Long.MAX_VALUE) {
      output.emitWatermark(mark); // the end of time: downstream ends, the timers stay
      return;
    }
    super.processWatermark(mark);
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
