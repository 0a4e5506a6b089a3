package io.recrawl.crawler;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Time;

/**
 * A real Kafka broker (KRaft, one combined broker and controller) in the test JVM, at the
 * kafka-clients version of this module (3.9). Kafka 3.9 publishes no test kit as a plain artifact
 * (the Flink module's kafka-test-common-runtime starts at 4.0), so the broker is started as {@code
 * kafka-storage format} plus {@code kafka-server-start} would: no Docker.
 */
final class EmbeddedKafka implements AutoCloseable {

  private final KafkaRaftServer server;
  private final Path dir;
  private final String bootstrap;

  private EmbeddedKafka(KafkaRaftServer server, Path dir, String bootstrap) {
    this.server = server;
    this.dir = dir;
    this.bootstrap = bootstrap;
  }

  static EmbeddedKafka start() throws Exception {
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
    p.put("group.initial.rebalance.delay.ms", "0");
    p.put("auto.create.topics.enable", "false");
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
      admin
          .describeCluster()
          .nodes()
          .get(); // blocks until the broker answers (default API timeout 60 s)
    }
  }

  private Admin admin() {
    return Admin.create(Map.of("bootstrap.servers", bootstrap));
  }

  String bootstrapServers() {
    return bootstrap;
  }

  void createTopic(String name, int partitions) throws Exception {
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get();
    }
  }

  /** Sends keyed records and waits until each is acknowledged. */
  void send(String topic, List<Map.Entry<String, String>> keyedValues) throws Exception {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("acks", "all");
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      for (Map.Entry<String, String> kv : keyedValues) {
        producer.send(new ProducerRecord<>(topic, kv.getKey(), kv.getValue())).get();
      }
    }
  }

  /** A consumer of a whole topic from its start, for reading what a test produced. */
  Reader reader(String topic) {
    return new Reader(topic);
  }

  /** Accumulates a topic's records across polls. */
  final class Reader implements AutoCloseable {
    private final KafkaConsumer<String, String> consumer;
    private final List<ConsumerRecord<String, String>> records = new ArrayList<>();

    private Reader(String topic) {
      Properties p = new Properties();
      p.put("bootstrap.servers", bootstrap);
      p.put("group.id", "test-reader-" + topic + "-" + System.nanoTime());
      p.put("auto.offset.reset", "earliest");
      p.put("enable.auto.commit", "false");
      consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
      consumer.subscribe(List.of(topic));
    }

    /** Polls once (up to the timeout) and returns every record read so far. */
    List<ConsumerRecord<String, String>> poll(Duration timeout) {
      consumer.poll(timeout).forEach(records::add);
      return records;
    }

    @Override
    public void close() {
      consumer.close();
    }
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
