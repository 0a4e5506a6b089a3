package io.recrawl.flink.config;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One documented configuration key: name, default, meaning, and how a YAML value is checked.
 *
 * @param <T> the type of the value
 */
public final class ConfigKey<T> implements Serializable {

  private static final long serialVersionUID = 1L;

  /** Converts a raw YAML value; throws {@link IllegalArgumentException} with the problem. */
  @FunctionalInterface
  interface Parser<T> extends Serializable {
    T parse(Object raw);
  }

  private final String name;
  private final T defaultValue;
  private final String description;
  private final Parser<T> parser;

  private ConfigKey(String name, T defaultValue, String description, Parser<T> parser) {
    this.name = name;
    this.defaultValue = defaultValue;
    this.description = description;
    this.parser = parser;
  }

  public String name() {
    return name;
  }

  public T defaultValue() {
    return defaultValue;
  }

  public String description() {
    return description;
  }

  /** Checks and converts a raw value, naming this key in the exception. */
  T parse(Object raw) {
    if (raw == null && defaultValue instanceof String) {
      return parser.parse(""); // "key:" with nothing after it in YAML means empty
    }
    if (raw == null) {
      throw new ConfigException(
          name, "has no value (remove the key to use the default " + defaultValue + ")");
    }
    try {
      return parser.parse(raw);
    } catch (ConfigException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new ConfigException(name, e.getMessage() + " (got '" + raw + "')");
    }
  }

  static ConfigKey<String> string(String name, String def, String description) {
    return new ConfigKey<>(
        name,
        def,
        description,
        raw -> {
          if (raw instanceof String s) {
            return s.strip();
          }
          if (raw instanceof Number || raw instanceof Boolean) {
            return raw.toString();
          }
          throw new IllegalArgumentException("must be a string");
        });
  }

  /**
   * A string from a fixed set, compared case-insensitively and returned in its canonical spelling.
   */
  static ConfigKey<String> choice(String name, String def, String description, String... choices) {
    List<String> allowed = Arrays.asList(choices);
    return new ConfigKey<>(
        name,
        def,
        description + " (" + String.join(" | ", choices) + ")",
        raw -> {
          String s = raw.toString().strip();
          for (String c : allowed) {
            if (c.equalsIgnoreCase(s)) {
              return c;
            }
          }
          throw new IllegalArgumentException("must be one of " + String.join(", ", allowed));
        });
  }

  static ConfigKey<Long> integer(String name, long def, long min, long max, String description) {
    return new ConfigKey<>(
        name,
        def,
        description,
        raw -> {
          long v;
          if (raw instanceof Integer || raw instanceof Long || raw instanceof Short) {
            v = ((Number) raw).longValue();
          } else if (raw instanceof String s && s.strip().matches("-?\\d{1,18}")) {
            v = Long.parseLong(s.strip());
          } else {
            throw new IllegalArgumentException("must be an integer");
          }
          if (v < min || v > max) {
            throw new IllegalArgumentException("must be between " + min + " and " + max);
          }
          return v;
        });
  }

  static ConfigKey<Double> number(
      String name, double def, double min, double max, String description) {
    return new ConfigKey<>(
        name,
        def,
        description,
        raw -> {
          double v;
          if (raw instanceof Number n) {
            v = n.doubleValue();
          } else if (raw instanceof String s) {
            try {
              v = Double.parseDouble(s.strip());
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException("must be a number");
            }
          } else {
            throw new IllegalArgumentException("must be a number");
          }
          if (!(v >= min && v <= max)) { // also refuses NaN
            throw new IllegalArgumentException("must be between " + min + " and " + max);
          }
          return v;
        });
  }

  /** A YAML list of strings; a single string is a list of one. */
  static ConfigKey<List<String>> list(String name, List<String> def, String description) {
    return new ConfigKey<>(
        name,
        List.copyOf(def),
        description,
        raw -> {
          List<String> out = new ArrayList<>();
          if (raw instanceof List<?> l) {
            for (Object o : l) {
              if (!(o instanceof String || o instanceof Number || o instanceof Boolean)) {
                throw new IllegalArgumentException("must be a list of strings");
              }
              out.add(o.toString().strip());
            }
          } else if (raw instanceof String s) {
            for (String part : s.split(",")) {
              if (!part.isBlank()) {
                out.add(part.strip());
              }
            }
          } else {
            throw new IllegalArgumentException("must be a list of strings");
          }
          return List.copyOf(out);
        });
  }

  @Override
  public String toString() {
    return name;
  }
}
