package io.recrawl.flink.config;

import static io.recrawl.flink.config.ConfigKey.choice;
import static io.recrawl.flink.config.ConfigKey.integer;
import static io.recrawl.flink.config.ConfigKey.list;
import static io.recrawl.flink.config.ConfigKey.number;
import static io.recrawl.flink.config.ConfigKey.string;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every key of {@code config/recrawl.yaml} except the engine's ({@code recrawl.engine.*}), with its
 * default and meaning. {@code config/recrawl.yaml} and the docs/configuration.md table are checked
 * against this list by {@code ConfigDocsTest}.
 */
public final class RecrawlOptions {

  private RecrawlOptions() {}

  private static final long DAY = 86_400_000L;
  private static final Map<String, ConfigKey<?>> ALL = new LinkedHashMap<>();

  private static <T> ConfigKey<T> add(ConfigKey<T> key) {
    ALL.put(key.name(), key);
    return key;
  }

  /** The prefix of the keys passed on, unprefixed, to the engine (its own validation applies). */
  public static final String ENGINE_PREFIX = "recrawl.engine.";

  /**
   * The prefix of extra Kafka client properties, passed unchanged to every Kafka source and sink
   * (security, timeouts): {@code recrawl.kafka.properties.security.protocol: SASL_SSL}.
   */
  public static final String KAFKA_PROPERTIES_PREFIX = "recrawl.kafka.properties.";

  // ---- input
  public static final ConfigKey<String> INPUT_TYPE =
      add(choice("recrawl.input.type", "files", "where status events come from", "files", "kafka"));
  public static final ConfigKey<String> INPUT_PATH =
      add(
          string(
              "recrawl.input.path",
              "work/input",
              "files input: a directory (or file) of JSON-lines status events"));
  public static final ConfigKey<Long> INPUT_MONITOR_MS =
      add(
          integer(
              "recrawl.input.monitor-interval-ms",
              10_000,
              0,
              DAY,
              "files input: how often to look for new files; 0 = read what is there once"));
  public static final ConfigKey<String> INPUT_SEEDS =
      add(
          string(
              "recrawl.input.seeds",
              "",
              "a file (or directory) of seed URLs, one per line, optionally followed by tab-separated key=value metadata (StormCrawler's seed format; recrawl.weight=W sets the page's weight, a positive number, else the line is a bad_weight dead letter); they enter as DISCOVERED; empty = none"));
  public static final ConfigKey<String> INPUT_SEEDS_TIME =
      add(
          string(
              "recrawl.input.seeds-time",
              "",
              "event time of the seeds, epoch ms or ISO-8601; empty = the time the job is built"));
  public static final ConfigKey<Long> INPUT_MAX_FUTURE_MS =
      add(
          integer(
              "recrawl.input.max-future-ms",
              3_600_000,
              -1,
              Long.MAX_VALUE / 4,
              "an event or control time more than this ahead of the reader's clock is a dead letter (time_in_future); -1 = no check"));
  public static final ConfigKey<Long> INPUT_MAX_CHARS =
      add(
          integer(
              "recrawl.input.max-chars",
              1_048_576,
              64,
              64L << 20,
              "longest accepted input record, in characters; longer ones are dead letters (too_large)"));

  // ---- output
  public static final ConfigKey<String> OUTPUT_TYPE =
      add(choice("recrawl.output.type", "files", "where crawl requests go", "files", "kafka"));
  public static final ConfigKey<String> OUTPUT_PATH =
      add(
          string(
              "recrawl.output.path",
              "work/output/requests",
              "files output: directory of JSON-lines part files (finalised at each checkpoint)"));
  public static final ConfigKey<String> OUTPUT_DELIVERY =
      add(
          choice(
              "recrawl.output.delivery",
              "exactly-once",
              "Kafka delivery guarantee of crawl requests, dead letters and the decision log",
              "exactly-once",
              "at-least-once"));
  public static final ConfigKey<Long> OUTPUT_TRANSACTION_TIMEOUT_MS =
      add(
          integer(
              "recrawl.output.kafka.transaction-timeout-ms",
              600_000,
              1_000,
              7 * DAY,
              "exactly-once: Kafka transaction timeout; must be at most the broker's transaction.max.timeout.ms (default 15 min) and above the longest checkpoint plus restart time"));
  public static final ConfigKey<String> OUTPUT_TRANSACTIONAL_ID_PREFIX =
      add(
          string(
              "recrawl.output.kafka.transactional-id-prefix",
              "recrawl",
              "exactly-once: prefix of the Kafka transactional ids; unique per job on a cluster"));

  // ---- dead letters
  public static final ConfigKey<String> DEADLETTERS_TYPE =
      add(
          choice(
              "recrawl.deadletters.type",
              "files",
              "where refused input goes (it is always counted)",
              "files",
              "kafka",
              "discard"));
  public static final ConfigKey<String> DEADLETTERS_PATH =
      add(
          string(
              "recrawl.deadletters.path",
              "work/output/deadletters",
              "files dead letters: directory of JSON-lines part files"));

  // ---- decision log
  public static final ConfigKey<String> DECISIONS_TYPE =
      add(
          choice(
              "recrawl.decisions.type",
              "none",
              "where the decision log goes: one record per release, with its reason, crawl value, host lambda, global lambda and host rate limit",
              "none",
              "files",
              "kafka"));
  public static final ConfigKey<String> DECISIONS_PATH =
      add(
          string(
              "recrawl.decisions.path",
              "work/output/decisions",
              "files decision log: directory of JSON-lines part files"));

  // ---- Kafka
  public static final ConfigKey<String> KAFKA_BOOTSTRAP =
      add(string("recrawl.kafka.bootstrap.servers", "localhost:9092", "Kafka brokers"));
  public static final ConfigKey<String> KAFKA_GROUP_ID =
      add(
          string(
              "recrawl.kafka.group.id",
              "recrawl-scheduler",
              "consumer group of the status and control sources (offsets are committed on checkpoints)"));
  public static final ConfigKey<String> KAFKA_STARTING_OFFSETS =
      add(
          choice(
              "recrawl.kafka.starting-offsets",
              "committed",
              "where a new job starts reading; committed falls back to earliest",
              "committed",
              "earliest",
              "latest"));
  public static final ConfigKey<String> TOPIC_STATUS =
      add(string("recrawl.kafka.topic.status", "crawl.status", "status events in"));
  public static final ConfigKey<String> TOPIC_REQUESTS =
      add(string("recrawl.kafka.topic.requests", "crawl.requests", "crawl requests out"));
  public static final ConfigKey<String> TOPIC_CONTROL =
      add(
          string(
              "recrawl.kafka.topic.control",
              "crawl.control",
              "control messages in (kafka input only); empty = none"));
  public static final ConfigKey<String> TOPIC_ANSWERS =
      add(
          string(
              "recrawl.kafka.topic.answers",
              "crawl.answers",
              "answers to the queries on the control topic (a front end's, such as bin/recrawl frontier); empty = none"));
  public static final ConfigKey<String> TOPIC_DEADLETTERS =
      add(
          string(
              "recrawl.kafka.topic.deadletters",
              "crawl.deadletters",
              "dead letters out, when recrawl.deadletters.type is kafka"));
  public static final ConfigKey<String> TOPIC_DECISIONS =
      add(
          string(
              "recrawl.kafka.topic.decisions",
              "crawl.decisions",
              "the decision log out, when recrawl.decisions.type is kafka"));

  // ---- time
  public static final ConfigKey<Long> WATERMARK_OUT_OF_ORDERNESS_MS =
      add(
          integer(
              "recrawl.watermark.out-of-orderness-ms",
              60_000,
              0,
              DAY,
              "how late a status event may arrive behind the newest one of its Kafka partition"));
  public static final ConfigKey<Long> WATERMARK_IDLENESS_MS =
      add(
          integer(
              "recrawl.watermark.idleness-ms",
              60_000,
              0,
              DAY,
              "a partition silent this long stops holding back event time; 0 = never idle"));
  public static final ConfigKey<Long> CONTROL_TICK_INTERVAL_MS =
      add(
          integer(
              "recrawl.control.tick-interval-ms",
              10_000,
              0,
              DAY,
              "wall-clock ticks on the control stream move event time while the crawl is quiet; 0 = no ticks: event time then moves with status events alone (replays)"));

  // ---- policy
  public static final ConfigKey<String> PARTITION_MODE =
      add(
          choice(
              "recrawl.partition.mode",
              "byHost",
              "the key of politeness and state, as StormCrawler's partition.url.mode",
              "byHost",
              "byDomain"));
  public static final ConfigKey<Long> QUARANTINE_MAX_HOSTS =
      add(
          integer(
              "recrawl.quarantine.max-hosts",
              0,
              0,
              Integer.MAX_VALUE,
              "hosts each scheduler subtask may quarantine, counted from its (re)start, instead of failing the job: a host whose keyed state cannot be read, or whose wake-up throws, has its state cleared, a host_quarantined dead letter and a count in recrawl.hostsQuarantined, and the job goes on; one more fails the job as before; 0 = fail at the first (see docs/operations.md, Quarantined hosts)"));
  public static final ConfigKey<List<String>> METADATA_TRANSFER =
      add(
          list(
              "recrawl.metadata.transfer",
              List.of(),
              "metadata keys carried from status events into crawl requests (StormCrawler's metadata.transfer); a fetch that brings a new copy (not a 304) replaces them; any other status keeps the values it does not carry, such as last-modified"));
  public static final ConfigKey<Double> GLOBAL_LAMBDA =
      add(
          number(
              "recrawl.global-lambda",
              0.0,
              0.0,
              Double.MAX_VALUE,
              "global lambda_0 (price of the global budget) until a control message sets one: for good without the controller, until its first period with it"));

  // ---- global lambda controller
  public static final ConfigKey<Double> CONTROLLER_BUDGET =
      add(
          number(
              "recrawl.controller.budget",
              0.0,
              0.0,
              1e15,
              "global crawl budget k_0, crawls per day: the controller prices it (lambda_0) from every scheduler subtask's demand and publishes the price on the control topic, which the schedulers read; a budget message on that topic changes it while the job runs; needs Kafka and ticks; 0 = no controller (lambda_0 from recrawl.global-lambda and the control topic); with Kafka input it must be set, or recrawl.global-lambda, else the job is refused (docs/configuration.md#choosing-a-budget)"));
  public static final ConfigKey<Long> CONTROLLER_PERIOD_MS =
      add(
          integer(
              "recrawl.controller.period-ms",
              3_600_000,
              1,
              DAY,
              "control period: lambda_0 is recomputed at the first tick at least this long after the last update; at least recrawl.control.tick-interval-ms"));
  public static final ConfigKey<Long> CONTROLLER_DAY_MS =
      add(
          integer(
              "recrawl.controller.day-ms",
              86_400_000,
              1_000,
              DAY,
              "the length of the crawl's day, ms: the controller's feedback averages over three of these days, waits three after the start-up, and drains a backlog over two, since those follow how fast pages change and are recrawled; a day in real time, a simulated day's length for a crawl in compressed time (the live benchmark sets its --seconds-per-day)"));

  // ---- job
  public static final ConfigKey<String> JOB_NAME =
      add(string("recrawl.job.name", "recrawl-scheduler", "Flink job name"));
  public static final ConfigKey<Long> PARALLELISM =
      add(
          integer(
              "recrawl.parallelism",
              0,
              0,
              10_000,
              "job parallelism; 0 = the environment's default"));
  public static final ConfigKey<Long> MAX_PARALLELISM =
      add(
          integer(
              "recrawl.max-parallelism",
              4096,
              0,
              32_768,
              "maximum parallelism (number of key groups): the highest parallelism a savepoint can ever be restored at; fixed for the life of the job's state, a restore with another value fails; 0 = Flink's default (128 for a parallelism up to 85), for savepoints of builds before this key"));
  public static final ConfigKey<String> WORK_DIR =
      add(
          string(
              "recrawl.work-dir",
              "work",
              "bin/recrawl run: local RocksDB and checkpoint directory"));

  /** All keys in documentation order. */
  public static Map<String, ConfigKey<?>> all() {
    return java.util.Collections.unmodifiableMap(ALL);
  }
}
