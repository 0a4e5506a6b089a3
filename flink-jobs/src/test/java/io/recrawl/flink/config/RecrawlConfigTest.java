package io.recrawl.flink.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.flink.testutil.RepoFiles;
import io.recrawl.wire.HostKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecrawlConfigTest {

  @TempDir Path dir;

  private Path yaml(String text) throws Exception {
    Path f = dir.resolve("c.yaml");
    Files.writeString(f, text);
    return f;
  }

  @Test
  void theShippedFileLoadsAndEqualsTheDefaults() throws Exception {
    RecrawlConfig shipped = RecrawlConfig.load(RepoFiles.file("config/recrawl.yaml"));
    assertThat(shipped.effective()).isEqualTo(RecrawlConfig.defaults().effective());
    assertThat(shipped.engineSettings()).containsExactly(Map.entry("metadata.transfer", List.of()));
  }

  @Test
  void flatAndNestedKeysAreTheSame() throws Exception {
    RecrawlConfig flat =
        RecrawlConfig.load(
            yaml(
                """
        recrawl.input.type: kafka
        recrawl.kafka.topic.status: s
        recrawl.partition.mode: bydomain
        recrawl.controller.budget: 0
        """));
    RecrawlConfig nested =
        RecrawlConfig.load(
            yaml(
                """
        recrawl:
          input: {type: KAFKA}
          kafka:
            topic: {status: s}
          partition:
            mode: byDomain
          controller: {budget: 0}
        """));
    assertThat(nested.effective()).isEqualTo(flat.effective());
    assertThat(flat.kafkaInput()).isTrue();
    assertThat(flat.get(RecrawlOptions.TOPIC_STATUS)).isEqualTo("s");
    assertThat(flat.partitionMode()).isEqualTo(HostKeys.Mode.BY_DOMAIN);
  }

  @Test
  void unknownKeyIsRefusedWithASuggestion() throws Exception {
    assertThatThrownBy(() -> RecrawlConfig.load(yaml("recrawl.input.typ: files\n")))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("recrawl.input.typ: unknown key")
        .hasMessageContaining("did you mean recrawl.input.type?");
    assertThatThrownBy(() -> RecrawlConfig.fromMap(Map.of("other.key", 1)))
        .hasMessageStartingWith("other.key: unknown key");
  }

  @Test
  void wrongTypesAreRefusedNamingTheKey() {
    assertThatThrownBy(() -> RecrawlConfig.fromMap(Map.of("recrawl.watermark.idleness-ms", "soon")))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("recrawl.watermark.idleness-ms: must be an integer");
    assertThatThrownBy(() -> RecrawlConfig.fromMap(Map.of("recrawl.global-lambda", List.of(1))))
        .hasMessageStartingWith("recrawl.global-lambda: must be a number");
    assertThatThrownBy(() -> RecrawlConfig.fromMap(Map.of("recrawl.job.name", List.of("x"))))
        .hasMessageStartingWith("recrawl.job.name: must be a string");
    assertThatThrownBy(() -> RecrawlConfig.fromMap(Map.of("recrawl.metadata.transfer", 5)))
        .hasMessageStartingWith("recrawl.metadata.transfer: must be a list of strings");
    assertThatThrownBy(() -> RecrawlConfig.fromMap(Map.of("recrawl.output.type", "s3")))
        .hasMessageStartingWith("recrawl.output.type: must be one of files, kafka");
  }

  @Test
  void outOfRangeValuesAreRefusedNamingTheKey() {
    assertThatThrownBy(() -> RecrawlConfig.fromMap(Map.of("recrawl.global-lambda", -0.1)))
        .hasMessageStartingWith("recrawl.global-lambda: must be between 0.0");
    assertThatThrownBy(() -> RecrawlConfig.fromMap(Map.of("recrawl.global-lambda", "NaN")))
        .hasMessageStartingWith("recrawl.global-lambda:");
    assertThatThrownBy(
            () -> RecrawlConfig.fromMap(Map.of("recrawl.output.kafka.transaction-timeout-ms", 10)))
        .hasMessageStartingWith(
            "recrawl.output.kafka.transaction-timeout-ms: must be between 1000");
    assertThatThrownBy(
            () -> RecrawlConfig.fromMap(Map.of("recrawl.watermark.out-of-orderness-ms", -1)))
        .hasMessageStartingWith("recrawl.watermark.out-of-orderness-ms:");
  }

  @Test
  void crossKeyRulesNameTheKey() {
    assertThatThrownBy(
            () ->
                RecrawlConfig.fromMap(
                    Map.of("recrawl.output.type", "kafka", "recrawl.kafka.bootstrap.servers", "")))
        .hasMessageStartingWith("recrawl.kafka.bootstrap.servers: must not be empty");
    assertThatThrownBy(
            () -> RecrawlConfig.fromMap(Map.of("recrawl.input.seeds-time", "last tuesday")))
        .hasMessageStartingWith(
            "recrawl.input.seeds-time: must be epoch ms or an ISO-8601 instant");
    assertThatThrownBy(
            () ->
                RecrawlConfig.fromMap(
                    Map.of("recrawl.input.seeds-time", "+300000000-01-01T00:00:00Z")))
        .hasMessageStartingWith(
            "recrawl.input.seeds-time: must be epoch ms or an ISO-8601 instant");
    assertThatThrownBy(
            () ->
                RecrawlConfig.fromMap(
                    Map.of(
                        "recrawl.metadata.transfer",
                        List.of("a"),
                        "recrawl.engine",
                        Map.of("metadata.transfer", List.of("b")))))
        .hasMessageStartingWith("recrawl.metadata.transfer: given twice");
  }

  @Test
  void aCrawlReadFromKafkaIsRefusedWithoutAChoiceOfBudgetSayingHowToChoose() {
    Map<String, Object> kafka = Map.of("recrawl.input.type", "kafka");
    assertThatThrownBy(() -> RecrawlConfig.fromMap(kafka))
        .hasMessageStartingWith("recrawl.controller.budget: not set.")
        .hasMessageContaining("fetcher threads x 86400 / seconds per fetch")
        .hasMessageContaining("0 recrawls at fixed intervals on purpose");
    assertThat(RecrawlConfig.fromMap(with(kafka, "recrawl.controller.budget", 0)).controllerOn())
        .isFalse();
    assertThat(RecrawlConfig.fromMap(with(kafka, "recrawl.global-lambda", 1e-6)).controllerOn())
        .isFalse();
    assertThat(RecrawlConfig.fromMap(with(kafka, "recrawl.controller.budget", 500)).controllerOn())
        .isTrue();
    // Files in: no control loop to price a budget with, so no choice is asked for.
    assertThat(RecrawlConfig.defaults().controllerOn()).isFalse();
  }

  @Test
  void theTrialBrokersTopicsAreTheJobsDefaultTopics() {
    assertThat(io.recrawl.kafka.KafkaCommand.TOPICS)
        .containsExactly(
            RecrawlOptions.TOPIC_STATUS.defaultValue(),
            RecrawlOptions.TOPIC_REQUESTS.defaultValue(),
            RecrawlOptions.TOPIC_CONTROL.defaultValue(),
            RecrawlOptions.TOPIC_DEADLETTERS.defaultValue(),
            RecrawlOptions.TOPIC_DECISIONS.defaultValue(),
            RecrawlOptions.TOPIC_ANSWERS.defaultValue());
  }

  @Test
  void theControllerIsRefusedWithoutWhatItNeedsNamingTheKey() {
    Map<String, Object> on =
        Map.of("recrawl.controller.budget", 20_000, "recrawl.input.type", "kafka");
    assertThat(RecrawlConfig.fromMap(on).controllerOn()).isTrue();
    assertThat(RecrawlConfig.fromMap(on).readsControlTopic()).isTrue();
    assertThatThrownBy(() -> RecrawlConfig.fromMap(with(on, "recrawl.kafka.topic.control", "")))
        .hasMessageStartingWith(
            "recrawl.kafka.topic.control: must not be empty when recrawl.controller.budget is set");
    assertThatThrownBy(() -> RecrawlConfig.fromMap(with(on, "recrawl.control.tick-interval-ms", 0)))
        .hasMessageStartingWith(
            "recrawl.control.tick-interval-ms: must be > 0 when recrawl.controller.budget is set");
    assertThatThrownBy(() -> RecrawlConfig.fromMap(with(on, "recrawl.controller.period-ms", 5_000)))
        .hasMessageStartingWith(
            "recrawl.controller.period-ms: must be at least recrawl.control.tick-interval-ms");
    assertThatThrownBy(() -> RecrawlConfig.fromMap(with(on, "recrawl.controller.budget", -1)))
        .hasMessageStartingWith("recrawl.controller.budget: ");
    // With file input the control topic is read for the controller's sake alone.
    RecrawlConfig files = RecrawlConfig.fromMap(Map.of("recrawl.controller.budget", 20_000));
    assertThat(files.readsControlTopic()).isTrue();
    assertThat(RecrawlConfig.fromMap(Map.of()).readsControlTopic()).isFalse();
  }

  private static Map<String, Object> with(Map<String, Object> base, String key, Object value) {
    Map<String, Object> m = new java.util.HashMap<>(base);
    m.put(key, value);
    return m;
  }

  @Test
  void numbersMayBeQuotedAndEmptyStringKeysMayBeBlank() throws Exception {
    RecrawlConfig c =
        RecrawlConfig.load(yaml("recrawl.watermark.idleness-ms: \"5000\"\nrecrawl.input.seeds:\n"));
    assertThat(c.get(RecrawlOptions.WATERMARK_IDLENESS_MS)).isEqualTo(5000L);
    assertThat(c.get(RecrawlOptions.INPUT_SEEDS)).isEmpty();
  }

  @Test
  void engineKeysArePassedOnWithoutThePrefix() throws Exception {
    RecrawlConfig c =
        RecrawlConfig.load(
            yaml(
                """
        recrawl.metadata.transfer: [depth, "tag"]
        recrawl.engine:
          objective: harmonic-staleness
          host:
            max-rate: 1440
        recrawl.engine.lease: 30 min
        """));
    assertThat(c.engineSettings())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "objective",
                "harmonic-staleness",
                "host.max-rate",
                1440,
                "lease",
                "30 min",
                "metadata.transfer",
                List.of("depth", "tag")));
    assertThat(c.metadataTransfer()).containsExactly("depth", "tag");
  }

  @Test
  void engineKeysAreCheckedByTheEngineAndNamedInFull() throws Exception {
    assertThatThrownBy(() -> RecrawlConfig.load(yaml("recrawl.engine:\n  lease: soon\n")))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("recrawl.engine.lease: ");
    assertThatThrownBy(() -> RecrawlConfig.load(yaml("recrawl.engine.bogus: 1\n")))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("recrawl.engine.bogus: unknown key");
    RecrawlConfig c =
        RecrawlConfig.load(
            yaml("recrawl.engine.lease: 30 min\nrecrawl.metadata.transfer: [depth]\n"));
    assertThat(c.engineConfig().leaseMs).isEqualTo(1_800_000L);
    assertThat(c.engineConfig().metadataTransfer).containsExactly("depth");
  }

  @Test
  void kafkaClientPropertiesArePassedOnButNeverLoggedAndNeverTheJobsOwn() throws Exception {
    RecrawlConfig c =
        RecrawlConfig.load(
            yaml(
                """
        recrawl.kafka.properties:
          security.protocol: SASL_SSL
          sasl.jaas.config: "secret"
        recrawl.kafka.properties.request.timeout.ms: 60000
        """));
    assertThat(c.kafkaProperties())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "security.protocol",
                "SASL_SSL",
                "sasl.jaas.config",
                "secret",
                "request.timeout.ms",
                "60000"));
    assertThat(c.effective()).containsEntry("recrawl.kafka.properties.sasl.jaas.config", "(set)");
    assertThat(c.effective().toString()).doesNotContain("secret");
    assertThat(c.with(Map.of("recrawl.parallelism", 2)).kafkaProperties())
        .isEqualTo(c.kafkaProperties());
    assertThatThrownBy(
            () ->
                RecrawlConfig.fromMap(Map.of("recrawl.kafka.properties.bootstrap.servers", "x:1")))
        .hasMessageStartingWith(
            "recrawl.kafka.properties.bootstrap.servers: set by the job itself");
    assertThatThrownBy(
            () -> RecrawlConfig.fromMap(Map.of("recrawl.kafka.properties.acks", List.of("all"))))
        .hasMessageStartingWith("recrawl.kafka.properties.acks: must be a string");
  }

  @Test
  void overridesApplyAfterTheFileAndAreChecked() throws Exception {
    Path f = yaml("recrawl.input.type: files\n");
    assertThat(
            RecrawlConfig.load(
                    f, Map.of("recrawl.input.type", "kafka", "recrawl.global-lambda", "1e-6"))
                .kafkaInput())
        .isTrue();
    assertThatThrownBy(() -> RecrawlConfig.load(f, Map.of("recrawl.parallelism", "-3")))
        .hasMessageStartingWith("recrawl.parallelism:");
  }

  @Test
  void seedsTimeIsEpochMillisIsoOrTheBuildTime() {
    assertThat(RecrawlConfig.defaults().seedsTime(42)).isEqualTo(42);
    assertThat(RecrawlConfig.fromMap(Map.of("recrawl.input.seeds-time", "1000")).seedsTime(42))
        .isEqualTo(1000);
    assertThat(
            RecrawlConfig.fromMap(Map.of("recrawl.input.seeds-time", "1970-01-01T00:00:01Z"))
                .seedsTime(42))
        .isEqualTo(1000);
  }

  @Test
  void malformedYamlNamesTheFile() throws Exception {
    Path f = yaml("recrawl.input.type: [unclosed\n");
    assertThatThrownBy(() -> RecrawlConfig.load(f))
        .hasMessageStartingWith(f.toString() + ": not valid YAML");
  }
}
