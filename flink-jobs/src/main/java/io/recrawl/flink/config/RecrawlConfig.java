package io.recrawl.flink.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.recrawl.engine.EngineConfig;
import io.recrawl.wire.Dates;
import io.recrawl.wire.HostKeys;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The job's configuration, loaded from {@code config/recrawl.yaml}: every value checked at
 * start-up, every problem reported with its key. Keys may be written flat ({@code
 * recrawl.input.type: kafka}) or nested; keys under {@code recrawl.engine} are passed on to the
 * engine unchecked here.
 */
public final class RecrawlConfig implements Serializable {

  private static final long serialVersionUID = 1L;
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private final Map<String, Object> values;
  private final Map<String, Object> engine;
  private final Map<String, String> kafkaProperties;

  private RecrawlConfig(
      Map<String, Object> values, Map<String, Object> engine, Map<String, String> kafkaProperties) {
    this.values = values;
    this.engine = engine;
    this.kafkaProperties = kafkaProperties;
  }

  /** All defaults. */
  public static RecrawlConfig defaults() {
    return fromMap(Map.of());
  }

  /** Loads and checks a YAML file. */
  public static RecrawlConfig load(Path file) throws IOException {
    return load(file, Map.of());
  }

  /** Loads a YAML file, then applies overrides (e.g. {@code -Dkey=value} on the command line). */
  public static RecrawlConfig load(Path file, Map<String, ?> overrides) throws IOException {
    Object root;
    try {
      root = YAML.readValue(Files.readString(file), Object.class);
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      throw new ConfigException(file.toString(), "not valid YAML: " + e.getOriginalMessage());
    }
    Map<String, Object> flat = new LinkedHashMap<>();
    if (root != null) {
      if (!(root instanceof Map<?, ?> m)) {
        throw new ConfigException(file.toString(), "must be a map of keys to values");
      }
      flatten("", m, flat);
    }
    flat.putAll(overrides);
    return fromMap(flat);
  }

  /** Checks a map of keys (flat or nested) to values. */
  public static RecrawlConfig fromMap(Map<String, ?> raw) {
    Map<String, Object> flat = new LinkedHashMap<>();
    flatten("", raw, flat);
    Map<String, Object> values = new TreeMap<>();
    Map<String, Object> engine = new TreeMap<>();
    Map<String, String> kafkaProperties = new TreeMap<>();
    for (Map.Entry<String, Object> e : flat.entrySet()) {
      String key = e.getKey();
      if (key.equals("recrawl.engine") && e.getValue() == null) {
        continue; // "recrawl.engine:" with every engine key commented out
      }
      if (key.startsWith(RecrawlOptions.ENGINE_PREFIX)) {
        engine.put(key.substring(RecrawlOptions.ENGINE_PREFIX.length()), e.getValue());
        continue;
      }
      if (key.startsWith(RecrawlOptions.KAFKA_PROPERTIES_PREFIX)) {
        kafkaProperties.put(
            key.substring(RecrawlOptions.KAFKA_PROPERTIES_PREFIX.length()),
            kafkaProperty(key, e.getValue()));
        continue;
      }
      ConfigKey<?> option = RecrawlOptions.all().get(key);
      if (option == null) {
        throw new ConfigException(key, "unknown key" + suggestion(key));
      }
      values.put(key, option.parse(e.getValue()));
    }
    RecrawlConfig config = new RecrawlConfig(values, engine, kafkaProperties);
    config.checkConsistency();
    return config;
  }

  /** The job sets these itself, from its own keys; a second way to set them would be ambiguous. */
  private static final java.util.Set<String> OWN_KAFKA_PROPERTIES =
      java.util.Set.of(
          "bootstrap.servers",
          "group.id",
          "transaction.timeout.ms",
          "transactional.id",
          "isolation.level",
          "key.serializer",
          "value.serializer",
          "key.deserializer",
          "value.deserializer");

  private static String kafkaProperty(String key, Object value) {
    String name = key.substring(RecrawlOptions.KAFKA_PROPERTIES_PREFIX.length());
    if (OWN_KAFKA_PROPERTIES.contains(name)) {
      throw new ConfigException(key, "set by the job itself; use its recrawl.* key instead");
    }
    if (!(value instanceof String || value instanceof Number || value instanceof Boolean)) {
      throw new ConfigException(key, "must be a string, number or boolean (got '" + value + "')");
    }
    return value.toString();
  }

  private static void flatten(String prefix, Map<?, ?> in, Map<String, Object> out) {
    for (Map.Entry<?, ?> e : in.entrySet()) {
      String key = prefix + e.getKey();
      if (e.getValue() instanceof Map<?, ?> nested) {
        flatten(key + ".", nested, out); // an empty map (recrawl.engine: {}) adds nothing
      } else {
        if (out.containsKey(key)) {
          throw new ConfigException(key, "given twice (once flat, once nested)");
        }
        out.put(key, e.getValue());
      }
    }
  }

  private static String suggestion(String key) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String known : RecrawlOptions.all().keySet()) {
      int d = editDistance(key, known);
      if (d < bestDistance) {
        bestDistance = d;
        best = known;
      }
    }
    return best != null && bestDistance <= 4 ? " (did you mean " + best + "?)" : "";
  }

  private static int editDistance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  /** Rules that involve more than one key. */
  private void checkConsistency() {
    if (get(RecrawlOptions.INPUT_TYPE).equals("kafka")
        || get(RecrawlOptions.OUTPUT_TYPE).equals("kafka")
        || get(RecrawlOptions.DEADLETTERS_TYPE).equals("kafka")) {
      requireNonEmpty(RecrawlOptions.KAFKA_BOOTSTRAP);
    }
    if (get(RecrawlOptions.INPUT_TYPE).equals("kafka")) {
      requireNonEmpty(RecrawlOptions.TOPIC_STATUS);
      requireNonEmpty(RecrawlOptions.KAFKA_GROUP_ID);
      requireBudgetChoice();
    } else {
      requireNonEmpty(RecrawlOptions.INPUT_PATH);
    }
    if (get(RecrawlOptions.OUTPUT_TYPE).equals("kafka")) {
      requireNonEmpty(RecrawlOptions.TOPIC_REQUESTS);
      if (exactlyOnce()) {
        requireNonEmpty(RecrawlOptions.OUTPUT_TRANSACTIONAL_ID_PREFIX);
      }
    } else {
      requireNonEmpty(RecrawlOptions.OUTPUT_PATH);
    }
    if (get(RecrawlOptions.DEADLETTERS_TYPE).equals("kafka")) {
      requireNonEmpty(RecrawlOptions.TOPIC_DEADLETTERS);
    } else if (get(RecrawlOptions.DEADLETTERS_TYPE).equals("files")) {
      requireNonEmpty(RecrawlOptions.DEADLETTERS_PATH);
    }
    if (controllerOn()) {
      String why = " when recrawl.controller.budget is set";
      if (get(RecrawlOptions.TOPIC_CONTROL).isEmpty()) {
        throw new ConfigException(
            RecrawlOptions.TOPIC_CONTROL.name(),
            "must not be empty"
                + why
                + ": the controller's lambda_0 reaches the schedulers through this topic");
      }
      if (get(RecrawlOptions.KAFKA_BOOTSTRAP).isEmpty()) {
        throw new ConfigException(
            RecrawlOptions.KAFKA_BOOTSTRAP.name(),
            "must not be empty" + why + " (the control topic)");
      }
      long tick = get(RecrawlOptions.CONTROL_TICK_INTERVAL_MS);
      if (tick <= 0) {
        throw new ConfigException(
            RecrawlOptions.CONTROL_TICK_INTERVAL_MS.name(),
            "must be > 0" + why + ": the schedulers report their demand at every tick");
      }
      if (get(RecrawlOptions.CONTROLLER_PERIOD_MS) < tick) {
        throw new ConfigException(
            RecrawlOptions.CONTROLLER_PERIOD_MS.name(),
            "must be at least recrawl.control.tick-interval-ms ("
                + tick
                + "): the controller updates at ticks");
      }
    }
    seedsTime(0); // parses, or throws naming the key
    if (engine.containsKey("metadata.transfer")
        && values.containsKey(RecrawlOptions.METADATA_TRANSFER.name())) {
      throw new ConfigException(
          RecrawlOptions.METADATA_TRANSFER.name(),
          "given twice: here and as recrawl.engine.metadata.transfer; keep one");
    }
    engineConfig(); // the engine checks its own keys; refuse a bad one now, not in a running job
  }

  /** The engine's configuration, checked by the engine; errors name the full key. */
  public EngineConfig engineConfig() {
    try {
      return EngineConfig.fromMap(engineSettings(), RecrawlOptions.ENGINE_PREFIX);
    } catch (ConfigException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      // EngineConfig's messages start with "<prefix><key>: "; keep that key.
      String msg = String.valueOf(e.getMessage());
      int colon = msg.indexOf(": ");
      if (msg.startsWith(RecrawlOptions.ENGINE_PREFIX) && colon > 0) {
        throw new ConfigException(msg.substring(0, colon), msg.substring(colon + 2));
      }
      throw new ConfigException("recrawl.engine", msg);
    }
  }

  /**
   * A crawl fed by Kafka must say what its fetches are worth: without a budget or a price every
   * threshold is 0, and every page goes at the minimum revisit interval whatever its change rate.
   * An explicit {@code recrawl.controller.budget: 0} keeps that on purpose.
   */
  private void requireBudgetChoice() {
    if (!isSet(RecrawlOptions.CONTROLLER_BUDGET) && !isSet(RecrawlOptions.GLOBAL_LAMBDA)) {
      throw new ConfigException(RecrawlOptions.CONTROLLER_BUDGET.name(), BUDGET_REQUIRED);
    }
  }

  static final String BUDGET_REQUIRED =
      "not set. A crawl read from Kafka schedules by crawl value only with a budget: without one"
          + " every threshold is 0 and every page is recrawled at recrawl.engine.revisit.min-interval,"
          + " however often it changes. Set the fetches a day the crawl may spend, at most what the"
          + " crawler sustains (fetcher threads x 86400 / seconds per fetch); 0 recrawls at fixed"
          + " intervals on purpose. How to choose: docs/configuration.md#choosing-a-budget";

  private void requireNonEmpty(ConfigKey<String> key) {
    if (get(key).isEmpty()) {
      throw new ConfigException(key.name(), "must not be empty with this input/output type");
    }
  }

  /** The value of a key, or its default. */
  @SuppressWarnings("unchecked")
  public <T> T get(ConfigKey<T> key) {
    Object v = values.get(key.name());
    return v != null ? (T) v : key.defaultValue();
  }

  /** True if the key was set explicitly. */
  public boolean isSet(ConfigKey<?> key) {
    return values.containsKey(key.name());
  }

  /** A copy with some keys changed (checked like a file). */
  public RecrawlConfig with(Map<String, ?> overrides) {
    Map<String, Object> merged = new LinkedHashMap<>(values);
    engine.forEach((k, v) -> merged.put(RecrawlOptions.ENGINE_PREFIX + k, v));
    kafkaProperties.forEach((k, v) -> merged.put(RecrawlOptions.KAFKA_PROPERTIES_PREFIX + k, v));
    merged.putAll(overrides);
    return fromMap(merged);
  }

  /**
   * The engine's settings, keys without the {@code recrawl.engine.} prefix, to be checked by the
   * engine's own {@code EngineConfig}. {@code recrawl.metadata.transfer} is always passed on as
   * {@code metadata.transfer}, unless that is given under {@code recrawl.engine} instead.
   */
  public Map<String, Object> engineSettings() {
    Map<String, Object> m = new LinkedHashMap<>(engine);
    if (!m.containsKey("metadata.transfer")) {
      m.put("metadata.transfer", get(RecrawlOptions.METADATA_TRANSFER));
    }
    return Collections.unmodifiableMap(m);
  }

  // ---- typed views used by the job wiring

  public boolean kafkaInput() {
    return get(RecrawlOptions.INPUT_TYPE).equals("kafka");
  }

  /** True if the global lambda controller runs ({@code recrawl.controller.budget} > 0). */
  public boolean controllerOn() {
    return get(RecrawlOptions.CONTROLLER_BUDGET) > 0;
  }

  /**
   * True if the control stream reads the control topic: with Kafka input, and always with the
   * controller.
   */
  public boolean readsControlTopic() {
    return !get(RecrawlOptions.TOPIC_CONTROL).isEmpty() && (kafkaInput() || controllerOn());
  }

  public boolean kafkaOutput() {
    return get(RecrawlOptions.OUTPUT_TYPE).equals("kafka");
  }

  public boolean exactlyOnce() {
    return get(RecrawlOptions.OUTPUT_DELIVERY).equals("exactly-once");
  }

  public HostKeys.Mode partitionMode() {
    return HostKeys.Mode.fromConfigName(get(RecrawlOptions.PARTITION_MODE));
  }

  public List<String> metadataTransfer() {
    return get(RecrawlOptions.METADATA_TRANSFER);
  }

  /** The event time of the seeds: the configured one, or {@code buildTime} when not configured. */
  public long seedsTime(long buildTime) {
    String s = get(RecrawlOptions.INPUT_SEEDS_TIME);
    if (s.isEmpty()) {
      return buildTime;
    }
    Long t = Dates.instant(s);
    if (t == null) {
      throw new ConfigException(
          RecrawlOptions.INPUT_SEEDS_TIME.name(),
          "must be epoch ms or an ISO-8601 instant, a year up to 9999 (got '" + s + "')");
    }
    return t;
  }

  /** Extra Kafka client properties ({@code recrawl.kafka.properties.*}), without the prefix. */
  public Map<String, String> kafkaProperties() {
    return Collections.unmodifiableMap(kafkaProperties);
  }

  /** Every key with its effective value, for logging at start-up. */
  public Map<String, Object> effective() {
    Map<String, Object> m = new LinkedHashMap<>();
    RecrawlOptions.all().values().forEach(k -> m.put(k.name(), get(k)));
    engineSettings().forEach((k, v) -> m.put(RecrawlOptions.ENGINE_PREFIX + k, v));
    // Values may be secrets (sasl.jaas.config): log the names only.
    kafkaProperties
        .keySet()
        .forEach(k -> m.put(RecrawlOptions.KAFKA_PROPERTIES_PREFIX + k, "(set)"));
    return m;
  }

  @Override
  public String toString() {
    return "RecrawlConfig"
        + values
        + " engine="
        + engine
        + " kafka.properties="
        + kafkaProperties.keySet();
  }
}
