package io.recrawl.testutil;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
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
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Time;

/**
 * A real Kafka broker (KRaft, one combined broker and controller) in the test JVM: no Docker. The
 * one copy for the whole build, used at two Kafka versions.
 *
 * <p>status-updater tests it against its own kafka_2.13 3.9.1 (Storm's kafka-clients); flink-jobs
 * gets it through this module's test-jar and runs it against kafka_2.13 4.2.0 (the Flink
 * connector's kafka-clients). Kafka's in-process test kit cannot serve both: in 4.x it is {@code
 * org.apache.kafka.common.test.KafkaClusterTestKit} in {@code kafka-test-common-runtime} (published
 * from 4.0 on), in 3.9 {@code kafka.testkit.KafkaClusterTestKit} in the core's test classifier, a
 * different package and builder API. So this class uses only API that both versions have with the
 * same binary signatures (checked with javap): {@code StorageTool.execute(String[], PrintStream)},
 * {@code KafkaConfig.fromProps(Properties, boolean)} and {@code new KafkaRaftServer(KafkaConfig,
 * Time)} — what {@code kafka-storage format} and {@code kafka-server-start} do — and the public
 * client API for everything else. It is compiled against 3.9.1 here and linked against 4.2.0 in
 * flink-jobs; both modules' Kafka tests exercise it.
 */
public final class EmbeddedKafka implements AutoCloseable {

  private final KafkaRaftServer server;
  private final Path dir;
  private final String bootstrap;

  private EmbeddedKafka(KafkaRaftServer server, Path dir, String bootstrap) {
    this.server = server;
    this.dir = dir;
    this.bootstrap = bootstrap;
  }

  /** Formats and starts a broker; replication factors 1, so transactions work on one node. */
  public static EmbeddedKafka start() throws Exception {
    Path dir = Files.createTempDirectory("recrawl-kafka");
    int brokerPort = freePort();
    int controllerPort = freePort();
    Properties p = new Properties();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    p.put(
        "listeners",
        "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    p.put("controller.listener.names", "CONTROLLER");
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("log.dirs", dir.resolve("data").toString());
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "1");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("transaction.state.log.num.partitions", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    Path props = dir.resolve("server.properties");
    try (OutputStream out = Files.newOutputStream(props)) {
      p.store(out, null);
    }
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    int rc =
        StorageTool.execute(
            new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c", props.toString()},
            new PrintStream(log, true, StandardCharsets.UTF_8));
    if (rc != 0) {
      throw new IllegalStateException(
          "kafka-storage format failed: " + log.toString(StandardCharsets.UTF_8));
    }
    KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(p, false), Time.SYSTEM);
    server.startup();
    EmbeddedKafka kafka = new EmbeddedKafka(server, dir, "127.0.0.1:" + brokerPort);
    kafka.awaitReady();
    return kafka;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private void awaitReady() throws Exception {
    try (Admin admin = admin()) {
      // blocks until the broker answers (default API timeout 60 s)
      admin.describeCluster().nodes().get();
    }
  }

  private Admin admin() {
    return Admin.create(Map.of("bootstrap.servers", bootstrap));
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
    server.shutdown();
    server.awaitShutdown();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
