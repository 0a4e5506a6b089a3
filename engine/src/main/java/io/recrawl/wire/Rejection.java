package io.recrawl.wire;

/**
 * Thrown inside the codecs when an input is refused; turned into a {@link DeadLetter} at the edge.
 */
final class Rejection extends Exception {

  private static final long serialVersionUID = 1L;

  private final String reason;

  Rejection(String reason, String detail) {
    super(detail, null, false, false); // no stack trace: bad input is expected, not exceptional
    this.reason = reason;
  }

  String reason() {
    return reason;
  }

  <T> Parsed<T> toParsed(String raw, long now) {
    return Parsed.rejected(DeadLetter.of(raw, reason, getMessage(), now));
  }
}
