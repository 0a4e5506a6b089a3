package io.recrawl.flink.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;

/**
 * Reads a Flink {@code config.yaml}-style file (flat or nested keys) into a Flink {@link
 * Configuration}.
 */
public final class FlinkSettings {

  private FlinkSettings() {}

  /** Loads the file; a YAML error is reported with the file name. */
  public static Configuration load(Path file) throws IOException {
    Object root;
    try {
      root = new ObjectMapper(new YAMLFactory()).readValue(Files.readString(file), Object.class);
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      throw new ConfigException(file.toString(), "not valid YAML: " + e.getOriginalMessage());
    }
    Map<String, String> flat = new LinkedHashMap<>();
    if (root instanceof Map<?, ?> m) {
      flatten("", m, flat);
    } else if (root != null) {
      throw new ConfigException(file.toString(), "must be a map of Flink keys to values");
    }
    return Configuration.fromMap(flat);
  }

  private static void flatten(String prefix, Map<?, ?> in, Map<String, String> out) {
    for (Map.Entry<?, ?> e : in.entrySet()) {
      String key = prefix + e.getKey();
      Object v = e.getValue();
      if (v instanceof Map<?, ?> nested) {
        flatten(key + ".", nested, out);
      } else if (v instanceof List<?> list) {
        // Flink's list syntax in flat form.
        out.put(key, list.stream().map(String::valueOf).collect(Collectors.joining(";")));
      } else if (v != null) {
        out.put(key, v.toString());
      }
    }
  }
}
