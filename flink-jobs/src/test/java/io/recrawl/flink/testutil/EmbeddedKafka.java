package io.recrawl.flink.testutil;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real Kafka broker (KRaft, one combined broker/controller) in the test JVM, from Kafka's own
 * test kit at the kafka-clients version of the Flink connector. No Docker.
 */
public final class EmbeddedKafka implements AutoCloseable {

  private final KafkaClusterTestKit cluster;

  private EmbeddedKafka(KafkaClusterTestKit cluster) {
    this.cluster = cluster;
  }

  /** Formats and starts a broker; replication factors 1, so transactions work on one node. */
  public static EmbeddedKafka start() throws Exception {
    TestKitNodes nodes =
        new TestKitNodes.Builder()
            .setCombined(true)
            .setNumBrokerNodes(1)
            .setNumControllerNodes(1)
            .build();
    KafkaClusterTestKit cluster =
        new KafkaClusterTestKit.Builder(nodes)
            .setConfigProp("offsets.topic.replication.factor", "1")
            .setConfigProp("offsets.topic.num.partitions", "1")
            .setConfigProp("transaction.state.log.replication.factor", "1")
            .setConfigProp("transaction.state.log.min.isr", "1")
            .setConfigProp("transaction.state.log.num.partitions", "1")
            .setConfigProp("group.initial.rebalance.delay.ms", "0")
            .build();
    cluster.format();
    cluster.startup();
    cluster.waitForReadyBrokers();
    return new EmbeddedKafka(cluster);
  }

  public String bootstrapServers() {
    return cluster.bootstrapServers();
  }

  public void createTopic(String name, int partitions) throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get();
    }
  }

  /** The log end offset of a partition: records plus transaction markers. */
  public long endOffset(String topic, int partition) throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers()))) {
      var tp = new org.apache.kafka.common.TopicPartition(topic, partition);
      return admin
          .listOffsets(Map.of(tp, org.apache.kafka.clients.admin.OffsetSpec.latest()))
          .partitionResult(tp)
          .get()
          .offset();
    }
  }

  /** Sends raw values (may be invalid UTF-8), keyless, and waits until all are acknowledged. */
  public void sendRaw(String topic, List<byte[]> values) throws Exception {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrapServers());
    p.put("acks", "all");
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (byte[] v : values) {
        producer.send(new ProducerRecord<>(topic, v)).get();
      }
    }
  }

  public void send(String topic, List<String> values) throws Exception {
    sendRaw(topic, values.stream().map(v -> v.getBytes(StandardCharsets.UTF_8)).toList());
  }

  /**
   * Reads a topic from the beginning with the given isolation level until {@code expected} records
   * arrived or the timeout passed, then polls once more to catch any surplus.
   */
  public List<ConsumerRecord<String, String>> read(
      String topic, String isolationLevel, int expected, Duration timeout) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrapServers());
    p.put("group.id", "test-reader-" + System.nanoTime());
    p.put("auto.offset.reset", "earliest");
    p.put("enable.auto.commit", "false");
    p.put("isolation.level", isolationLevel);
    List<ConsumerRecord<String, String>> out = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + timeout.toNanos();
      while (out.size() < expected && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(r -> out.add(text(r)));
      }
      consumer.poll(Duration.ofMillis(500)).forEach(r -> out.add(text(r)));
    }
    return out;
  }

  /**
   * The values of every committed record of a topic, up to its end as of now: every partition
   * assigned and read from its start (no consumer group to join, so nothing is missed for want of a
   * partition assignment).
   */
  public List<String> committed(String topic) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrapServers());
    p.put("isolation.level", "read_committed");
    p.put("enable.auto.commit", "false");
    List<String> out = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(i -> new TopicPartition(topic, i.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))
          && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(100)).forEach(r -> out.add(text(r).value()));
      }
    }
    return out;
  }

  private static ConsumerRecord<String, String> text(ConsumerRecord<byte[], byte[]> r) {
    return new ConsumerRecord<>(
        r.topic(),
        r.partition(),
        r.offset(),
        r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8),
        r.value() == null ? null : new String(r.value(), StandardCharsets.UTF_8));
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
