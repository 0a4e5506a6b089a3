package io.recrawl.wire;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * One {@code key=value} pair of StormCrawler's tab-separated metadata (a seed line, the SQL table's
 * column). A pair that spelling cannot hold as it is goes under {@link #ESCAPED_KEY}, its key and
 * value URL-encoded and joined by {@code =}: recrawl's export writes it so, and every reader of
 * recrawl's (the job's seed reader, import) restores it.
 */
public final class TabMetadata {

  /** The key of an escaped pair. */
  public static final String ESCAPED_KEY = "recrawl.escaped";

  private TabMetadata() {}

  /**
   * The key and value of {@code pair}, an escaped one restored.
   *
   * @throws IllegalArgumentException not {@code key=value}, or an escaped pair that is not a
   *     URL-encoded {@code key=value}; the message says which
   */
  public static String[] pair(String pair) {
    int eq = pair.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException("metadata '" + pair + "' is not key=value");
    }
    String key = pair.substring(0, eq);
    String value = pair.substring(eq + 1);
    if (!key.equals(ESCAPED_KEY)) {
      return new String[] {key, value};
    }
    int sep = value.indexOf('=');
    try {
      if (sep < 0) {
        throw new IllegalArgumentException("no '='");
      }
      return new String[] {
        URLDecoder.decode(value.substring(0, sep), StandardCharsets.UTF_8),
        URLDecoder.decode(value.substring(sep + 1), StandardCharsets.UTF_8)
      };
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          ESCAPED_KEY + " '" + value + "' is not a URL-encoded key=value");
    }
  }
}
