package io.recrawl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.recrawl.sim.workload.ChangeHistory;
import org.junit.jupiter.api.Test;

/** A replayed history: a page changes exactly at its times, and freshness is counted from them. */
class GroundTruthTraceTest {

  @Test
  void fetchesSeeExactlyTheHistorysChangesAndFreshnessEndsAtTheFirstChangeAfterAFetch() {
    // Page 0 replays changes at days 1 and 2.5; page 1 has no history and never changes (rate 0).
    ChangeHistory history = new ChangeHistory(new double[][] {{1.0, 2.5}, null});
    FreshnessMeter meter = new FreshnessMeter(2, 0, 4, 1);
    GroundTruth truth =
        new GroundTruth(new double[] {1, 1}, new double[] {0.5, 0}, meter, 7, history);

    assertThat(truth.fetch(0, 0.0)).isEqualTo(GroundTruth.Outcome.FIRST);
    assertThat(truth.firstChangeAfterFetch(0)).isEqualTo(1.0);
    assertThat(truth.fetch(0, 0.5)).isEqualTo(GroundTruth.Outcome.UNCHANGED); // fresh 0 .. 0.5
    assertThat(truth.fetch(0, 2.0)).isEqualTo(GroundTruth.Outcome.CHANGED); // fresh 0.5 .. 1
    assertThat(truth.firstChangeAfterFetch(0)).isEqualTo(2.5);
    assertThat(truth.fetch(0, 2.5)).isEqualTo(GroundTruth.Outcome.CHANGED); // fresh 2 .. 2.5
    assertThat(truth.firstChangeAfterFetch(0)).isEqualTo(Double.POSITIVE_INFINITY);
    // A rate change does not touch a replayed page's times.
    truth.setRate(0, 100, 2.6);
    assertThat(truth.firstChangeAfterFetch(0)).isEqualTo(Double.POSITIVE_INFINITY);
    truth.fetch(1, 0.0);
    truth.finish(4.0); // page 0 fresh 2.5 .. 4, page 1 fresh 0 .. 4
    double[] fresh = meter.freshTimeInWindow();
    assertThat(fresh[0]).isCloseTo(0.5 + 0.5 + 0.5 + 1.5, offset(1e-12));
    assertThat(fresh[1]).isCloseTo(4.0, offset(1e-12));
  }
}
