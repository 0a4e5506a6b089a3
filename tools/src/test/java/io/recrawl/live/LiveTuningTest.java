package io.recrawl.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.recrawl.sim.policy.StormCrawlerAdaptivePolicy.Settings;
import org.junit.jupiter.api.Test;

class LiveTuningTest {

  @Test
  void stormCrawlersIntervalsAreMinutesOfTheSimulatedDay() {
    LiveTuning t = LiveTuning.of(1_200, 10, 20, 1.5, 6, Settings.defaultsScaledTo(6));
    // pages / budget = 120 s = 6 simulated days = 8,640 simulated minutes
    assertThat(LiveTuning.minutes(t.defaultIntervalDays())).isEqualTo(8_640);
    assertThat(LiveTuning.minutes(t.adaptive().minDays())).isEqualTo(360);
    assertThat(t.crawlsPerDay()).isEqualTo(864_000);
    assertThat(t.budgetIntervalRealMinutes()).isCloseTo(2, within(1e-12));
  }

  @Test
  void thresholdAndPriorAreConvertedToRealDays() {
    LiveTuning t = LiveTuning.of(1_200, 10, 20, 2.0, 6, Settings.defaultsScaledTo(6));
    assertThat(t.thetaRealDays()).isCloseTo(2.0 * 20 / 86_400, within(1e-12));
    assertThat(t.priorRatePerRealDay()).isCloseTo(4_320, within(1e-9));
  }
}
