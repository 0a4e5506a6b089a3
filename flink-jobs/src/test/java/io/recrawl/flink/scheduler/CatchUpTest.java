package io.recrawl.flink.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Event time moves to the input's watermark at once when it is cheap, else in bounded steps. */
class CatchUpTest {

  private static final long T = 1_700_000_000_000L;

  @Test
  void theFirstWatermarkAndASmallStepGoAtOnce() {
    CatchUp c = new CatchUp();
    c.moveTo(T, Long.MIN_VALUE);
    assertThat(c.nextStepEnd(Long.MIN_VALUE)).isEqualTo(T);
    c.stepped(Long.MIN_VALUE, T, 0);
    assertThat(c.stepping()).isFalse();
    c.moveTo(T + 200, T);
    assertThat(c.nextStepEnd(T)).isEqualTo(T + 200);
  }

  @Test
  void afterARestoreALongJumpGoesInStepsThatFollowTheWorkTheLastOneDid() {
    CatchUp c = new CatchUp();
    c.restored();
    c.moveTo(T + 86_400_000L, T);
    long end = c.nextStepEnd(T);
    assertThat(end).isEqualTo(T + CatchUp.FIRST_STEP_MS);
    // Many wake-ups in the first second: the next step is cut to the rate measured ...
    c.stepped(T, end, 4 * CatchUp.WORK_PER_STEP);
    assertThat(c.stepping()).isTrue();
    assertThat(c.nextStepEnd(end) - end).isEqualTo(CatchUp.FIRST_STEP_MS / 4);
    assertThat(c.from()).isEqualTo(T);
    // ... and quiet steps grow it twofold at most, until the watermark is reached.
    long at = end;
    long last = c.nextStepEnd(at) - at;
    for (int i = 0; i < 100 && c.stepping(); i++) {
      long next = c.nextStepEnd(at);
      assertThat(next - at).isLessThanOrEqualTo(2 * last);
      last = next - at;
      c.stepped(at, next, 0);
      at = next;
    }
    assertThat(c.stepping()).isFalse();
    assertThat(at).isEqualTo(T + 86_400_000L);
  }

  @Test
  void aWatermarkThatMovesOnWhileSteppingKeepsWhereTheStepsBegan() {
    CatchUp c = new CatchUp();
    c.restored();
    c.moveTo(T + 86_400_000L, T);
    c.stepped(T, T + 1_000, 10 * CatchUp.WORK_PER_STEP);
    c.moveTo(T + 86_500_000L, T + 1_000);
    assertThat(c.from()).isEqualTo(T);
    assertThat(c.target()).isEqualTo(T + 86_500_000L);
  }
}
