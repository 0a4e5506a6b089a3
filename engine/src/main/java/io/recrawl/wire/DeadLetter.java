package io.recrawl.wire;

/**
 * An input the job refused, kept with the reason so that it can be inspected and replayed.
 *
 * <p>Every field is bounded, so that a dead letter can always be written whatever the input (a
 * Kafka producer refuses a record above its {@code max.request.size}, 1 MB by default): the raw
 * input is cut to {@link #MAX_RAW_CHARS}, the detail to {@link #MAX_DETAIL_CHARS} and the reason to
 * {@link #MAX_REASON_CHARS}. Its JSON ({@link DeadLetterCodec#toJson}) is therefore at most {@link
 * #MAX_JSON_BYTES} bytes of UTF-8.
 *
 * @param raw the input exactly as received (possibly cut to a maximum length)
 * @param reason a machine-readable reason, one of {@link DeadLetterReason}'s codes
 * @param detail a human-readable explanation (possibly cut)
 * @param time when it was refused, epoch milliseconds
 */
public record DeadLetter(String raw, String reason, String detail, long time) {

  /** Dead letters keep at most this many characters of the raw input. */
  public static final int MAX_RAW_CHARS = 16_384;

  /** Dead letters keep at most this many characters of the detail. */
  public static final int MAX_DETAIL_CHARS = 1_024;

  /** A reason longer than this is cut (the codes are far shorter). */
  public static final int MAX_REASON_CHARS = 128;

  /**
   * The most bytes of a dead letter's JSON: a character takes at most 6 bytes ({@code \}{@code
   * u0001} for a control character; 3 bytes of UTF-8 otherwise, 4 for a pair of surrogates), plus
   * the field names, the time and the punctuation.
   */
  public static final int MAX_JSON_BYTES =
      6 * (MAX_RAW_CHARS + MAX_DETAIL_CHARS + MAX_REASON_CHARS) + 128;

  /** Cuts every field to its bound; a null text becomes empty. */
  public DeadLetter {
    raw = cut(raw, MAX_RAW_CHARS, "");
    reason = cut(reason, MAX_REASON_CHARS, "");
    detail = cut(detail, MAX_DETAIL_CHARS, "…");
  }

  /**
   * Builds a dead letter, cutting an oversized raw input or detail so that one bad record cannot
   * bloat the output.
   */
  public static DeadLetter of(String raw, String reason, String detail, long time) {
    return new DeadLetter(raw, reason, detail, time);
  }

  /**
   * This dead letter cut further so that its JSON takes at most {@code maxBytes} bytes of UTF-8
   * (for a sink that takes less than {@link #MAX_JSON_BYTES}): the raw input goes first, then the
   * detail; the reason and time stay.
   */
  public DeadLetter fit(long maxBytes) {
    long fixed = 6L * reason.length() + 128;
    long detailChars = Math.max(0, Math.min(detail.length(), (maxBytes - fixed) / 6));
    long rawChars = Math.max(0, (maxBytes - fixed - 6 * detailChars) / 6);
    if (rawChars >= raw.length() && detailChars >= detail.length()) {
      return this;
    }
    return new DeadLetter(
        cut(raw, (int) Math.min(rawChars, raw.length()), ""),
        reason,
        cut(detail, (int) detailChars, ""),
        time);
  }

  /**
   * The first {@code max} characters of {@code s} (ending in {@code mark} if cut), never splitting
   * a pair of surrogates.
   */
  static String cut(String s, int max, String mark) {
    if (s == null) {
      return "";
    }
    if (s.length() <= max) {
      return s;
    }
    int end = Math.max(0, max - mark.length());
    if (end > 0 && Character.isHighSurrogate(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(0, end) + mark;
  }
}
