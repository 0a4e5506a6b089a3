package io.recrawl.flink.scheduler;

import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.OperatorStateStore;

/**
 * The scheduler operator's own state beside the hosts' keyed state, as union lists so that a
 * rescale hands every subtask all of it: the last watermark (the least of all subtasks' after a
 * rescale), the engine settings the state depends on ({@link StateSettings}) and the grid
 * posterior's learned prior ({@link LearnedPriorState}).
 */
final class OperatorStates {

  private final ListState<Long> watermark;
  private final ListState<String> settingsState;
  private final ListState<String> learnedPrior;
  private final Map<String, String> settings;
  private final TaskInfo task;

  /** The last watermark restored, or Long.MIN_VALUE. */
  final long restoredWatermark;

  /**
   * Whether the state was learned under other estimator priors: every host's prior sums are then
   * marked unknown, and the learned prior starts afresh.
   */
  final boolean forgetPriorSums;

  /**
   * Reads the states, and gives {@code scheduler} its learned prior back unless it is forgotten.
   */
  OperatorStates(OperatorStateStore store, HostSchedulerFunction scheduler, TaskInfo task)
      throws Exception {
    this.task = task;
    watermark = store.getUnionListState(SchedulerState.watermarkDescriptor());
    long least = Long.MAX_VALUE;
    for (Long w : watermark.get()) {
      least = Math.min(least, w);
    }
    restoredWatermark = least == Long.MAX_VALUE ? Long.MIN_VALUE : least;
    settingsState = store.getUnionListState(SchedulerState.engineSettingsDescriptor());
    settings = StateSettings.of(scheduler.engineConfig(), scheduler.partitionMode());
    forgetPriorSums =
        !StateSettings.check(StateSettings.parse(settingsState.get()), settings).isEmpty();
    learnedPrior = store.getUnionListState(SchedulerState.learnedPriorDescriptor());
    double[] prior =
        LearnedPriorState.restore(
            learnedPrior.get(), task.getIndexOfThisSubtask(), task.getNumberOfParallelSubtasks());
    if (prior != null && !forgetPriorSums) {
      scheduler.restoreLearnedPrior(prior);
    }
  }

  /** Writes the states for a checkpoint. */
  void snapshot(long lastWatermark, HostSchedulerFunction scheduler) throws Exception {
    watermark.update(List.of(lastWatermark));
    settingsState.update(List.of(StateSettings.format(settings)));
    double[] prior = scheduler.learnedPriorMass();
    learnedPrior.update(
        prior == null
            ? List.of()
            : List.of(
                LearnedPriorState.format(
                    task.getIndexOfThisSubtask(), task.getNumberOfParallelSubtasks(), prior)));
  }
}
