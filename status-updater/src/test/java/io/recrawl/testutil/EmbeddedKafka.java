package io.recrawl.testutil;

import io.recrawl.kafka.TrialBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A {@link TrialBroker} in a temporary directory, with what the tests need to send and read
 * records. The one copy for the whole build, used at two Kafka versions: status-updater runs it on
 * its own kafka_2.13 3.9.1 (Storm's kafka-clients); flink-jobs gets it through this module's
 * test-jar and runs it on kafka_2.13 4.2.0 (the Flink connector's kafka-clients). See {@link
 * TrialBroker} for why one class serves both.
 */
public final class EmbeddedKafka implements AutoCloseable {

  private final TrialBroker broker;
  private final Path dir;
  private final String bootstrap;

  private EmbeddedKafka(TrialBroker broker, Path dir) {
    this.broker = broker;
    this.dir = dir;
    this.bootstrap = broker.bootstrapServers();
  }

  /** Formats and starts a broker on free ports; replication factors 1, so transactions work. */
  public static EmbeddedKafka start() throws Exception {
    Path dir = Files.createTempDirectory("recrawl-kafka");
    return new EmbeddedKafka(TrialBroker.start(dir, 0, 0), dir);
  }

  private Admin admin() {
    return broker.admin();
  }

  public String bootstrapServers() {
    return bootstrap;
  }

  public void createTopic(String name, int partitions) throws Exception {
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get();
    }
  }

  /** The log end offset of a partition: records plus transaction markers. */
  public long endOffset(String topic, int partition) throws Exception {
    try (Admin admin = admin()) {
      TopicPartition tp = new TopicPartition(topic, partition);
      return admin.listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp).get().offset();
    }
  }

  /** Sends raw values (may be invalid UTF-8), keyless, and waits until all are acknowledged. */
  public void sendRaw(String topic, List<byte[]> values) throws Exception {
    List<Map.Entry<byte[], byte[]>> records = new ArrayList<>();
    for (byte[] v : values) {
      records.add(new AbstractMap.SimpleImmutableEntry<>(null, v));
    }
    sendRecords(topic, records);
  }

  /** Sends UTF-8 values, keyless, and waits until all are acknowledged. */
  public void send(String topic, List<String> values) throws Exception {
    sendRaw(topic, values.stream().map(v -> v.getBytes(StandardCharsets.UTF_8)).toList());
  }

  /** Sends keyed UTF-8 records, in order, and waits until each is acknowledged. */
  public void sendKeyed(String topic, List<Map.Entry<String, String>> keyedValues)
      throws Exception {
    List<Map.Entry<byte[], byte[]>> records = new ArrayList<>();
    for (Map.Entry<String, String> kv : keyedValues) {
      records.add(new AbstractMap.SimpleImmutableEntry<>(utf8(kv.getKey()), utf8(kv.getValue())));
    }
    sendRecords(topic, records);
  }

  private void sendRecords(String topic, List<Map.Entry<byte[], byte[]>> records) throws Exception {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("acks", "all");
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (Map.Entry<byte[], byte[]> kv : records) {
        producer.send(new ProducerRecord<>(topic, kv.getKey(), kv.getValue())).get();
      }
    }
  }

  /**
   * Reads a topic from the beginning with the given isolation level until {@code expected} records
   * arrived or the timeout passed, then polls once more to catch any surplus.
   */
  public List<ConsumerRecord<String, String>> read(
      String topic, String isolationLevel, int expected, Duration timeout) {
    try (Reader reader = new Reader(topic, isolationLevel)) {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (reader.records.size() < expected && System.nanoTime() < deadline) {
        reader.poll(Duration.ofMillis(200));
      }
      return new ArrayList<>(reader.poll(Duration.ofMillis(500)));
    }
  }

  /**
   * The values of every committed record of a topic, up to its end as of now: every partition
   * assigned and read from its start (no consumer group to join, so nothing is missed for want of a
   * partition assignment).
   */
  public List<String> committed(String topic) {
    return committed(bootstrap, topic);
  }

  /** {@link #committed(String)} of the broker at {@code bootstrap}, any broker. */
  public static List<String> committed(String bootstrap, String topic) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("isolation.level", "read_committed");
    p.put("enable.auto.commit", "false");
    List<String> out = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
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
        consumer.poll(Duration.ofMillis(100)).forEach(r -> out.add(r.value()));
      }
    }
    return out;
  }

  /** A consumer of a whole topic from its start, for reading what a test produced. */
  public Reader reader(String topic) {
    return new Reader(topic, "read_uncommitted");
  }

  /** Accumulates a topic's records, as UTF-8 text, across polls. */
  public final class Reader implements AutoCloseable {
    private final KafkaConsumer<String, String> consumer;
    private final List<ConsumerRecord<String, String>> records = new ArrayList<>();

    private Reader(String topic, String isolationLevel) {
      Properties p = new Properties();
      p.put("bootstrap.servers", bootstrap);
      p.put("group.id", "test-reader-" + topic + "-" + System.nanoTime());
      p.put("auto.offset.reset", "earliest");
      p.put("enable.auto.commit", "false");
      p.put("isolation.level", isolationLevel);
      consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
      consumer.subscribe(List.of(topic));
    }

    /** Polls once (up to the timeout) and returns every record read so far. */
    public List<ConsumerRecord<String, String>> poll(Duration timeout) {
      consumer.poll(timeout).forEach(records::add);
      return records;
    }

    @Override
    public void close() {
      consumer.close();
    }
  }

  private static byte[] utf8(String s) {
    return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws Exception {
    broker.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
