package io.recrawl.flink.config;

import io.recrawl.engine.EngineKeys;
import java.util.List;

/**
 * Prints the documented key list as the YAML file body or as the Markdown tables of
 * docs/configuration.md.
 */
public final class ConfigDocs {

  private ConfigDocs() {}

  /** {@code ConfigDocs yaml|markdown|engine|engine-markdown}. */
  public static void main(String[] args) {
    String what = args.length > 0 ? args[0] : "yaml";
    System.out.print(
        switch (what) {
          case "markdown" -> markdown();
          case "engine" -> engineYaml();
          case "engine-markdown" -> engineMarkdown();
          default -> yaml();
        });
  }

  /** What {@code recrawl.kafka.properties.*} is, for the YAML and docs/configuration.md. */
  static final String KAFKA_PROPERTIES_DOC =
      "extra Kafka client properties for every Kafka source and sink (security, timeouts), e.g. "
          + "recrawl.kafka.properties.security.protocol: SASL_SSL; not the ones the job sets from its own keys";

  /** One commented {@code key: default} line per key. */
  public static String yaml() {
    StringBuilder b = new StringBuilder();
    for (ConfigKey<?> k : RecrawlOptions.all().values()) {
      b.append("# ").append(k.description()).append('\n');
      b.append(k.name()).append(": ").append(yamlValue(k.defaultValue())).append("\n\n");
    }
    b.append("# ").append(KAFKA_PROPERTIES_DOC).append('\n');
    b.append("# ")
        .append(RecrawlOptions.KAFKA_PROPERTIES_PREFIX)
        .append("security.protocol: SASL_SSL\n\n");
    return b.toString();
  }

  /**
   * The {@code recrawl.engine} section: every engine key, commented out with its default, from the
   * engine's own key list.
   */
  public static String engineYaml() {
    StringBuilder b = new StringBuilder();
    b.append(
        "# ---- engine: checked by io.recrawl.engine.EngineConfig; durations as \"90 s\", \"1 h\", \"2 d\" or ms.\n");
    b.append(
        "# Uncomment to change; the values shown are the defaults. recrawl.metadata.transfer above is\n");
    b.append("# passed on as metadata.transfer.\n");
    b.append("recrawl.engine:\n");
    for (var e : EngineKeys.ALL.entrySet()) {
      if (e.getKey().equals("metadata.transfer")) {
        continue;
      }
      b.append("  # ").append(e.getValue()[1]).append('\n');
      b.append("  # ").append(e.getKey()).append(": ").append(e.getValue()[0]).append('\n');
    }
    return b.toString();
  }

  /** | key | default | meaning | rows. */
  public static String markdown() {
    StringBuilder b = new StringBuilder("| key | default | meaning |\n|---|---|---|\n");
    for (ConfigKey<?> k : RecrawlOptions.all().values()) {
      b.append("| `")
          .append(k.name())
          .append("` | `")
          .append(yamlValue(k.defaultValue()))
          .append("` | ")
          .append(k.description().replace("|", "\\|"))
          .append(" |\n");
    }
    b.append("| `")
        .append(RecrawlOptions.KAFKA_PROPERTIES_PREFIX)
        .append("*` | none | ")
        .append(KAFKA_PROPERTIES_DOC)
        .append(" |\n");
    return b.toString();
  }

  /** The engine's keys as Markdown rows, under {@code recrawl.engine.}. */
  public static String engineMarkdown() {
    StringBuilder b =
        new StringBuilder("| key (under `recrawl.engine.`) | default | meaning |\n|---|---|---|\n");
    for (var e : EngineKeys.ALL.entrySet()) {
      if (e.getKey().equals("metadata.transfer")) {
        continue;
      }
      b.append("| `")
          .append(e.getKey())
          .append("` | `")
          .append(e.getValue()[0])
          .append("` | ")
          .append(e.getValue()[1].replace("|", "\\|"))
          .append(" |\n");
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
