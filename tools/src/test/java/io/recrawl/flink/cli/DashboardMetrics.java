package io.recrawl.flink.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names of the Grafana dashboard ({@code config/grafana-dashboard.json}), read from the
 * PromQL of its panels and variables, and the metrics of a Prometheus scrape.
 */
final class DashboardMetrics {

  /** A name selector: {@code __name__=~"REGEX"} (or {@code =}). */
  private static final Pattern NAME_SELECTOR = Pattern.compile("__name__\\s*=~?\\s*\"([^\"]+)\"");

  /** A metric name written out: the job's all start with flink_. */
  private static final Pattern NAME = Pattern.compile("\\bflink_[A-Za-z0-9_:]+");

  /** One line of the text format: name, optional labels, value. */
  private static final Pattern SAMPLE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})?\\s+(\\S+)$");

  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  /** The PromQL of each panel target and each query variable, by where it is. */
  final Map<String, String> expressions = new LinkedHashMap<>();

  /** The panels' titles. */
  final List<String> titles = new ArrayList<>();

  DashboardMetrics(Path dashboard) throws IOException {
    JsonNode root = new ObjectMapper().readTree(dashboard.toFile());
    for (JsonNode panel : root.path("panels")) {
      String title = panel.path("title").asText();
      titles.add(title);
      int i = 0;
      for (JsonNode target : panel.path("targets")) {
        expressions.put(title + " #" + i++, target.path("expr").asText());
      }
    }
    for (JsonNode v : root.path("templating").path("list")) {
      if (v.path("type").asText().equals("query")) {
        expressions.put("variable " + v.path("name").asText(), v.path("definition").asText());
      }
    }
  }

  /** The metric names written out in {@code expr}. */
  static TreeSet<String> names(String expr) {
    TreeSet<String> names = new TreeSet<>();
    Matcher m = NAME.matcher(NAME_SELECTOR.matcher(expr).replaceAll(""));
    while (m.find()) {
      names.add(m.group());
    }
    return names;
  }

  /** The regular expressions of the name selectors in {@code expr}. */
  static TreeSet<String> nameRegexes(String expr) {
    TreeSet<String> regexes = new TreeSet<>();
    Matcher m = NAME_SELECTOR.matcher(expr);
    while (m.find()) {
      regexes.add(m.group(1));
    }
    return regexes;
  }

  /** Every name and every name regex of the dashboard. */
  TreeSet<String> allNames() {
    TreeSet<String> all = new TreeSet<>();
    expressions.values().forEach(e -> all.addAll(names(e)));
    return all;
  }

  TreeSet<String> allRegexes() {
    TreeSet<String> all = new TreeSet<>();
    expressions.values().forEach(e -> all.addAll(nameRegexes(e)));
    return all;
  }

  /** One sample of a scrape. */
  record Sample(String name, Map<String, String> labels, double value) {}

  /** The samples of a scrape in Prometheus's text format. */
  static List<Sample> parse(String scrape) {
    List<Sample> samples = new ArrayList<>();
    for (String line : scrape.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = SAMPLE.matcher(line.strip());
      if (!m.matches()) {
        throw new IllegalArgumentException("not a sample line: " + line);
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (m.group(3) != null) {
        Matcher l = LABEL.matcher(m.group(3));
        while (l.find()) {
          labels.put(l.group(1), l.group(2));
        }
      }
      String v = m.group(4);
      double value =
          v.endsWith("Inf")
              ? (v.startsWith("-") ? -1 : 1) * Double.POSITIVE_INFINITY
              : Double.parseDouble(v);
      samples.add(new Sample(m.group(1), labels, value));
    }
    return samples;
  }
}
