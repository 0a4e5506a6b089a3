package io.recrawl.schedule;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Typed look-ups in a StormCrawler-style flat configuration map, each key's default taken from the
 * documented default file ({@link DefaultConf}); every error starts with the key.
 */
public final class ConfReader {
  private final Map<String, ?> conf;
  private final Map<String, ?> defaults;
  private final String defaultsName;

  /**
   * @param conf the topology's configuration
   * @param defaultFile the default file on the class path ({@link DefaultConf#CRAWLER}, {@link
   *     DefaultConf#SCHEDULER}) that declares every key this reader is asked for
   */
  public ConfReader(Map<String, ?> conf, String defaultFile) {
    this.conf = conf;
    this.defaults = DefaultConf.load(defaultFile);
    this.defaultsName = defaultFile;
  }

  /** The topology's value of a key, else the default file's. */
  private Object get(String key) {
    Object v = conf.get(key);
    if (v != null) {
      return v;
    }
    v = defaults.get(key);
    if (v == null && !defaults.containsKey(key)) {
      throw new IllegalStateException(key + ": not declared in " + defaultsName);
    }
    return v;
  }

  /** The topology's own value of a key that has no default, or null. */
  public String required(String key) {
    Object v = conf.get(key);
    if (v != null && !(v instanceof String)) {
      throw new IllegalArgumentException(key + ": must be a string, got " + v);
    }
    return v == null ? null : ((String) v).trim();
  }

  public String string(String key) {
    Object v = get(key);
    if (!(v instanceof String)) {
      throw new IllegalArgumentException(key + ": must be a string, got " + v);
    }
    return ((String) v).trim();
  }

  public boolean bool(String key) {
    Object v = get(key);
    if (v instanceof Boolean) {
      return (Boolean) v;
    }
    if (v instanceof String && (v.equals("true") || v.equals("false"))) {
      return Boolean.parseBoolean((String) v);
    }
    throw new IllegalArgumentException(key + ": must be true or false, got " + v);
  }

  public double number(String key) {
    Object v = get(key);
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

  public double positive(String key) {
    double d = number(key);
    if (!(d > 0)) {
      throw new IllegalArgumentException(key + ": must be > 0, got " + conf.get(key));
    }
    return d;
  }

  public double nonNegative(String key) {
    double d = number(key);
    if (d < 0) {
      throw new IllegalArgumentException(key + ": must be >= 0, got " + conf.get(key));
    }
    return d;
  }

  public long longInRange(String key, long min, long max) {
    Object v = get(key);
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

  /** A list of non-blank strings (a single string is a list of one). */
  public List<String> list(String key) {
    Object v = get(key);
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
