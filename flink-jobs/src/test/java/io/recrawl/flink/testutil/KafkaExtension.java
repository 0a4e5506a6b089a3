package io.recrawl.flink.testutil;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** An {@link EmbeddedKafka} broker for one test class: started with its topics before the tests, closed after. */
public final class KafkaExtension implements BeforeAllCallback, AfterAllCallback {

  private final Map<String, Integer> topics = new LinkedHashMap<>();
  private EmbeddedKafka kafka;

  /** @param topicsAndPartitions topic name, partitions, topic name, partitions, ... */
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
}
