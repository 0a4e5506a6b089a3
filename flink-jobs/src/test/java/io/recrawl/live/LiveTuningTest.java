package io.recrawl.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LiveTuningTest {

  @Test
  void defaultWebSpendsTheBudgetInWholeMinutes() {
    LiveTuning t = LiveTuning.of(1_200, 10, 20, 1.5);
    assertThat(t.defaultMinutes()).isEqualTo(2);
    assertThat(t.adaptiveMinMinutes()).isEqualTo(1);
    assertThat(t.adaptiveMaxMinutes()).isEqualTo(28);
    assertThat(t.crawlsPerDay()).isEqualTo(864_000);
    assertThat(t.roundingWarning()).isEmpty();
  }

  @Test
  void roundingThatMovesTheSpendMoreThanFivePerCentIsWarnedOf() {
    LiveTuning t = LiveTuning.of(1_000, 10, 20, 1.5);
    assertThat(t.defaultMinutes()).isEqualTo(2);
    assertThat(t.effectiveDefaultBudget()).isCloseTo(8.333, within(1e-3));
    assertThat(t.roundingWarning()).get().asString().contains("-17 %");
  }

  @Test
  void thresholdAndPriorAreConvertedToRealDays() {
    LiveTuning t = LiveTuning.of(1_200, 10, 20, 2.0);
    assertThat(t.thetaRealDays()).isCloseTo(2.0 * 20 / 86_400, within(1e-12));
    assertThat(t.priorRatePerRealDay()).isCloseTo(4_320, within(1e-9));
  }
}
