package io.recrawl.wire;

/**
 * An input the job refused, kept with the reason so that it can be inspected and replayed.
 *
 * @param raw the input exactly as received (possibly cut to a maximum length)
 * @param reason a machine-readable reason, one of {@link DeadLetterReason}'s codes
 * @param detail a human-readable explanation
 * @param time when it was refused, epoch milliseconds
 */
public record DeadLetter(String raw, String reason, String detail, long time) {

  /** Dead letters keep at most this many characters of the raw input. */
  public static final int MAX_RAW_CHARS = 16_384;

  /**
   * Builds a dead letter, cutting an oversized raw input so that one bad record cannot bloat the
   * output.
   */
  public static DeadLetter of(String raw, String reason, String detail, long time) {
    String kept = raw == null ? "" : raw;
    if (kept.length() > MAX_RAW_CHARS) {
      kept = kept.substring(0, MAX_RAW_CHARS);
    }
    return new DeadLetter(kept, reason, detail == null ? "" : detail, time);
  }
}
