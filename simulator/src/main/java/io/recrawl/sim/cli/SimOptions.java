package io.recrawl.sim.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses {@code --name value}, {@code --flag} and multi-valued {@code --name a b c} options for the
 * workload, simulate and bench commands; unknown or missing options are errors, never ignored.
 */
public final class SimOptions {

  private final Map<String, List<String>> values = new HashMap<>();
  private final Set<String> used = new HashSet<>();

  public SimOptions(String[] args, Set<String> flags, Set<String> multi) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument '" + a + "'");
      }
      String name = a.substring(2);
      List<String> list = values.computeIfAbsent(name, k -> new ArrayList<>());
      if (flags.contains(name)) {
        list.add("true");
      } else if (multi.contains(name)) {
        int before = list.size();
        while (i + 1 < args.length && !args[i + 1].startsWith("--")) {
          for (String v : args[++i].split(",")) {
            if (!v.isBlank()) {
              list.add(v.strip());
            }
          }
        }
        if (list.size() == before) {
          throw new IllegalArgumentException("--" + name + " needs a value");
        }
      } else {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("--" + name + " needs a value");
        }
        list.add(args[++i]);
      }
    }
  }

  public boolean flag(String name) {
    used.add(name);
    return values.containsKey(name);
  }

  public String string(String name, String fallback) {
    used.add(name);
    List<String> v = values.get(name);
    return v == null ? fallback : v.get(v.size() - 1);
  }

  public String required(String name) {
    String v = string(name, null);
    if (v == null) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return v;
  }

  public List<String> list(String name) {
    used.add(name);
    return values.getOrDefault(name, List.of());
  }

  public double number(String name, double fallback) {
    String v = string(name, null);
    if (v == null) {
      return fallback;
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be a number, got '" + v + "'");
    }
  }

  public long integer(String name, long fallback) {
    String v = string(name, null);
    if (v == null) {
      return fallback;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be an integer, got '" + v + "'");
    }
  }

  /** Fails on any option that no code asked for (a typo must not silently change a run). */
  public void rejectUnknown() {
    for (String k : values.keySet()) {
      if (!used.contains(k)) {
        throw new IllegalArgumentException("unknown option --" + k);
      }
    }
  }
}
