package io.recrawl.flink.scheduler;

import io.recrawl.flink.io.decisions.ReleaseDecision;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.HostKeys;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.state.rocksdb.RocksDBKeyedStateBackend;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithKeyedOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.apache.flink.util.OutputTag;

/**
 * A {@link HostSchedulerFunction} in a keyed-broadcast harness on the RocksDB backend, with
 * helpers.
 */
final class SchedulerHarness implements AutoCloseable {

  static final long T0 = 1_700_000_000_000L;
  static final long SEC = 1_000L;
  static final long MIN = 60_000L;
  static final long HOUR = 3_600_000L;
  static final long DAY = 86_400_000L;

  final HostSchedulerFunction fn;
  final KeyedBroadcastOperatorTestHarness<String, StatusEvent, ControlMessage, CrawlRequest> h;
  private int consumed;

  /**
   * Whether each call runs the processing-time callbacks it leaves (the slices of a walk over every
   * host) to the end, as a task thread with no input waiting would; else {@link #nextCallback}.
   */
  boolean runCallbacks = true;

  SchedulerHarness(Map<String, ?> settings) throws Exception {
    this(settings, null);
  }

  SchedulerHarness(Map<String, ?> settings, OperatorSubtaskState restoreFrom) throws Exception {
    this(settings, restoreFrom, true);
  }

  /**
   * @param decisionLog whether the function writes the decision log (the job's default is off)
   */
  SchedulerHarness(Map<String, ?> settings, OperatorSubtaskState restoreFrom, boolean decisionLog)
      throws Exception {
    this(new HostSchedulerFunction(settings, 0.0, decisionLog), restoreFrom, true);
  }

  /**
   * @param fn the function under test (a subclass may inject failures)
   * @param ours whether it runs in {@link HostSchedulerOperator} (else in Flink's plain operator,
   *     as it did before the operator had rules of its own)
   */
  SchedulerHarness(HostSchedulerFunction fn, OperatorSubtaskState restoreFrom, boolean ours)
      throws Exception {
    this(
        fn,
        restoreFrom,
        ours
            ? new HostSchedulerOperator(fn, true)
            : new CoBroadcastWithKeyedOperator<>(fn, SchedulerState.broadcastDescriptors()));
  }

  /** The operator of a job whose status source has {@code outOfOrdernessMs}. */
  static SchedulerHarness withStatusLateness(Map<String, ?> settings, long outOfOrdernessMs)
      throws Exception {
    HostSchedulerFunction fn = new HostSchedulerFunction(settings, 0.0, true);
    return new SchedulerHarness(fn, null, new HostSchedulerOperator(fn, true, outOfOrdernessMs));
  }

  private SchedulerHarness(
      HostSchedulerFunction fn,
      OperatorSubtaskState restoreFrom,
      CoBroadcastWithKeyedOperator<String, StatusEvent, ControlMessage, CrawlRequest> operator)
      throws Exception {
    this.fn = fn;
    h =
        new KeyedBroadcastOperatorTestHarness<>(
            operator, (KeySelector<StatusEvent, String>) StatusEvent::host, Types.STRING, 1, 1, 0);
    h.setStateBackend(new EmbeddedRocksDBStateBackend());
    if (restoreFrom != null) {
      h.initializeState(restoreFrom);
    }
    h.open();
  }

  /** Engine settings for tests, on top of the defaults. */
  static Map<String, Object> settings(Object... kv) {
    Map<String, Object> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  static StatusEvent event(String url, CrawlStatus status, long time) {
    return event(url, status, time, null);
  }

  static StatusEvent event(String url, CrawlStatus status, long time, Boolean changed) {
    String host = HostKeys.of(HostKeys.Mode.BY_HOST).keyOf(url);
    return new StatusEvent(url, host, status, time, Map.of(), changed, null, null);
  }

  void status(StatusEvent e) throws Exception {
    h.processElement(e, e.time());
    callbacks();
  }

  void status(String url, CrawlStatus status, long time) throws Exception {
    status(event(url, status, time));
  }

  void control(ControlMessage m) throws Exception {
    h.processBroadcastElement(m, m.time());
    callbacks();
  }

  /** Moves event time on both inputs (as the tick source does in the job). */
  void advance(long time) throws Exception {
    h.processBroadcastWatermark(time);
    h.processWatermark(time);
    callbacks();
  }

  private void callbacks() throws Exception {
    while (runCallbacks && nextCallback()) {
      // until none is left
    }
  }

  /** Runs the processing-time callbacks due now, if any; returns whether there were. */
  boolean nextCallback() throws Exception {
    if (h.getProcessingTimeService().getNumActiveTimers() == 0) {
      return false;
    }
    h.setProcessingTime(h.getProcessingTime() + 1);
    return true;
  }

  /** Requests emitted since the last call. */
  List<CrawlRequest> newRequests() {
    List<CrawlRequest> all = h.extractOutputValues();
    List<CrawlRequest> fresh = new ArrayList<>(all.subList(consumed, all.size()));
    consumed = all.size();
    return fresh;
  }

  List<DeadLetter> deadLetters() {
    return sideOutput(SchedulerOutputs.DEAD_LETTERS);
  }

  List<ReleaseDecision> decisions() {
    return sideOutput(SchedulerOutputs.DECISIONS);
  }

  List<DemandReport> demandReports() {
    return sideOutput(SchedulerOutputs.DEMAND);
  }

  private <T> List<T> sideOutput(OutputTag<T> tag) {
    List<T> out = new ArrayList<>();
    var q = h.getSideOutput(tag);
    if (q != null) {
      for (StreamRecord<T> r : q) {
        out.add(r.getValue());
      }
    }
    return out;
  }

  /**
   * Keyed state entries (host records, pages, slots, timers) in RocksDB, as a checkpoint would see
   * them.
   */
  int keyedStateEntries() throws Exception {
    h.prepareSnapshotPreBarrier(0);
    return keyedStateEntriesNow();
  }

  /** Keyed state entries in RocksDB right now: host records not yet written back are missing. */
  int keyedStateEntriesNow() {
    var backend = ((AbstractStreamOperator<?>) h.getOperator()).getKeyedStateBackend();
    return ((RocksDBKeyedStateBackend<?>) backend).numKeyValueStateEntries();
  }

  /** Keys (hosts) with an entry in one keyed state. */
  long keysIn(String state) throws Exception {
    var backend = ((AbstractStreamOperator<?>) h.getOperator()).getKeyedStateBackend();
    try (var keys = backend.getKeys(state, VoidNamespace.INSTANCE)) {
      return keys.count();
    }
  }

  /** The latest watermark the operator emitted, or Long.MIN_VALUE. */
  long outputWatermark() {
    long w = Long.MIN_VALUE;
    for (Object o : h.getOutput()) {
      if (o instanceof org.apache.flink.streaming.api.watermark.Watermark m) {
        w = Math.max(w, m.getTimestamp());
      }
    }
    return w;
  }

  int timers() {
    return h.numEventTimeTimers();
  }

  OperatorSubtaskState snapshot() throws Exception {
    h.prepareSnapshotPreBarrier(1L); // as the task does before the barrier
    return h.snapshot(1L, 1L);
  }

  @Override
  public void close() throws Exception {
    h.close();
  }
}
