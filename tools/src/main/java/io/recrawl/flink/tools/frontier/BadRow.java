package io.recrawl.flink.tools.frontier;

/**
 * A row that cannot be imported: its line, why (a short reason, such as {@code bad_url}), the
 * details, and the input text.
 */
public record BadRow(long line, String reason, String detail, String raw) {

  /** Raw input kept in the reject file, in characters. */
  static final int MAX_RAW = 4096;

  /** The reject file's line: line, reason, detail and raw text, tab-separated, one line. */
  public String toTsv() {
    String r = raw == null ? "" : raw.length() > MAX_RAW ? raw.substring(0, MAX_RAW) : raw;
    return line + "\t" + reason + "\t" + oneLine(detail) + "\t" + oneLine(r);
  }

  private static String oneLine(String s) {
    return s == null
        ? ""
        : s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
  }
}
