package io.recrawl.flink.scheduler;

import io.recrawl.engine.HostState;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one pass over every host record when the scheduler is restored: each host's wake-up timer is
 * registered again (an existing one is not doubled), which also repairs savepoints drained before
 * the end of time fired no timer; a record that cannot be read fails the restore or is quarantined;
 * a record on another rate grid refuses the restore; prior sums learned under other estimator
 * priors are marked unknown.
 */
final class RestorePass {

  private static final Logger LOG = LoggerFactory.getLogger(RestorePass.class);

  private RestorePass() {}

  /**
   * Runs the pass; returns the latest release of any host, or Long.MIN_VALUE.
   *
   * @param quarantineTime the time stamped on a quarantined host's dead letter
   */
  static long run(
      KeyedStateBackend<String> hosts,
      InternalTimerService<VoidNamespace> timers,
      HostSchedulerFunction scheduler,
      boolean forgetPriorSums,
      long quarantineTime,
      TaskInfo task)
      throws Exception {
    long[] latest = {Long.MIN_VALUE};
    long[] hostsAndPages = new long[2];
    int gridSize = scheduler.engineConfig().grid.size();
    hosts.applyToAllKeys(
        VoidNamespace.INSTANCE,
        VoidNamespaceSerializer.INSTANCE,
        SchedulerState.hostDescriptor(),
        (host, state) -> {
          HostState h;
          try {
            h = state.value();
          } catch (Exception unreadable) {
            scheduler.quarantine().quarantineOrThrow(host, unreadable, quarantineTime);
            return;
          }
          if (h == null) {
            return;
          }
          if (h.curve != null && h.curve.length != gridSize) {
            // A savepoint from before the settings were kept (StateSettings), on another grid.
            throw StateSettings.refusal(
                "host "
                    + host
                    + " has a demand curve of "
                    + h.curve.length
                    + " points and the grid of recrawl.engine.curve.min-threshold,"
                    + " curve.max-threshold and curve.points-per-decade has "
                    + gridSize);
          }
          if (forgetPriorSums) {
            h.learnedPages = HostState.LEARNED_UNKNOWN;
            h.learnedRateSum = 0;
            state.update(h);
          }
          if (h.wakeAt != Long.MAX_VALUE) {
            timers.registerEventTimeTimer(VoidNamespace.INSTANCE, h.wakeAt);
          }
          latest[0] = Math.max(latest[0], h.lastRelease);
          hostsAndPages[0]++;
          hostsAndPages[1] += h.pages;
        });
    LOG.info(
        "restored {} hosts and {} pages (subtask {} of {})",
        hostsAndPages[0],
        hostsAndPages[1],
        task.getIndexOfThisSubtask() + 1,
        task.getNumberOfParallelSubtasks());
    return latest[0];
  }
}
