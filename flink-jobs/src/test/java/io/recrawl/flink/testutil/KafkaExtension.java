package io.recrawl.flink.testutil;

import io.recrawl.testutil.EmbeddedKafka;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An {@link EmbeddedKafka} broker for one test class: started with its topics before the tests,
 * closed after.
 */
public final class KafkaExtension implements BeforeAllCallback, AfterAllCallback {

  private final Map<String, Integer> topics = new LinkedHashMap<>();
  private EmbeddedKafka kafka;

  /**
   * @param topicsAndPartitions topic name, partitions, topic name, partitions, ...
   */
  public KafkaExtension(Object... topicsAndPartitions) {
    for (int i = 0; i < topicsAndPartitions.length; i += 2) {
      topics.put((String) topicsAndPartitions[i], (Integer) topicsAndPartitions[i + 1]);
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    kafka = EmbeddedKafka.start();
    for (Map.Entry<String, Integer> t : topics.entrySet()) {
      kafka.createTopic(t.getKey(), t.getValue());
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    if (kafka != null) {
      kafka.close();
    }
  }

  /** The running broker. */
  public EmbeddedKafka kafka() {
    return kafka;
  }

  /**
   * The job's settings for this broker: status events in and requests out through Kafka, read from
   * the earliest offsets, in transactions of at most a minute under an id prefix of their own.
   */
  public Map<String, Object> jobSettings(String transactionalIdPrefix) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("recrawl.input.type", "kafka");
    m.put("recrawl.output.type", "kafka");
    m.put("recrawl.output.kafka.transaction-timeout-ms", 60_000);
    m.put(
        "recrawl.output.kafka.transactional-id-prefix",
        transactionalIdPrefix + "-" + System.nanoTime());
    m.put("recrawl.kafka.bootstrap.servers", kafka.bootstrapServers());
    m.put("recrawl.kafka.starting-offsets", "earliest");
    // Fixed intervals unless a test sets a budget: what these tests check does not depend on it.
    m.put("recrawl.controller.budget", 0);
    return m;
  }
}
