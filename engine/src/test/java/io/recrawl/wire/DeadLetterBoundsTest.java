package io.recrawl.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A dead letter stays under {@link DeadLetter#MAX_JSON_BYTES} whatever the input, one reason at a
 * time, each made from an input of over 1 MB whose bulk sits where the detail quotes it.
 */
class DeadLetterBoundsTest {

  private static final long NOW = 1_800_000_000_000L;

  /** 1 MB of characters that are expensive to write: 3 bytes of UTF-8, or 6 once escaped. */
  private static final String BULK = "€\\u0001".repeat(150_000);

  private static final StatusEventCodec STATUS =
      new StatusEventCodec(HostKeys.Mode.BY_HOST, 3_600_000, 8_000_000);
  private static final ControlMessageCodec CONTROL = new ControlMessageCodec(3_600_000);

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
      malformed_json       | {"url":"http://a.org/","status":"FETCHED","time":1,"x":"BULK"
      not_an_object        | ["BULK"]
      missing_field:url    | {"status":"FETCHED","time":1,"x":"BULK"}
      bad_url              | {"url":"http://a.org/BULK","status":"FETCHED","time":1}
      bad_url              | {"url":"http://BULK/","status":"FETCHED","time":1}
      bad_url              | {"url":"BULK","status":"FETCHED","time":1}
      unknown_status       | {"url":"http://a.org/","status":"BULK","time":1}
      bad_time             | {"url":"http://a.org/","status":"FETCHED","time":"BULK"}
      bad_time             | {"url":"http://a.org/","status":"FETCHED","time":["BULK"]}
      time_in_future       | {"url":"http://a.org/","status":"FETCHED","time":99999999999999,"x":"BULK"}
      bad_metadata         | {"url":"http://a.org/","status":"FETCHED","time":1,"metadata":{"a":{"b":"BULK"}}}
      bad_metadata         | {"url":"http://a.org/","status":"FETCHED","time":1,"metadata":{"recrawl.change-rate":"BULK"}}
      bad_weight           | {"url":"http://a.org/","status":"FETCHED","time":1,"weight":"BULK"}
      bad_changed          | {"url":"http://a.org/","status":"FETCHED","time":1,"changed":"BULK"}
      bad_http_status      | {"url":"http://a.org/","status":"FETCHED","time":1,"http_status":["BULK"]}
      """)
  void statusDeadLettersAreBounded(String reason, String template) {
    String raw = template.replace("BULK", BULK);
    assertThat(raw.length()).isGreaterThan(1_000_000);
    DeadLetter d = STATUS.parse(raw, NOW).deadLetter();
    assertThat(d.reason()).isEqualTo(reason);
    assertBounded(d);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"BULK", "http://a.org/\tBULK", "http://a.org/\tk=BULK\tBULK"})
  void seedDeadLettersAreBounded(String template) {
    DeadLetter d = STATUS.parseSeed(template.replace("BULK", BULK), NOW).deadLetter();
    assertBounded(d);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      too_large      | {"url":"http://a.org/BULK","status":"FETCHED","time":1}
      """)
  void tooLargeIsBounded(String reason, String template) {
    DeadLetter d =
        StatusEventCodec.withDefaults()
            .parse(template.replace("BULK", BULK + BULK), NOW)
            .deadLetter();
    assertThat(d.reason()).isEqualTo(reason);
    assertBounded(d);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      unknown_type   | {"type":"BULK","time":1}
      bad_number     | {"type":"lambda","time":1,"epoch":1,"lambda0":"BULK"}
      bad_host       | {"type":"host_rate","time":1,"host":"BULK","max_rate":24}
      bad_time       | {"type":"tick","time":"BULK"}
      """)
  void controlDeadLettersAreBounded(String reason, String template) {
    String bulk = "€\\u0001".repeat(140_000);
    DeadLetter d = CONTROL.parse(template.replace("BULK", bulk), NOW).deadLetter();
    assertThat(d.reason()).isEqualTo(reason);
    assertBounded(d);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"rejected_by_engine", "bad_control", "unwritable_request"})
  void deadLettersMadeAnywhereAreBounded(String reason) {
    String huge = "\u0001\uD83D\uDE00".repeat(400_000);
    assertBounded(DeadLetter.of(huge, reason, huge, NOW));
    assertBounded(new DeadLetter(huge, huge, huge, NOW));
    // A cut never splits a pair of surrogates.
    DeadLetter d = DeadLetter.of("x" + "\uD83D\uDE00".repeat(20_000), reason, null, NOW);
    assertThat(Character.isHighSurrogate(d.raw().charAt(d.raw().length() - 1))).isFalse();
    assertThat(d.detail()).isEmpty();
  }

  private static void assertBounded(DeadLetter d) {
    assertThat(d.raw().length()).isLessThanOrEqualTo(DeadLetter.MAX_RAW_CHARS);
    assertThat(d.detail().length()).isLessThanOrEqualTo(DeadLetter.MAX_DETAIL_CHARS);
    assertThat(d.reason().length()).isLessThanOrEqualTo(DeadLetter.MAX_REASON_CHARS);
    byte[] json = DeadLetterCodec.toJson(d).getBytes(StandardCharsets.UTF_8);
    assertThat(json.length).isLessThanOrEqualTo(DeadLetter.MAX_JSON_BYTES);
    assertThat(DeadLetter.MAX_JSON_BYTES).isLessThan(1_000_000); // Kafka's default is 1 MB
  }
}
