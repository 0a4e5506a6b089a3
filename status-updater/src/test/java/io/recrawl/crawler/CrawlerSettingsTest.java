package io.recrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.digitalpebble.stormcrawler.util.ConfUtils;
import io.recrawl.wire.HostKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.junit.jupiter.api.Test;

class CrawlerSettingsTest {

  private static Map<String, Object> conf(Object... kv) {
    Map<String, Object> m = new HashMap<>();
    m.put(CrawlerSettings.BOOTSTRAP_SERVERS, "broker:9092");
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  @Test
  void aCrawlerWithoutUrlFiltersIsWarnedThatItsOutlinksGoUnfiltered() {
    assertThat(CrawlerSettings.outlinkFilterWarning(Map.of()))
        .hasValueSatisfying(w -> assertThat(w).startsWith("urlfilters.config.file is not set"));
    assertThat(CrawlerSettings.outlinkFilterWarning(Map.of("urlfilters.config.file", " ")))
        .isPresent();
    assertThat(
            CrawlerSettings.outlinkFilterWarning(
                Map.of("urlfilters.config.file", "urlfilters.json")))
        .isEmpty();
  }

  @Test
  void defaults() {
    CrawlerSettings s = CrawlerSettings.fromConf(conf());
    assertThat(s.bootstrapServers()).isEqualTo("broker:9092");
    assertThat(s.statusTopic()).isEqualTo("crawl.status");
    assertThat(s.requestsTopic()).isEqualTo("crawl.requests");
    assertThat(s.deadLettersTopic()).isEqualTo("crawl.deadletters");
    assertThat(s.partitionMode()).isEqualTo(HostKeys.Mode.BY_HOST);
    assertThat(s.producerProperties())
        .containsOnly(Map.entry("acks", "all"), Map.entry("enable.idempotence", "true"));
    assertThat(s.consumerProperties()).containsOnly(Map.entry("isolation.level", "read_committed"));
    assertThat(RequestSpouts.spoutConfig(s).getKafkaProps())
        .containsEntry("isolation.level", "read_committed");
    assertThat(s.metadataKeys()).isEmpty();
    assertThat(s.weightKey()).isEqualTo("recrawl.weight");
    assertThat(s.setLastModified()).isTrue();
    assertThat(s.useCache()).isTrue();
    assertThat(s.spoutGroupId()).isEqualTo("recrawl-crawler");
    assertThat(s.spoutFirstPollOffset()).isEqualTo("UNCOMMITTED_EARLIEST");
    assertThat(s.spoutMaxUncommittedOffsets()).isEqualTo(10_000);
    assertThat(s.spoutOffsetCommitPeriodMs()).isEqualTo(30_000);
    assertThat(s.spoutPollTimeoutMs()).isEqualTo(200);
    assertThat(s.spoutParallelism()).isEqualTo(1);
  }

  @Test
  void clientPropertiesGoToTheirClients() {
    CrawlerSettings s =
        CrawlerSettings.fromConf(
            conf(
                "recrawl.kafka.properties.security.protocol", "SSL",
                "recrawl.kafka.producer.linger.ms", 20,
                "recrawl.kafka.consumer.max.poll.records", "50"));
    assertThat(s.producerProperties())
        .containsEntry("security.protocol", "SSL")
        .containsEntry("linger.ms", "20")
        .doesNotContainKey("max.poll.records");
    assertThat(s.consumerProperties())
        .containsEntry("security.protocol", "SSL")
        .containsEntry("max.poll.records", "50")
        .doesNotContainKey("linger.ms");
    // The consumer's defaults may be changed.
    assertThat(
            CrawlerSettings.fromConf(
                    conf("recrawl.kafka.consumer.isolation.level", "read_uncommitted"))
                .consumerProperties())
        .containsEntry("isolation.level", "read_uncommitted");
  }

  @Test
  void aMissingOrBadSettingIsRefusedNamingItsKey() {
    Map<String, Object> none = new HashMap<>();
    assertRefused(none, "recrawl.kafka.bootstrap.servers: required");
    assertRefused(
        conf(CrawlerSettings.BOOTSTRAP_SERVERS, " "), "recrawl.kafka.bootstrap.servers: required");
    assertRefused(
        conf("recrawl.kafka.topic.status", "crawl status"),
        "recrawl.kafka.topic.status: not a Kafka topic name");
    assertRefused(
        conf("recrawl.kafka.topic.requests", ""),
        "recrawl.kafka.topic.requests: not a Kafka topic name");
    assertRefused(
        conf("recrawl.partition.mode", "byIP"),
        "recrawl.partition.mode: unknown partition mode 'byIP'");
    assertRefused(
        conf("recrawl.kafka.producer.acks", "1"), "recrawl.kafka.producer.acks: must be all");
    assertRefused(
        conf("recrawl.kafka.properties.enable.idempotence", false),
        "recrawl.kafka.properties.enable.idempotence: must be true");
    assertRefused(
        conf("recrawl.kafka.consumer.group.id", "g"),
        "recrawl.kafka.consumer.group.id: set by recrawl itself from recrawl.spout.group.id");
    assertRefused(
        conf("recrawl.kafka.properties.bootstrap.servers", "x:1"),
        "recrawl.kafka.properties.bootstrap.servers: set by recrawl itself");
    assertRefused(
        conf("recrawl.status.metadata.keys", List.of("a", 3)),
        "recrawl.status.metadata.keys: must be a list");
    assertRefused(
        conf("recrawl.status.set-last-modified", "yes"),
        "recrawl.status.set-last-modified: must be true or false");
    assertRefused(
        conf("status.updater.cache.spec", "maximumSize=lots"),
        "status.updater.cache.spec: not a Caffeine spec");
    assertRefused(
        conf("recrawl.spout.first-poll-offset", "START"),
        "recrawl.spout.first-poll-offset: must be EARLIEST");
    assertRefused(
        conf("recrawl.spout.max-uncommitted-offsets", 0),
        "recrawl.spout.max-uncommitted-offsets: must be at least 1");
    assertRefused(
        conf("recrawl.spout.poll-timeout-ms", 1.5),
        "recrawl.spout.poll-timeout-ms: must be a whole number");
    assertRefused(
        conf("recrawl.spout.parallelism", "two"),
        "recrawl.spout.parallelism: must be a whole number");
  }

  private static void assertRefused(Map<String, Object> conf, String messageStart) {
    assertThatThrownBy(() -> CrawlerSettings.fromConf(conf))
        .isInstanceOf(IllegalArgumentException.class)
        .message()
        .startsWith(messageStart);
  }

  @Test
  void theBoltsAndTheSpoutRefuseABadSettingWhenTheyStart() {
    Map<String, Object> bad = conf("recrawl.kafka.topic.status", "a/b");
    // prepare() reads the settings before it touches the context or the collector.
    assertThatThrownBy(() -> new KafkaStatusUpdaterBolt().prepare(bad, null, null))
        .hasMessageStartingWith("recrawl.kafka.topic.status:");
    assertThatThrownBy(() -> new KafkaDeadLetterBolt().prepare(new HashMap<>(), null, null))
        .hasMessageStartingWith("recrawl.kafka.bootstrap.servers:");
    assertThatThrownBy(() -> RequestSpouts.fromConf(conf("recrawl.spout.group.id", "")))
        .hasMessageStartingWith("recrawl.spout.group.id:");
  }

  /** The example file loads as StormCrawler loads a -conf file, and states the defaults. */
  @Test
  void theExampleConfigStatesTheDefaults() throws Exception {
    Path file = Path.of("..", "config", "crawler-conf-recrawl.yaml");
    assertThat(Files.exists(file)).as(file.toAbsolutePath().toString()).isTrue();
    Config loaded = ConfUtils.loadConf(file.toString(), new Config());
    CrawlerSettings fromFile = CrawlerSettings.fromConf(loaded);
    Map<String, Object> onlyServers = new HashMap<>();
    onlyServers.put(
        CrawlerSettings.BOOTSTRAP_SERVERS, loaded.get(CrawlerSettings.BOOTSTRAP_SERVERS));
    assertThat(fromFile).isEqualTo(CrawlerSettings.fromConf(onlyServers));
    // Every recrawl key the code reads is in the file.
    for (String key :
        List.of(
            CrawlerSettings.BOOTSTRAP_SERVERS,
            CrawlerSettings.STATUS_TOPIC,
            CrawlerSettings.REQUESTS_TOPIC,
            CrawlerSettings.DEAD_LETTERS_TOPIC,
            CrawlerSettings.PARTITION_MODE,
            CrawlerSettings.METADATA_KEYS,
            CrawlerSettings.WEIGHT_KEY,
            CrawlerSettings.SET_LAST_MODIFIED,
            CrawlerSettings.USE_CACHE,
            CrawlerSettings.CACHE_SPEC,
            CrawlerSettings.SPOUT_GROUP_ID,
            CrawlerSettings.SPOUT_FIRST_POLL_OFFSET,
            CrawlerSettings.SPOUT_MAX_UNCOMMITTED,
            CrawlerSettings.SPOUT_COMMIT_PERIOD_MS,
            CrawlerSettings.SPOUT_POLL_TIMEOUT_MS,
            CrawlerSettings.SPOUT_PARALLELISM)) {
      assertThat(loaded).as(key).containsKey(key);
    }
  }
}
