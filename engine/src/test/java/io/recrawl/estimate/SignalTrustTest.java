package io.recrawl.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SignalTrustTest {

  @Test
  void trustNeedsAboutTwentyCleanChecksAndOneLieInFiveNeverReachesIt() {
    float[] r = {0, 0};
    int n = 0;
    while (!SignalTrust.trusted(r[0], r[1], 0.95)) {
      SignalTrust.record(r, true);
      n++;
    }
    assertThat(n).isEqualTo(18); // (18 + 1) / (18 + 2) = 0.95
    float[] liar = {0, 0};
    for (int i = 0; i < 1000; i++) {
      SignalTrust.record(liar, i % 5 != 0); // 20 % wrong, as Bing found of lastmod
      assertThat(SignalTrust.trusted(liar[0], liar[1], 0.95)).isFalse();
    }
    assertThat(liar[1]).isEqualTo(SignalTrust.MAX_CLAIMS);
    assertThat(SignalTrust.agreement(liar[0], liar[1])).isBetween(0.78, 0.82);
    assertThat(SignalTrust.trusted(1000, 1000, 1.01)).isFalse(); // above 1: never used
  }

  @Test
  void aHostThatStartsLyingLosesTrust() {
    float[] r = {0, 0};
    for (int i = 0; i < 500; i++) {
      SignalTrust.record(r, true);
    }
    assertThat(SignalTrust.trusted(r[0], r[1], 0.95)).isTrue();
    int lies = 0;
    while (SignalTrust.trusted(r[0], r[1], 0.95)) {
      SignalTrust.record(r, false);
      lies++;
    }
    assertThat(lies).isLessThanOrEqualTo(10);
  }
}
