package io.recrawl.flink.bench;

import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.util.Collector;

/**
 * Fails its task once at each of the chosen record numbers of the status stream (parallelism 1,
 * chained to the source). Its position is checkpointed with the source's, so after a restore it
 * counts on from where the source resumes; which failures have already fired is kept in a static
 * {@link Log} instead, which survives task restarts because a MiniCluster runs every attempt in
 * this JVM (a cluster of several processes would need a file or a service).
 *
 * <p>{@code dropAfterRestart} is sabotage, for showing that the checks can fail: after each restart
 * it drops that many records.
 */
public final class FailureInjector extends RichFlatMapFunction<StatusEvent, StatusEvent>
    implements CheckpointedFunction {

  private static final long serialVersionUID = 1L;

  /** What one run's injector did, across all its attempts. */
  public static final class Log {
    private final Set<Long> fired = ConcurrentHashMap.newKeySet();
    private final List<long[]> failures = new ArrayList<>(); // {record, nanos}
    private final List<Long> recoveries = new ArrayList<>(); // nanos from failure to next record
    private volatile long position;
    private volatile int attempt;

    /** Record numbers at which the task failed, in order. */
    public synchronized List<Long> failedAt() {
      return failures.stream().map(f -> f[0]).toList();
    }

    /**
     * For each failure, the time until the restarted task took its first record, seconds (restart,
     * restore and the replay's start; the replay itself is not counted).
     */
    public synchronized List<Double> recoverySeconds() {
      return recoveries.stream().map(n -> n / 1e9).toList();
    }

    /** Records the latest attempt has passed on: where the source stands. */
    public long position() {
      return position;
    }

    /** The task's attempt number now: the restarts so far. */
    public int attempt() {
      return attempt;
    }

    private synchronized void failed(long record) {
      failures.add(new long[] {record, System.nanoTime()});
    }

    private synchronized void resumed() {
      if (recoveries.size() < failures.size()) {
        recoveries.add(System.nanoTime() - failures.get(failures.size() - 1)[1]);
      }
    }
  }

  private static final Map<String, Log> LOGS = new ConcurrentHashMap<>();

  /** The log of run {@code id}, made on first use. */
  public static Log log(String id) {
    return LOGS.computeIfAbsent(id, k -> new Log());
  }

  /** Forgets run {@code id}. */
  public static void forget(String id) {
    LOGS.remove(id);
  }

  private final String id;
  private final long[] failAt;
  private final long dropAfterRestart;

  private transient ListState<Long> checkpointed;
  private transient long position;
  private transient long toDrop;
  private transient boolean first;

  /**
   * @param id the run, naming its {@link Log}
   * @param failAt record numbers (0-based, in stream order) at which to fail once each
   * @param dropAfterRestart sabotage: records to drop after each restart (0 in a real run)
   */
  public FailureInjector(String id, long[] failAt, long dropAfterRestart) {
    this.id = id;
    this.failAt = failAt.clone();
    this.dropAfterRestart = dropAfterRestart;
  }

  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    checkpointed =
        context
            .getOperatorStateStore()
            .getListState(new ListStateDescriptor<>("failure-injector-position", Types.LONG));
    position = 0;
    for (Long p : checkpointed.get()) {
      position += p;
    }
  }

  @Override
  public void open(OpenContext openContext) {
    int attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
    log(id).attempt = attempt;
    toDrop = attempt > 0 ? dropAfterRestart : 0;
    first = true;
  }

  @Override
  public void flatMap(StatusEvent e, Collector<StatusEvent> out) {
    Log log = log(id);
    if (first) {
      first = false;
      log.resumed();
    }
    for (long at : failAt) {
      if (at == position && log.fired.add(at)) {
        log.failed(at);
        throw new InjectedFailure(at);
      }
    }
    position++;
    log.position = position;
    if (toDrop > 0) {
      toDrop--;
      return;
    }
    out.collect(e);
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    checkpointed.update(List.of(position));
  }

  /** The exception an injected failure throws: the restart strategy restarts the job. */
  public static final class InjectedFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InjectedFailure(long record) {
      super("injected failure at status record " + record);
    }
  }
}
