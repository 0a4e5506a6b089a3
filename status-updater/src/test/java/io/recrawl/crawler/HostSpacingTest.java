package io.recrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostSpacingTest {

  /**
   * A crawler killed and started again cannot know when its last life asked a host: it must wait
   * the host's delay from its own start (docs/benchmarks.md#faults-in-the-loop).
   */
  @Test
  void aHostNeverFetchedByThisJvmWaitsItsDelayFromTheStartNotFromNever() throws Exception {
    long start = System.currentTimeMillis();
    HostSpacing spacing = new HostSpacing();
    HostSpacing.Host turn = spacing.awaitTurn("a.example", 400, 1);
    assertThat(System.currentTimeMillis() - start).isGreaterThanOrEqualTo(400);
    spacing.done(turn);
    // once the delay since the start is over, another host pays nothing more
    long before = System.currentTimeMillis();
    spacing.done(spacing.awaitTurn("b.example", 400, 1));
    assertThat(System.currentTimeMillis() - before).isLessThan(200);
  }
}
