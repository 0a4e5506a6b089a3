package io.recrawl.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Any text is a date in the four-digit years, or null; nothing throws. */
class DatesTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "+999999999-12-31T00:00:00Z",
        "+300000000-01-01T00:00:00Z",
        "-300000000-01-01T00:00:00Z",
        "+300000000-01-01T00:00:00+01:00",
        "+10000-01-01T00:00:00Z",
        "-0001-12-31T23:59:59Z",
        "253402300800000",
        "9223372036854775807",
        "99999999999999999999999",
        "",
        "  ",
        "soon",
        "2026-02-30T00:00:00Z",
        "\u0661\u0662\u0663"
      })
  void beyondTheFourDigitYearsOrGarbageIsNoDate(String text) {
    assertThat(Dates.instant(text)).isNull();
    assertThat(Dates.parse(text, List.of(Dates.ISO_LOCAL_UTC))).isNull();
  }

  @Test
  void theFourDigitYearsAreDates() {
    assertThat(Dates.instant("0000-01-01T00:00:00Z")).isEqualTo(Dates.MIN_MILLIS);
    assertThat(Dates.instant("9999-12-31T23:59:59.999Z")).isEqualTo(Dates.MAX_MILLIS);
    assertThat(Dates.instant(" 2026-11-21T08:59:00+01:00 "))
        .isEqualTo(Instant.parse("2026-11-21T07:59:00Z").toEpochMilli());
    assertThat(Dates.instant("1795334400000")).isEqualTo(1_795_334_400_000L);
    assertThat(Dates.instant(Long.toString(Dates.MAX_MILLIS))).isEqualTo(Dates.MAX_MILLIS);
    assertThat(Dates.parse("2026-11-21T07:59:00", List.of(Dates.ISO_LOCAL_UTC)))
        .isEqualTo(Instant.parse("2026-11-21T07:59:00Z").toEpochMilli());
    assertThat(Dates.isDate(Dates.MAX_MILLIS + 1)).isFalse();
    assertThat(Dates.isDate(Dates.MIN_MILLIS - 1)).isFalse();
  }

  @Test
  void aFormThatOverflowsIsNotThatForm() {
    Dates.Form overflowing =
        s -> {
          throw new ArithmeticException("long overflow");
        };
    assertThat(Dates.parse("2026-11-21T07:59:00Z", List.of(overflowing))).isNull();
    assertThat(Dates.parse("2026-11-21T07:59:00Z", List.of(overflowing, Instant::parse)))
        .isEqualTo(Instant.parse("2026-11-21T07:59:00Z").toEpochMilli());
  }
}
