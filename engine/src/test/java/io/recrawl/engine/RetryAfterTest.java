package io.recrawl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RetryAfterTest {

  /** 1994-11-06T08:49:00Z: 37 seconds before RFC 9110's example date. */
  private static final long T = Instant.parse("1994-11-06T08:49:00Z").toEpochMilli();

  private static final long EXAMPLE = Instant.parse("1994-11-06T08:49:37Z").toEpochMilli();
  private static final long HOUR = 3_600_000L;
  private static final long DAY = 24 * HOUR;

  @Test
  void deltaSecondsCountFromTheEvent() {
    assertThat(RetryAfter.blockUntil("5", T, HOUR)).isEqualTo(T + 5_000);
    assertThat(RetryAfter.blockUntil("120", T, HOUR)).isEqualTo(T + 120_000);
    assertThat(RetryAfter.blockUntil(" 3600 ", T, HOUR)).isEqualTo(T + HOUR);
    assertThat(RetryAfter.blockUntil("007", T, HOUR)).isEqualTo(T + 7_000);
    assertThat(RetryAfter.blockUntil("0", T, HOUR)).as("retry now").isEqualTo(T);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
        "sun, 06 NOV 1994 08:49:37 gmt",
        "  Sun, 06 Nov 1994 08:49:37 GMT\t"
      })
  void allThreeHttpDateFormatsAreRead(String value) {
    assertThat(RetryAfter.blockUntil(value, T, HOUR)).isEqualTo(EXAMPLE);
  }

  @Test
  void asctimeWithATwoDigitDayIsRead() {
    long t = Instant.parse("1994-11-16T08:49:00Z").toEpochMilli();
    assertThat(RetryAfter.blockUntil("Wed Nov 16 08:49:37 1994", t, HOUR)).isEqualTo(t + 37_000);
  }

  @Test
  void anRfc850YearMoreThanFiftyYearsAheadIsTheCenturyBefore() {
    long t2026 = Instant.parse("2026-11-21T08:00:00Z").toEpochMilli();
    assertThat(RetryAfter.blockUntil("Saturday, 21-Nov-26 08:00:10 GMT", t2026, HOUR))
        .isEqualTo(t2026 + 10_000);
    // 2094 would be more than 50 years ahead: 1994, in the past, so now.
    assertThat(RetryAfter.blockUntil("Sunday, 06-Nov-94 08:49:37 GMT", t2026, HOUR))
        .isEqualTo(t2026);
    // Across a century: read in 2099, "01" is 2101 (the cap), not 2001.
    long t2099 = Instant.parse("2099-12-31T23:59:00Z").toEpochMilli();
    assertThat(RetryAfter.blockUntil("Thursday, 01-Jan-00 00:00:00 GMT", t2099, HOUR))
        .isEqualTo(Instant.parse("2100-01-01T00:00:00Z").toEpochMilli());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "   ",
        "soon",
        "-5",
        "+5",
        "1.5",
        "1e3",
        "NaN",
        "Infinity",
        "0x10",
        "5, 10",
        "5 s",
        "Sun, 06 Nov 1994 08:49:37 PST",
        "Sun, 06 Nov 1994 08:49:37",
        "Sun, 6 Nov 1994 08:49:37 GMT",
        "Sun, 31 Feb 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 25:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:60 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT",
        "Sunday, 06-Nov-1994 08:49:37 GMT",
        "Sun Nov 6 08:49:37 1994",
        "1994-11-06T08:49:37Z",
        "\u0665"
      })
  void garbageIsClampedToTheCapNotIgnored(String value) {
    assertThat(RetryAfter.blockUntil(value, T, HOUR)).isEqualTo(T + HOUR);
  }

  @Test
  void nullIsGarbage() {
    assertThat(RetryAfter.blockUntil(null, T, HOUR)).isEqualTo(T + HOUR);
  }

  @Test
  void aDateInThePastMeansNow() {
    // The server's clock a second behind, or far behind: retry now, not after the longest block.
    assertThat(RetryAfter.blockUntil("Sun, 06 Nov 1994 08:48:59 GMT", T, HOUR)).isEqualTo(T);
    assertThat(RetryAfter.blockUntil("Sun, 06 Nov 1994 08:48:59 GMT", T, DAY)).isEqualTo(T);
    assertThat(RetryAfter.blockUntil("Thu, 01 Jan 1970 00:00:00 GMT", T, HOUR)).isEqualTo(T);
    assertThat(RetryAfter.blockUntil("Sunday, 06-Nov-94 08:48:00 GMT", T, HOUR)).isEqualTo(T);
    assertThat(RetryAfter.blockUntil("Sun Nov  6 08:48:00 1994", T, HOUR)).isEqualTo(T);
    assertThat(RetryAfter.blockUntil("Sun, 06 Nov 1994 08:49:00 GMT", T, HOUR))
        .as("the event's own time is now, not the past")
        .isEqualTo(T);
  }

  @Test
  void aWaitBeyondTheCapIsClampedToTheCap() {
    assertThat(RetryAfter.blockUntil("3601", T, HOUR)).isEqualTo(T + HOUR);
    assertThat(RetryAfter.blockUntil("3600", T, HOUR)).isEqualTo(T + HOUR);
    assertThat(RetryAfter.blockUntil("31536000", T, DAY)).isEqualTo(T + DAY);
    assertThat(RetryAfter.blockUntil("Mon, 07 Nov 1994 08:49:37 GMT", T, HOUR)).isEqualTo(T + HOUR);
    assertThat(RetryAfter.blockUntil("Fri, 31 Dec 9999 23:59:59 GMT", T, DAY)).isEqualTo(T + DAY);
    assertThat(RetryAfter.blockUntil("5", T, 0)).as("a cap of 0 honours nothing").isEqualTo(T);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "9223372036854775807",
        "9223372036854775808",
        "99999999999999999999999999999999999999",
        "9223372036854776"
      })
  void hugeNumbersAreClampedToTheCap(String value) {
    assertThat(RetryAfter.blockUntil(value, T, HOUR)).isEqualTo(T + HOUR);
  }

  @Test
  void leadingZerosDoNotMakeANumberHuge() {
    assertThat(RetryAfter.blockUntil("0000000000000000000000000000005", T, HOUR))
        .isEqualTo(T + 5_000);
  }

  @Test
  void arithmeticSaturatesInsteadOfOverflowing() {
    long end = Long.MAX_VALUE - 10;
    assertThat(RetryAfter.blockUntil("5", end, HOUR)).isEqualTo(Long.MAX_VALUE);
    assertThat(RetryAfter.blockUntil("garbage", end, HOUR)).isEqualTo(Long.MAX_VALUE);
    assertThat(RetryAfter.blockUntil("1", 0, Long.MAX_VALUE)).isEqualTo(1_000);
    assertThat(RetryAfter.blockUntil("garbage", 1, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    assertThat(RetryAfter.blockUntil("99999999999999", end, Long.MAX_VALUE))
        .isEqualTo(Long.MAX_VALUE);
    assertThat(RetryAfter.blockUntil("Sun, 06 Nov 1994 08:49:37 GMT", Long.MIN_VALUE, HOUR))
        .as("a date far beyond an absurd event time plus the cap")
        .isEqualTo(Long.MIN_VALUE + HOUR);
  }

  @Test
  void aNegativeCapIsRefused() {
    assertThatThrownBy(() -> RetryAfter.blockUntil("5", T, -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static StatusEvent event(Map<String, List<String>> md) {
    return new StatusEvent(
        "http://a.org/", "a.org", CrawlStatus.FETCH_ERROR, T, md, null, null, 429);
  }

  @Test
  void anEventWithoutTheHeaderHasNoBlock() {
    assertThat(RetryAfter.blockUntil(event(Map.of()), HOUR)).isEmpty();
    assertThat(RetryAfter.blockUntil(event(Map.of("protocol.retry-after", List.of())), HOUR))
        .isEmpty();
  }

  @Test
  void theEventsHeaderNameIsMatchedCaseInsensitively() {
    assertThat(RetryAfter.blockUntil(event(Map.of("protocol.retry-after", List.of("5"))), HOUR))
        .isEqualTo(OptionalLong.of(T + 5_000));
    assertThat(RetryAfter.blockUntil(event(Map.of("protocol.Retry-After", List.of("7"))), HOUR))
        .isEqualTo(OptionalLong.of(T + 7_000));
    assertThat(RetryAfter.blockUntil(event(Map.of("PROTOCOL.RETRY-AFTER", List.of("x"))), HOUR))
        .isEqualTo(OptionalLong.of(T + HOUR));
  }
}
