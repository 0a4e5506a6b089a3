package io.recrawl.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/recrawl kafka}: the real broker, its topics, a transaction, a restart. */
class KafkaCommandITCase {

  @TempDir Path dir;

  @Test
  void startsABrokerWithTheFiveTopicsThatTakesTransactionsAndKeepsThemAcrossARestart()
      throws Exception {
    int port = freePort();
    String[] args = {
      "--port",
      "" + port,
      "--controller-port",
      "" + freePort(),
      "--dir",
      dir.toString(),
      "--partitions",
      "3"
    };
    Running first = Running.start(args);
    assertThat(first.awaitOutput("Ctrl-C stops it"))
        .contains("broker at 127.0.0.1:" + port)
        .contains("topic crawl.status: created, 3 partition(s)")
        .contains("topic crawl.control: created, 1 partition(s)");
    String bootstrap = "127.0.0.1:" + port;
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      Map<String, TopicDescription> topics =
          admin.describeTopics(KafkaCommand.TOPICS).allTopicNames().get();
      assertThat(topics.get("crawl.requests").partitions()).hasSize(3);
      assertThat(topics.get("crawl.deadletters").partitions()).hasSize(1);
    }
    // The job writes exactly-once through Kafka transactions: one node must take them.
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("transactional.id", "trial-test");
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      producer.initTransactions();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>("crawl.requests", "h", "aborted"));
      producer.flush();
      producer.abortTransaction();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>("crawl.requests", "h", "committed"));
      producer.commitTransaction();
    }
    first.finish();

    Running second = Running.start(args);
    assertThat(second.awaitOutput("Ctrl-C stops it")).contains("topic crawl.status: already there");
    assertThat(readCommitted(bootstrap, "crawl.requests")).containsExactly("committed");
    // What first-crawl.md watches a topic with: the committed records only.
    ByteArrayOutputStream watched = new ByteArrayOutputStream();
    int rc =
        TopicWatch.run(
            new String[] {"crawl.requests", "--bootstrap", bootstrap, "--max", "1"},
            new PrintStream(watched, true, StandardCharsets.UTF_8),
            System.err,
            new java.util.concurrent.atomic.AtomicBoolean());
    assertThat(rc).isZero();
    assertThat(watched.toString(StandardCharsets.UTF_8)).isEqualTo("committed\n");
    second.finish();
  }

  @Test
  void answersHelpAndRefusesABadArgumentNamingIt() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertThat(
            KafkaCommand.run(
                new String[] {"--help"}, print(out), print(err), new CountDownLatch(0)))
        .isEqualTo(0);
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("--partitions N")
        .contains("example:");
    assertThat(
            KafkaCommand.run(
                new String[] {"--port", "99999"}, print(out), print(err), new CountDownLatch(0)))
        .isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--port takes a number");
  }

  private static List<String> readCommitted(String bootstrap, String topic) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("group.id", "reader-" + System.nanoTime());
    p.put("auto.offset.reset", "earliest");
    p.put("isolation.level", "read_committed");
    List<String> values = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (values.isEmpty() && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
      }
    }
    return values;
  }

  private static PrintStream print(ByteArrayOutputStream to) {
    return new PrintStream(to, true, StandardCharsets.UTF_8);
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** The command on a thread of its own, as bin/recrawl kafka runs it until Ctrl-C. */
  private record Running(
      ByteArrayOutputStream out, CountDownLatch stop, CompletableFuture<Integer> exit) {

    static Running start(String[] args) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      CountDownLatch stop = new CountDownLatch(1);
      CompletableFuture<Integer> exit =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return KafkaCommand.run(args, print(out), print(out), stop);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      return new Running(out, stop, exit);
    }

    String awaitOutput(String marker) throws Exception {
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (!out.toString(StandardCharsets.UTF_8).contains(marker)) {
        assertThat(System.nanoTime()).as("output so far: %s", out).isLessThan(deadline);
        assertThat(exit.isDone()).as("exited early: %s", out).isFalse();
        Thread.sleep(100);
      }
      return out.toString(StandardCharsets.UTF_8);
    }

    void finish() throws Exception {
      stop.countDown();
      assertThat(exit.get(60, TimeUnit.SECONDS)).isEqualTo(0);
    }
  }
}
