package io.recrawl.flink.tools.frontier;

/** Why a row cannot be imported; becomes a {@link BadRow}. */
final class RowRejection extends Exception {
  private static final long serialVersionUID = 1L;

  final String reason;

  RowRejection(String reason, String detail) {
    super(detail, null, false, false);
    this.reason = reason;
  }

  BadRow toBadRow(long line, String raw) {
    return new BadRow(line, reason, getMessage(), raw);
  }
}
