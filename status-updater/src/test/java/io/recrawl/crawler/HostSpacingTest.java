package io.recrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostSpacingTest {

  /**
   * The live benchmark's crawler fault: killed and started again, a crawler asked a Crawl-delay
   * host 0.91 of its delay after its last life had (one violation at the server).
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
