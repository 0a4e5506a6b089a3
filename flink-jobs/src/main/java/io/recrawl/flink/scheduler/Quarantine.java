package io.recrawl.flink.scheduler;

import io.recrawl.wire.DeadLetter;
import java.util.ArrayList;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves aside a host whose state cannot be read, or whose wake-up throws, instead of failing the
 * job, up to {@code recrawl.quarantine.max-hosts} per subtask (0 by default: fail-fast, see
 * docs/operations.md). Such a host would otherwise fail the job again after every restart.
 *
 * <p>Quarantined, the host's keyed state (record, lease slots, pages, slots) is cleared, it is
 * logged and dead-lettered with its key ({@link SchedulerOutputs#HOST_QUARANTINED}, sent at the
 * next call that has an output) and counted in {@code recrawl.hostsQuarantined}; its next status
 * starts it afresh. The subtask's demand ledger and counts are rebuilt at the next control message.
 */
final class Quarantine {

  private static final Logger LOG = LoggerFactory.getLogger(Quarantine.class);

  private final long maxHosts;
  private final FlinkHostStore store;
  private final SchedulerMetrics metrics;
  private final SubtaskDemand demand;
  private final ArrayList<DeadLetter> letters = new ArrayList<>(1);
  private long quarantined;

  Quarantine(long maxHosts, FlinkHostStore store, SchedulerMetrics metrics, SubtaskDemand demand) {
    this.maxHosts = maxHosts;
    this.store = store;
    this.metrics = metrics;
    this.demand = demand;
  }

  /**
   * Quarantines {@code host} (the current key) after {@code failure}, or rethrows it: the failure
   * is the state backend's, or this subtask has quarantined its allowance of hosts already.
   */
  void quarantineOrThrow(String host, Exception failure, long now) throws RuntimeException {
    if (backendFailure(failure) || quarantined >= maxHosts) {
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
    demand.invalidate();
    LOG.warn(
        "host {} quarantined ({} of recrawl.quarantine.max-hosts = {} on this subtask): its"
            + " state is cleared",
        host,
        quarantined,
        maxHosts,
        failure);
    letters.add(
        DeadLetter.of(
            host,
            SchedulerOutputs.HOST_QUARANTINED,
            "host " + host + " quarantined, its state cleared, after: " + failure,
            now));
  }

  /** Sends the dead letters of the hosts quarantined since the last call that had an output. */
  void sendLetters(SideOutput side) {
    if (letters.isEmpty()) {
      return;
    }
    for (DeadLetter d : letters) {
      side.deadLetter(metrics, d);
    }
    letters.clear();
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
}
