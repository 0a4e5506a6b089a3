package io.recrawl.estimate;

import io.recrawl.wire.Dates;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Decides whether a page changed since its previous fetch, from whatever evidence the crawler gave.
 */
public final class ChangeEvidence {

  /** The outcome of weighing the evidence. */
  public enum Verdict {
    CHANGED,
    UNCHANGED,
    UNKNOWN
  }

  private ChangeEvidence() {}

  /**
   * Decides whether a page changed since its previous fetch. The strongest evidence wins, in this
   * order: the crawler's explicit verdict; HTTP 304 (unchanged); content signatures, when both are
   * present; ETags, when both are present; Last-Modified against the previous fetch time, when both
   * are known. Otherwise UNKNOWN.
   *
   * @param previousFetchMillis epoch ms of the previous fetch; 0 or less when there was none
   */
  public static Verdict assess(
      Boolean explicitChanged,
      Integer httpStatus,
      String signature,
      String previousSignature,
      String etag,
      String previousEtag,
      Long lastModifiedMillis,
      long previousFetchMillis) {
    if (explicitChanged != null) {
      return explicitChanged ? Verdict.CHANGED : Verdict.UNCHANGED;
    }
    if (httpStatus != null && httpStatus == 304) {
      return Verdict.UNCHANGED;
    }
    if (present(signature) && present(previousSignature)) {
      return signature.equals(previousSignature) ? Verdict.UNCHANGED : Verdict.CHANGED;
    }
    if (present(etag) && present(previousEtag)) {
      return normaliseEtag(etag).equals(normaliseEtag(previousEtag))
          ? Verdict.UNCHANGED
          : Verdict.CHANGED;
    }
    if (lastModifiedMillis != null && previousFetchMillis > 0) {
      return lastModifiedMillis > previousFetchMillis ? Verdict.CHANGED : Verdict.UNCHANGED;
    }
    return Verdict.UNKNOWN;
  }

  private static boolean present(String s) {
    return s != null && !s.isBlank();
  }

  /** A weak validator (W/"x") names the same version as the strong one for our purpose. */
  private static String normaliseEtag(String etag) {
    String e = etag.trim();
    if (e.startsWith("W/") || e.startsWith("w/")) {
      e = e.substring(2);
    }
    return e;
  }

  private static final List<DateTimeFormatter> HTTP_DATES =
      List.of(
          DateTimeFormatter.RFC_1123_DATE_TIME,
          // RFC 850, obsolete but still sent: "Sunday, 06-Nov-94 08:49:37 GMT"
          new DateTimeFormatterBuilder()
              .appendPattern("EEEE, dd-MMM-")
              .appendValueReduced(ChronoField.YEAR, 2, 2, 1970)
              .appendPattern(" HH:mm:ss zzz")
              .toFormatter(Locale.ENGLISH),
          // ANSI C asctime(): "Sun Nov  6 08:49:37 1994"
          DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.ENGLISH)
              .withZone(ZoneOffset.UTC));

  /** Every form {@link #parseDate} reads, the HTTP-dates first. */
  private static final List<Dates.Form> DATE_FORMS = dateForms();

  private static List<Dates.Form> dateForms() {
    List<Dates.Form> forms = new ArrayList<>();
    for (DateTimeFormatter f : HTTP_DATES) {
      forms.add(s -> ZonedDateTime.parse(s, f).toInstant());
    }
    forms.addAll(Dates.ISO_INSTANT);
    forms.add(Dates.ISO_LOCAL_UTC);
    forms.add(s -> LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant());
    return List.copyOf(forms);
  }

  /**
   * Parses a Last-Modified value leniently: HTTP-date (RFC 1123, RFC 850, asctime), ISO-8601
   * instant, offset date-time or date, or epoch milliseconds. Returns epoch ms, or null when the
   * value is absent or not a date ({@link Dates}: a year beyond 9999 is none either).
   */
  public static Long parseDate(String value) {
    return Dates.parse(value, DATE_FORMS);
  }

  /** A Last-Modified this close to the response is how dynamic pages stamp every response. */
  private static final long MIN_LAST_MODIFIED_AGE_MILLIS = 60_000L;

  /**
   * Milliseconds from the page's last change to a fetch at {@code fetchTime}, from Last-Modified,
   * or -1 when it cannot be trusted. The age is measured against the server's own Date header when
   * there is one, so clock skew does not matter; a Last-Modified within a minute of the response,
   * or not after the previous fetch, says nothing about when the page changed.
   */
  public static long sinceLastChange(
      Long lastModified, Long serverDate, long previousFetch, long fetchTime) {
    if (lastModified == null || previousFetch <= 0 || lastModified <= previousFetch) {
      return -1;
    }
    long age = (serverDate != null ? serverDate : fetchTime) - lastModified;
    return age >= MIN_LAST_MODIFIED_AGE_MILLIS && age <= fetchTime - previousFetch ? age : -1;
  }
}
