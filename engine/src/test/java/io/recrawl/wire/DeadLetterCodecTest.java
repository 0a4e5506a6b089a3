package io.recrawl.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeadLetterCodecTest {

  @Test
  void roundTripsIncludingHostileRawText() {
    DeadLetter d =
        DeadLetter.of("{\"url\":\u0000\"\n", "malformed_json", "Unexpected character", 123);
    assertThat(DeadLetterCodec.parse(DeadLetterCodec.toJson(d), 0).value()).isEqualTo(d);
  }

  @Test
  void aDeadLetterOfADeadLetterKeepsTheOriginal() {
    String raw = "not json";
    DeadLetter first = StatusEventCodec.withDefaults().parse(raw, 9).deadLetter();
    assertThat(first).isEqualTo(new DeadLetter(raw, "malformed_json", first.detail(), 9));
    assertThat(DeadLetterCodec.parse(DeadLetterCodec.toJson(first), 0).value().raw())
        .isEqualTo(raw);
  }
}
