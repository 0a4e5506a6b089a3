package io.recrawl.flink.scheduler;

import static io.recrawl.flink.scheduler.SchedulerHarness.DAY;
import static io.recrawl.flink.scheduler.SchedulerHarness.HOUR;
import static io.recrawl.flink.scheduler.SchedulerHarness.T0;
import static io.recrawl.flink.scheduler.SchedulerHarness.event;
import static io.recrawl.flink.scheduler.SchedulerHarness.settings;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.CrawlStatus;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.junit.jupiter.api.Test;

/**
 * The grid posterior's learned prior (operator state {@code learned-prior}) survives a restore, and
 * is shared out when the parallelism changes.
 */
class LearnedPriorRestoreTest {

  @Test
  void aRestoreKeepsTheLearnedPrior() throws Exception {
    double[] before;
    OperatorSubtaskState saved;
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      double[] fresh = s.fn.learnedPriorMass();
      for (int i = 0; i < 30; i++) {
        String url = "https://h" + (i % 3) + ".example/p" + i;
        s.status(url, CrawlStatus.DISCOVERED, T0);
        s.status(event(url, CrawlStatus.FETCHED, T0 + HOUR, true));
        s.status(event(url, CrawlStatus.FETCHED, T0 + 3 * DAY, i % 3 == 0));
      }
      before = s.fn.learnedPriorMass();
      assertThat(before).isNotEqualTo(fresh); // the crawl taught it something
      saved = s.snapshot();
    }
    try (SchedulerHarness r = new SchedulerHarness(settings(), saved)) {
      assertThat(r.fn.learnedPriorMass()).containsExactly(before);
    }
    // Learned under other estimator priors, it starts afresh, as the host prior sums do.
    try (SchedulerHarness r = new SchedulerHarness(settings("estimator.prior-rate", 0.5), saved)) {
      assertThat(r.fn.learnedPriorMass()).isNotEqualTo(before);
    }
  }

  @Test
  void atTheSameParallelismEachSubtaskGetsItsOwnPriorBack() {
    // An equal share here would change each subtask's prior at every recovery, and with it the
    // due times: a run with failures would not request what a run without them did.
    List<String> kept =
        List.of(
            LearnedPriorState.format(0, 2, new double[] {2, 4}),
            LearnedPriorState.format(1, 2, new double[] {6, 0}));
    assertThat(LearnedPriorState.restore(kept, 0, 2)).containsExactly(2, 4);
    assertThat(LearnedPriorState.restore(kept, 1, 2)).containsExactly(6, 0);
  }

  @Test
  void keptPriorsAreSharedOutOverTheSubtasksAfterARescale() {
    String a = LearnedPriorState.format(0, 2, new double[] {2, 4});
    String b = LearnedPriorState.format(1, 2, new double[] {6, 0});
    assertThat(LearnedPriorState.restore(List.of(a, b), 0, 1)).containsExactly(8, 4);
    assertThat(LearnedPriorState.restore(List.of(a, b), 3, 4)).containsExactly(2, 1);
    assertThat(LearnedPriorState.restore(List.of(), 0, 2)).isNull();
    assertThat(LearnedPriorState.restore(List.of("0/2:1,x"), 0, 2)).isNull();
    assertThat(LearnedPriorState.restore(List.of(a, "1/2:1,2,3"), 0, 2)).isNull();
  }
}
