package io.recrawl.crawler;

import io.recrawl.schedule.ConfReader;
import io.recrawl.schedule.DefaultConf;
import io.recrawl.wire.HostKeys;
import java.io.Serializable;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The recrawl keys of a StormCrawler {@code crawler-conf.yaml}, read from the flat topology config
 * and checked: a missing required key or a bad value is refused with a message that starts with the
 * key. {@code config/crawler-conf-recrawl.yaml} lists every key with its default.
 */
public record CrawlerSettings(
    String bootstrapServers,
    String statusTopic,
    String requestsTopic,
    String deadLettersTopic,
    HostKeys.Mode partitionMode,
    Map<String, String> producerProperties,
    Map<String, String> consumerProperties,
    List<String> metadataKeys,
    String weightKey,
    boolean setLastModified,
    String protocolPrefix,
    boolean useCache,
    String cacheSpec,
    String spoutGroupId,
    String spoutFirstPollOffset,
    int spoutMaxUncommittedOffsets,
    long spoutOffsetCommitPeriodMs,
    long spoutPollTimeoutMs,
    int spoutParallelism)
    implements Serializable {

  public static final String BOOTSTRAP_SERVERS = "recrawl.kafka.bootstrap.servers";
  public static final String STATUS_TOPIC = "recrawl.kafka.topic.status";
  public static final String REQUESTS_TOPIC = "recrawl.kafka.topic.requests";
  public static final String DEAD_LETTERS_TOPIC = "recrawl.kafka.topic.deadletters";
  public static final String PARTITION_MODE = "recrawl.partition.mode";

  /** Prefix of Kafka client properties passed to both the producer and the spout's consumer. */
  public static final String CLIENT_PREFIX = "recrawl.kafka.properties.";

  public static final String PRODUCER_PREFIX = "recrawl.kafka.producer.";
  public static final String CONSUMER_PREFIX = "recrawl.kafka.consumer.";
  public static final String METADATA_KEYS = "recrawl.status.metadata.keys";
  public static final String WEIGHT_KEY = "recrawl.status.weight.key";
  public static final String SET_LAST_MODIFIED = "recrawl.status.set-last-modified";
  public static final String SPOUT_GROUP_ID = "recrawl.spout.group.id";
  public static final String SPOUT_FIRST_POLL_OFFSET = "recrawl.spout.first-poll-offset";
  public static final String SPOUT_MAX_UNCOMMITTED = "recrawl.spout.max-uncommitted-offsets";
  public static final String SPOUT_COMMIT_PERIOD_MS = "recrawl.spout.offset-commit-period-ms";
  public static final String SPOUT_POLL_TIMEOUT_MS = "recrawl.spout.poll-timeout-ms";
  public static final String SPOUT_PARALLELISM = "recrawl.spout.parallelism";

  /** StormCrawler's own keys, read with the meaning AbstractStatusUpdaterBolt gives them. */
  public static final String USE_CACHE = "status.updater.use.cache";

  public static final String CACHE_SPEC = "status.updater.cache.spec";
  public static final String PROTOCOL_PREFIX = "protocol.md.prefix";

  /** The spout's first-poll strategies, as storm-kafka-client names them. */
  public static final Set<String> FIRST_POLL_OFFSETS =
      Set.of("EARLIEST", "LATEST", "UNCOMMITTED_EARLIEST", "UNCOMMITTED_LATEST");

  /**
   * Client properties set from the keys above or by the classes themselves; refused as overrides.
   */
  private static final Set<String> RESERVED =
      Set.of(
          "bootstrap.servers",
          "key.serializer",
          "value.serializer",
          "key.deserializer",
          "value.deserializer",
          "group.id",
          "enable.auto.commit");

  /**
   * Producer settings that keep "ack only when Kafka has it" true; overrides may not weaken them.
   */
  static final Map<String, String> PRODUCER_DEFAULTS =
      Map.of("acks", "all", "enable.idempotence", "true");

  /**
   * Consumer defaults, which overrides may change: the job writes requests in Kafka transactions by
   * default (exactly-once), and a request must reach the fetcher only once its transaction commits;
   * an aborted one (a job restored from its checkpoint writes it again) must never. Records written
   * without a transaction (the job's at-least-once delivery) are visible at once either way.
   */
  static final Map<String, String> CONSUMER_DEFAULTS = Map.of("isolation.level", "read_committed");

  /**
   * Reads and checks the settings; an absent key takes its default from {@link
   * DefaultConf#CRAWLER}, the documented default file (config/crawler-conf-recrawl.yaml).
   */
  public static CrawlerSettings fromConf(Map<String, ?> conf) {
    ConfReader r = new ConfReader(conf, DefaultConf.CRAWLER);
    String servers = r.required(BOOTSTRAP_SERVERS);
    if (servers == null || servers.isEmpty()) {
      throw new IllegalArgumentException(
          BOOTSTRAP_SERVERS + ": required (host:port of the Kafka brokers), not set");
    }
    String status = topic(r, STATUS_TOPIC, false);
    String requests = topic(r, REQUESTS_TOPIC, false);
    String deadLetters = topic(r, DEAD_LETTERS_TOPIC, true);
    HostKeys.Mode mode;
    try {
      mode = HostKeys.Mode.fromConfigName(r.string(PARTITION_MODE));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(PARTITION_MODE + ": " + e.getMessage());
    }
    Map<String, String> common = properties(conf, CLIENT_PREFIX);
    Map<String, String> producerOnly = properties(conf, PRODUCER_PREFIX);
    checkProducerGuarantees(common, CLIENT_PREFIX);
    checkProducerGuarantees(producerOnly, PRODUCER_PREFIX);
    Map<String, String> producer = new TreeMap<>(PRODUCER_DEFAULTS);
    producer.putAll(common);
    producer.putAll(producerOnly);
    Map<String, String> consumer = new TreeMap<>(CONSUMER_DEFAULTS);
    consumer.putAll(common);
    consumer.putAll(properties(conf, CONSUMER_PREFIX));
    String weightKey = r.string(WEIGHT_KEY);
    String firstPoll = r.string(SPOUT_FIRST_POLL_OFFSET).toUpperCase(Locale.ROOT);
    if (!FIRST_POLL_OFFSETS.contains(firstPoll)) {
      throw new IllegalArgumentException(
          SPOUT_FIRST_POLL_OFFSET
              + ": must be EARLIEST, LATEST, UNCOMMITTED_EARLIEST or UNCOMMITTED_LATEST, got '"
              + firstPoll
              + "'");
    }
    String groupId = r.string(SPOUT_GROUP_ID);
    if (groupId.isEmpty()) {
      throw new IllegalArgumentException(SPOUT_GROUP_ID + ": must not be empty");
    }
    String cacheSpec = r.string(CACHE_SPEC);
    try {
      com.github.benmanes.caffeine.cache.CaffeineSpec.parse(cacheSpec);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(CACHE_SPEC + ": not a Caffeine spec: " + e.getMessage());
    }
    return new CrawlerSettings(
        servers,
        status,
        requests,
        deadLetters,
        mode,
        Map.copyOf(producer),
        Map.copyOf(consumer),
        r.list(METADATA_KEYS),
        weightKey,
        r.bool(SET_LAST_MODIFIED),
        r.string(PROTOCOL_PREFIX),
        r.bool(USE_CACHE),
        cacheSpec,
        groupId,
        firstPoll,
        (int) r.longInRange(SPOUT_MAX_UNCOMMITTED, 1, Integer.MAX_VALUE),
        r.longInRange(SPOUT_COMMIT_PERIOD_MS, 1, Long.MAX_VALUE),
        r.longInRange(SPOUT_POLL_TIMEOUT_MS, 1, Long.MAX_VALUE),
        (int) r.longInRange(SPOUT_PARALLELISM, 1, 10_000));
  }

  private static void checkProducerGuarantees(Map<String, String> props, String prefix) {
    for (Map.Entry<String, String> d : PRODUCER_DEFAULTS.entrySet()) {
      String v = props.get(d.getKey());
      if (v != null
          && !d.getValue().equalsIgnoreCase(v.trim())
          && !(d.getKey().equals("acks") && "-1".equals(v.trim()))) {
        throw new IllegalArgumentException(
            prefix
                + d.getKey()
                + ": must be "
                + d.getValue()
                + " (a tuple is acked only when Kafka has its record), got "
                + v);
      }
    }
  }

  private static String topic(ConfReader r, String key, boolean mayBeEmpty) {
    String t = r.string(key);
    if (t.isEmpty() && mayBeEmpty) {
      return t;
    }
    // Kafka's own rule for topic names.
    if (!t.matches("[a-zA-Z0-9._-]{1,249}")) {
      throw new IllegalArgumentException(
          key + ": not a Kafka topic name (letters, digits, '.', '_', '-'), got '" + t + "'");
    }
    return t;
  }

  /** Every key under a prefix, with the prefix cut off; scalar values only. */
  private static Map<String, String> properties(Map<String, ?> conf, String prefix) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, ?> e : conf.entrySet()) {
      if (!e.getKey().startsWith(prefix)) {
        continue;
      }
      String name = e.getKey().substring(prefix.length());
      Object v = e.getValue();
      if (name.isEmpty() || v == null || v instanceof Map || v instanceof Collection) {
        throw new IllegalArgumentException(
            e.getKey() + ": must be a Kafka client property with a scalar value, got " + v);
      }
      if (RESERVED.contains(name)) {
        throw new IllegalArgumentException(
            e.getKey()
                + ": set by recrawl itself"
                + (name.equals("bootstrap.servers")
                    ? " from " + BOOTSTRAP_SERVERS
                    : name.equals("group.id") ? " from " + SPOUT_GROUP_ID : "")
                + "; remove it");
      }
      out.put(name, String.valueOf(v));
    }
    return out;
  }

  /**
   * A warning when the crawler filters no outlinks: StormCrawler loads URL filters only from {@code
   * urlfilters.config.file}, which its defaults leave unset, so every link of every page would come
   * back as a DISCOVERED status, off-site and binary files included.
   */
  public static Optional<String> outlinkFilterWarning(Map<String, ?> conf) {
    Object file = conf.get("urlfilters.config.file");
    if (file != null && !file.toString().isBlank()) {
      return Optional.empty();
    }
    return Optional.of(
        "urlfilters.config.file is not set: outlinks are not filtered, and every link found becomes"
            + " a DISCOVERED status for the job (recrawl's examples/crawler has a urlfilters.json to"
            + " start from)");
  }
}
