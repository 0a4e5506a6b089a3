package io.recrawl.flink.config;

import java.util.List;

/** Prints the documented key list as the YAML file body or as the README's Markdown table. */
public final class ConfigDocs {

  private ConfigDocs() {}

  /** {@code ConfigDocs yaml|markdown}. */
  public static void main(String[] args) {
    System.out.print(args.length > 0 && args[0].equals("markdown") ? markdown() : yaml());
  }

  /** One commented {@code key: default} line per key. */
  public static String yaml() {
    StringBuilder b = new StringBuilder();
    for (ConfigKey<?> k : RecrawlOptions.all().values()) {
      b.append("# ").append(k.description()).append('\n');
      b.append(k.name()).append(": ").append(yamlValue(k.defaultValue())).append("\n\n");
    }
    return b.toString();
  }

  /** | key | default | meaning | rows. */
  public static String markdown() {
    StringBuilder b = new StringBuilder("| key | default | meaning |\n|---|---|---|\n");
    for (ConfigKey<?> k : RecrawlOptions.all().values()) {
      b.append("| `").append(k.name()).append("` | `").append(yamlValue(k.defaultValue())).append("` | ")
          .append(k.description().replace("|", "\\|")).append(" |\n");
    }
    return b.toString();
  }

  static String yamlValue(Object v) {
    if (v instanceof List<?> l) {
      return l.isEmpty() ? "[]" : l.toString();
    }
    if (v instanceof String s) {
      return s.isEmpty() ? "\"\"" : s;
    }
    return String.valueOf(v);
  }
}
