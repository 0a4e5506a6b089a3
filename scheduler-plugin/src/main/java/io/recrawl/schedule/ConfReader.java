package io.recrawl.schedule;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Typed look-ups in a StormCrawler-style flat configuration map; every error starts with the key.
 */
public final class ConfReader {
  private final Map<String, ?> conf;

  public ConfReader(Map<String, ?> conf) {
    this.conf = conf;
  }

  public String string(String key, String dflt) {
    Object v = conf.get(key);
    if (v == null) {
      return dflt;
    }
    if (!(v instanceof String)) {
      throw new IllegalArgumentException(key + ": must be a string, got " + v);
    }
    return ((String) v).trim();
  }

  public boolean bool(String key, boolean dflt) {
    Object v = conf.get(key);
    if (v == null) {
      return dflt;
    }
    if (v instanceof Boolean) {
      return (Boolean) v;
    }
    if (v instanceof String && (v.equals("true") || v.equals("false"))) {
      return Boolean.parseBoolean((String) v);
    }
    throw new IllegalArgumentException(key + ": must be true or false, got " + v);
  }

  public double number(String key, double dflt) {
    Object v = conf.get(key);
    if (v == null) {
      return dflt;
    }
    double d;
    if (v instanceof Number) {
      d = ((Number) v).doubleValue();
    } else if (v instanceof String) {
      try {
        d = Double.parseDouble(((String) v).trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(key + ": must be a number, got '" + v + "'");
      }
    } else {
      throw new IllegalArgumentException(key + ": must be a number, got " + v);
    }
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException(key + ": must be a finite number, got " + v);
    }
    return d;
  }

  public double positive(String key, double dflt) {
    double d = number(key, dflt);
    if (!(d > 0)) {
      throw new IllegalArgumentException(key + ": must be > 0, got " + conf.get(key));
    }
    return d;
  }

  public double nonNegative(String key, double dflt) {
    double d = number(key, dflt);
    if (d < 0) {
      throw new IllegalArgumentException(key + ": must be >= 0, got " + conf.get(key));
    }
    return d;
  }

  public long longInRange(String key, long dflt, long min, long max) {
    Object v = conf.get(key);
    if (v == null) {
      return dflt;
    }
    long n;
    if (v instanceof Integer || v instanceof Long || v instanceof Short) {
      n = ((Number) v).longValue();
    } else if (v instanceof String) {
      try {
        n = Long.parseLong(((String) v).trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(key + ": must be a whole number, got '" + v + "'");
      }
    } else {
      throw new IllegalArgumentException(key + ": must be a whole number, got " + v);
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException(
          key
              + ": must be at least "
              + min
              + (max < Long.MAX_VALUE ? " and at most " + max : "")
              + ", got "
              + n);
    }
    return n;
  }

  /** A list of non-blank strings (a single string is a list of one); empty when absent. */
  public List<String> list(String key) {
    Object v = conf.get(key);
    if (v == null) {
      return List.of();
    }
    Collection<?> items = v instanceof Collection ? (Collection<?>) v : List.of(v);
    List<String> out = new ArrayList<>();
    for (Object o : items) {
      if (!(o instanceof String) || ((String) o).isBlank()) {
        throw new IllegalArgumentException(key + ": must be a list of non-empty strings, got " + v);
      }
      out.add(((String) o).trim());
    }
    return List.copyOf(out);
  }
}
