package io.recrawl.wire;

/** The machine-readable reasons of a {@link DeadLetter}: part of the public wire contract. */
public final class DeadLetterReason {

  /** Not valid JSON, trailing garbage, or a duplicate field. */
  public static final String MALFORMED_JSON = "malformed_json";

  /** Valid JSON, but not an object. */
  public static final String NOT_AN_OBJECT = "not_an_object";

  /** Longer than the configured maximum. */
  public static final String TOO_LARGE = "too_large";

  /** A seed line that is not UTF-8 (its reader replaced a byte with U+FFFD). */
  public static final String BAD_ENCODING = "bad_encoding";

  /** The {@code url} is not an absolute http(s) URL with a host. */
  public static final String BAD_URL = "bad_url";

  /** The {@code status} is not one of DISCOVERED, FETCHED, FETCH_ERROR, REDIRECTION, ERROR. */
  public static final String UNKNOWN_STATUS = "unknown_status";

  /** A time is neither epoch milliseconds nor an ISO-8601 instant, or is negative. */
  public static final String BAD_TIME = "bad_time";

  /** A time lies further in the future than the configured tolerance. */
  public static final String TIME_IN_FUTURE = "time_in_future";

  /** The {@code metadata} is not an object of strings or lists of strings. */
  public static final String BAD_METADATA = "bad_metadata";

  /** The {@code weight} is not a number above zero that a float holds (1.4E-45 to 3.4E38). */
  public static final String BAD_WEIGHT = "bad_weight";

  /** The {@code changed} flag is not a boolean. */
  public static final String BAD_CHANGED = "bad_changed";

  /** The {@code http_status} is not an integer from 100 to 599. */
  public static final String BAD_HTTP_STATUS = "bad_http_status";

  /** A control message's {@code type} is not lambda, tick or host_rate. */
  public static final String UNKNOWN_TYPE = "unknown_type";

  /** A number field (lambda0, max_rate, epoch, value, threshold) is not a valid number. */
  public static final String BAD_NUMBER = "bad_number";

  /** A host name that cannot be normalised. */
  public static final String BAD_HOST = "bad_host";

  /** A {@code crawl} ID that is too long or holds control characters. */
  public static final String BAD_CRAWL = "bad_crawl";

  /** A {@code query} whose operation or parameters the job does not take. */
  public static final String BAD_QUERY = "bad_query";

  /**
   * An output record (a crawl request) larger than its sink takes, e.g. above the Kafka producer's
   * {@code max.request.size}; the raw copy is its JSON, cut.
   */
  public static final String OUTPUT_TOO_LARGE = "output_too_large";

  /** An output record that could not be written (serialization failed). */
  public static final String UNWRITABLE = "unwritable";

  private static final String MISSING_FIELD = "missing_field:";

  private DeadLetterReason() {}

  /** {@code missing_field:NAME}: a required field is absent or null. */
  public static String missingField(String name) {
    return MISSING_FIELD + name;
  }
}
