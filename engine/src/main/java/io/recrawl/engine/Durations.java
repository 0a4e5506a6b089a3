package io.recrawl.engine;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations the way Flink's config.yaml writes them ("90 s", "5 min", "1 h", "2 d") into ms.
 */
public final class Durations {

  private static final Pattern FORMAT =
      Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*(ms|s|sec|min|m|h|d|day|days)?\\s*");

  private Durations() {}

  /** A number is taken as milliseconds; a string needs a unit. Throws with the key named. */
  public static long parseMillis(String key, Object value) {
    if (value instanceof Number n) {
      double v = n.doubleValue();
      if (!(v >= 0) || Double.isInfinite(v)) {
        throw new IllegalArgumentException(key + ": duration must be >= 0, got " + value);
      }
      return (long) v;
    }
    Matcher m = FORMAT.matcher(String.valueOf(value).toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(
          key + ": not a duration: '" + value + "' (examples: 500 ms, 90 s, 5 min, 1 h, 2 d)");
    }
    double v = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "ms" : m.group(2);
    double factor;
    switch (unit) {
      case "ms":
        factor = 1;
        break;
      case "s":
      case "sec":
        factor = 1_000;
        break;
      case "m":
      case "min":
        factor = 60_000;
        break;
      case "h":
        factor = 3_600_000;
        break;
      default:
        factor = 86_400_000;
    }
    return Math.round(v * factor);
  }
}
