package io.recrawl.wire;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Reads dates from text that anyone may have written (a web server's headers, a crawler's metadata,
 * a store dump, an operator's option) without ever throwing: the answer is epoch ms, or null for
 * "not a date".
 *
 * <p>A date is one with a four-digit year, {@code 0000-01-01T00:00:00Z} to {@code
 * 9999-12-31T23:59:59.999Z}: what an HTTP-date can say and what ISO-8601 writes without a sign.
 * Java reads {@code +999999999-12-31} or {@code +300000000-01-01T00:00:00Z} as dates whose epoch
 * milliseconds overflow a long, so each read of them would throw {@link ArithmeticException}; and a
 * time beyond year 9999 written back into metadata is one that StormCrawler's own date formats do
 * not read. Such values are no dates, as garbage is not.
 */
public final class Dates {

  /** {@code 0000-01-01T00:00:00Z}, the earliest date. */
  public static final long MIN_MILLIS = -62_167_219_200_000L;

  /** {@code 9999-12-31T23:59:59.999Z}, the latest date. */
  public static final long MAX_MILLIS = 253_402_300_799_999L;

  private static final Instant MIN = Instant.ofEpochMilli(MIN_MILLIS);
  private static final Instant MAX = Instant.ofEpochMilli(MAX_MILLIS);

  /** One written form of a date; it may throw whatever the {@code java.time} parsers throw. */
  @FunctionalInterface
  public interface Form {
    Instant read(String text);
  }

  /**
   * An ISO-8601 instant with {@code Z} or an offset: {@code 2026-11-21T07:59:00Z}, {@code
   * 2026-11-21T08:59:00+01:00}.
   */
  public static final List<Form> ISO_INSTANT =
      List.of(Instant::parse, s -> OffsetDateTime.parse(s).toInstant());

  /** An ISO-8601 date-time without a zone, taken as UTC: {@code 2026-11-21T07:59:00}. */
  public static final Form ISO_LOCAL_UTC = s -> LocalDateTime.parse(s).toInstant(ZoneOffset.UTC);

  private Dates() {}

  /** Whether {@code epochMillis} is a date. */
  public static boolean isDate(long epochMillis) {
    return epochMillis >= MIN_MILLIS && epochMillis <= MAX_MILLIS;
  }

  /** Epoch ms of a string of ASCII digits, or null when it is none or no date. */
  public static Long epochMillis(String digits) {
    if (digits == null || digits.isEmpty() || digits.length() > 18) {
      return null;
    }
    for (int i = 0; i < digits.length(); i++) {
      char c = digits.charAt(i);
      if (c < '0' || c > '9') {
        return null;
      }
    }
    long ms = Long.parseLong(digits); // at most 18 digits: no overflow
    return isDate(ms) ? ms : null;
  }

  /**
   * Epoch ms of {@code text} (surrounding whitespace ignored) as epoch ms digits or the first of
   * {@code forms} that reads it, or null when none does or it names no date.
   */
  public static Long parse(String text, List<Form> forms) {
    if (text == null) {
      return null;
    }
    String s = text.strip();
    if (s.isEmpty()) {
      return null;
    }
    if (Character.isDigit(s.charAt(0)) && s.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return epochMillis(s);
    }
    for (Form f : forms) {
      Instant t;
      try {
        t = f.read(s);
      } catch (DateTimeException | ArithmeticException e) {
        continue; // not this form, or beyond what java.time holds
      }
      return t.isBefore(MIN) || t.isAfter(MAX) ? null : t.toEpochMilli();
    }
    return null;
  }

  /**
   * Epoch ms of epoch ms digits or an ISO-8601 instant with {@code Z} or an offset (what the wire,
   * the configuration and the command line take), or null.
   */
  public static Long instant(String text) {
    return parse(text, ISO_INSTANT);
  }
}
