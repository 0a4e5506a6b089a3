package io.recrawl.kafka;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * A real Kafka broker in this JVM: one KRaft node that is both broker and controller, listening on
 * the loopback address only. What {@code kafka-storage format} and {@code kafka-server-start} do,
 * with the settings that the job's exactly-once output needs on a single node (the offsets and
 * transaction-state topics at replication factor 1 and min ISR 1; Kafka's defaults of 3 leave a
 * one-node broker unable to start a transaction).
 *
 * <p>It is compiled against kafka_2.13 3.9.1 and runs on 3.9.1 (status-updater's tests) and on
 * 4.2.0 (flink-jobs and {@code bin/recrawl kafka}): it uses only {@code StorageTool.execute},
 * {@code KafkaConfig.fromProps}, {@code new KafkaRaftServer(KafkaConfig, Time)} and the public
 * client API, which both versions have with the same binary signatures.
 */
public final class TrialBroker implements AutoCloseable {

  private final KafkaRaftServer server;
  private final Path dir;
  private final String bootstrap;

  private TrialBroker(KafkaRaftServer server, Path dir, String bootstrap) {
    this.server = server;
    this.dir = dir;
    this.bootstrap = bootstrap;
  }

  /**
   * Starts a broker whose data lives under {@code dir}. A directory that a broker has formatted
   * before is started as it is, with its topics and records; an empty one is formatted first.
   *
   * @param port the client port; 0 picks a free one
   * @param controllerPort the KRaft controller's port; 0 picks a free one
   */
  public static TrialBroker start(Path dir, int port, int controllerPort) throws Exception {
    int brokerPort = port == 0 ? freePort() : port;
    int quorumPort = controllerPort == 0 ? freePort() : controllerPort;
    Files.createDirectories(dir);
    Properties p = settings(dir.resolve("data"), brokerPort, quorumPort);
    Path props = dir.resolve("server.properties");
    try (OutputStream out = Files.newOutputStream(props)) {
      p.store(out, "written by recrawl's TrialBroker at every start");
    }
    if (!Files.exists(dir.resolve("data").resolve("meta.properties"))) {
      format(props);
    }
    KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(p, false), Time.SYSTEM);
    server.startup();
    TrialBroker broker = new TrialBroker(server, dir, "127.0.0.1:" + brokerPort);
    broker.awaitReady();
    return broker;
  }

  /** The broker's settings: one node, loopback only, replication factor 1 everywhere. */
  static Properties settings(Path logDir, int brokerPort, int controllerPort) {
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
    p.put("log.dirs", logDir.toString());
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "1");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("transaction.state.log.num.partitions", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    return p;
  }

  private static void format(Path props) {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    int rc =
        StorageTool.execute(
            new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c", props.toString()},
            new PrintStream(log, true, StandardCharsets.UTF_8));
    if (rc != 0) {
      throw new IllegalStateException(
          "kafka-storage format failed: " + log.toString(StandardCharsets.UTF_8));
    }
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

  /** An admin client of this broker; the caller closes it. */
  public Admin admin() {
    return Admin.create(Map.of("bootstrap.servers", bootstrap));
  }

  /** host:port for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return bootstrap;
  }

  /** The directory that holds the broker's settings and data. */
  public Path dir() {
    return dir;
  }

  /**
   * Creates each topic that does not exist yet, at replication factor 1; a topic that exists keeps
   * its partitions.
   *
   * @return the topics created now
   */
  public List<String> createTopics(Map<String, Integer> partitionsByTopic) throws Exception {
    try (Admin admin = admin()) {
      Set<String> existing = admin.listTopics().names().get();
      List<NewTopic> wanted = new ArrayList<>();
      for (Map.Entry<String, Integer> t : partitionsByTopic.entrySet()) {
        if (!existing.contains(t.getKey())) {
          wanted.add(new NewTopic(t.getKey(), t.getValue(), (short) 1));
        }
      }
      try {
        admin.createTopics(wanted).all().get();
      } catch (ExecutionException e) {
        throw new IllegalStateException("cannot create topics: " + e.getCause().getMessage(), e);
      }
      return wanted.stream().map(NewTopic::name).toList();
    }
  }

  @Override
  public void close() {
    server.shutdown();
    server.awaitShutdown();
  }
}
