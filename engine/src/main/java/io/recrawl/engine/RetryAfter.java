package io.recrawl.engine;

import io.recrawl.wire.StatusEvent;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an HTTP {@code Retry-After} value (RFC 9110 section 10.2.3): until when a host asked not to
 * be fetched. Pure: no clock but the event time it is given.
 *
 * <p>Accepted: delta-seconds ({@code 120}) and an HTTP-date in each of the three formats a
 * recipient must accept (RFC 9110 section 5.6.7): IMF-fixdate ({@code Sun, 06 Nov 1994 08:49:37
 * GMT}), the obsolete RFC 850 form ({@code Sunday, 06-Nov-94 08:49:37 GMT}, a two-digit year more
 * than 50 years after the event being read as the century before) and asctime ({@code Sun Nov 6
 * 08:49:37 1994}). Day and month names are matched case-insensitively; the day name is not checked
 * against the date.
 *
 * <p>Clamping: a value that is absurd (unparseable, negative, fractional, a number too large to
 * hold) or a wait longer than the cap gives {@code eventTime + cap}: the host said something, so
 * garbage is never read as "no wait". A well-formed value within the cap is taken as given; {@code
 * 0} means "now", and so does a date at or before the event: the server's clock runs behind the
 * crawler's (skew of a few seconds is common), and the time it named has passed. All arithmetic
 * saturates: an event time near {@link Long#MAX_VALUE} gives {@link Long#MAX_VALUE}, not an
 * overflow.
 */
public final class RetryAfter {

  /** Metadata key of the header on the wire (StormCrawler's {@code protocol.} prefix). */
  public static final String KEY = "protocol.retry-after";

  private static final String DAY = "(?:mon|tue|wed|thu|fri|sat|sun)";
  private static final String LONG_DAY =
      "(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
  private static final String MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec";
  private static final String MONTH = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)";
  private static final String TIME = "([0-9]{2}):([0-9]{2}):([0-9]{2})";

  /** IMF-fixdate: {@code Sun, 06 Nov 1994 08:49:37 GMT}. */
  private static final Pattern IMF =
      Pattern.compile(
          DAY + ", ([0-9]{2}) " + MONTH + " ([0-9]{4}) " + TIME + " gmt", Pattern.CASE_INSENSITIVE);

  /** Obsolete RFC 850: {@code Sunday, 06-Nov-94 08:49:37 GMT}. */
  private static final Pattern RFC850 =
      Pattern.compile(
          LONG_DAY + ", ([0-9]{2})-" + MONTH + "-([0-9]{2}) " + TIME + " gmt",
          Pattern.CASE_INSENSITIVE);

  /** asctime: {@code Sun Nov 6 08:49:37 1994} (a one-digit day after two spaces). */
  private static final Pattern ASCTIME =
      Pattern.compile(
          DAY + " " + MONTH + " ([ 0-9][0-9]) " + TIME + " ([0-9]{4})", Pattern.CASE_INSENSITIVE);

  private RetryAfter() {}

  /**
   * Until when the host is blocked, epoch ms. Call it only when the header is present: it has no
   * "absent" answer, since any value the host sent (garbage included) blocks it.
   *
   * @param value the header's value (surrounding whitespace is ignored); null counts as garbage
   * @param eventTimeMs when the response was received, epoch ms: delta-seconds count from it
   * @param capMs the longest wait honoured, ms, at least 0
   * @return a time in {@code [eventTimeMs, eventTimeMs + capMs]} (saturated); {@code eventTimeMs}
   *     for a date in the past
   * @throws IllegalArgumentException if {@code capMs} is negative
   */
  public static long blockUntil(String value, long eventTimeMs, long capMs) {
    if (capMs < 0) {
      throw new IllegalArgumentException("capMs must be 0 or more: " + capMs);
    }
    long capped = saturatedAdd(eventTimeMs, capMs);
    if (value == null) {
      return capped;
    }
    String v = value.strip();
    if (!v.isEmpty() && v.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return fromSeconds(v, eventTimeMs, capMs, capped);
    }
    long date = httpDate(v, eventTimeMs);
    if (date == Long.MIN_VALUE || date > capped) {
      return capped; // garbage, or beyond the cap
    }
    return Math.max(date, eventTimeMs); // a date that has passed: now
  }

  /**
   * The block a status event asks for, or empty if it carries no Retry-After: its first value of
   * {@link #KEY}, the key matched case-insensitively, read by {@link #blockUntil} against the
   * event's time.
   */
  public static OptionalLong blockUntil(StatusEvent e, long capMs) {
    String v = e.firstIgnoreCase(KEY);
    return v == null ? OptionalLong.empty() : OptionalLong.of(blockUntil(v, e.time(), capMs));
  }

  private static long fromSeconds(String digits, long eventTimeMs, long capMs, long capped) {
    // More digits than a long of milliseconds holds is beyond any cap.
    if (digits.length() > 15) {
      String trimmed = digits.replaceFirst("^0+(?=.)", "");
      if (trimmed.length() > 15) {
        return capped;
      }
      digits = trimmed;
    }
    long ms = Long.parseLong(digits) * 1000L; // at most 15 digits: no overflow
    return ms > capMs ? capped : saturatedAdd(eventTimeMs, ms);
  }

  /** An HTTP-date in epoch ms, or {@link Long#MIN_VALUE} if it is none. */
  private static long httpDate(String v, long eventTimeMs) {
    try {
      Matcher m = IMF.matcher(v);
      if (m.matches()) {
        return epochMs(
            Integer.parseInt(m.group(3)), m.group(2), Integer.parseInt(m.group(1)), m, 4);
      }
      m = RFC850.matcher(v);
      if (m.matches()) {
        return epochMs(
            twoDigitYear(Integer.parseInt(m.group(3)), eventTimeMs),
            m.group(2),
            Integer.parseInt(m.group(1)),
            m,
            4);
      }
      m = ASCTIME.matcher(v);
      if (m.matches()) {
        return epochMs(
            Integer.parseInt(m.group(6)), m.group(1), Integer.parseInt(m.group(2).strip()), m, 3);
      }
    } catch (DateTimeException | NumberFormatException e) {
      return Long.MIN_VALUE; // e.g. 31 Feb, 25:00:00, a leap second
    }
    return Long.MIN_VALUE;
  }

  private static long epochMs(int year, String month, int day, Matcher m, int timeGroup) {
    int mon = MONTHS.indexOf(month.toLowerCase(Locale.ROOT)) / 4 + 1;
    LocalDateTime t =
        LocalDateTime.of(
            year,
            mon,
            day,
            Integer.parseInt(m.group(timeGroup)),
            Integer.parseInt(m.group(timeGroup + 1)),
            Integer.parseInt(m.group(timeGroup + 2)));
    return t.toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  /**
   * RFC 9110 section 5.6.7: a two-digit year that would lie more than 50 years after the event is
   * the most recent past year with those digits.
   */
  private static int twoDigitYear(int yy, long eventTimeMs) {
    int eventYear =
        LocalDateTime.ofEpochSecond(Math.floorDiv(eventTimeMs, 1000L), 0, ZoneOffset.UTC).getYear();
    int year = eventYear - Math.floorMod(eventYear, 100) + yy;
    if (year > eventYear + 50) {
      year -= 100;
    } else if (year < eventYear - 49) {
      year += 100; // ...99 read in ...00 is the year before, not 99 years later
    }
    return year;
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    // Overflow only if both have the same sign and the result's sign differs.
    if (((a ^ r) & (b ^ r)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return r;
  }
}
