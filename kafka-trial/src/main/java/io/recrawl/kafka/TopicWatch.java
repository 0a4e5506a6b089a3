package io.recrawl.kafka;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * {@code bin/recrawl kafka watch TOPIC}: a topic's committed records, one value a line, as they
 * come, until Ctrl-C; what a trial crawl needs to watch the job's requests and decisions without
 * Kafka's own tools. It joins no consumer group, so it moves no one's offsets.
 */
final class TopicWatch {

  static final String SYNOPSIS =
      "bin/recrawl kafka watch TOPIC [--bootstrap HOST:PORT] [--from-end] [--max N]";

  static final String USAGE =
      String.join(
          "\n",
          "usage: " + SYNOPSIS,
          "",
          "Prints the committed records of TOPIC (read_committed: what the job's exactly-once output",
          "has committed), one value a line, from the beginning, then as they come, until Ctrl-C.",
          "",
          "options:",
          "  --bootstrap HOST:PORT   the broker (default 127.0.0.1:9092, bin/recrawl kafka's)",
          "  --from-end              only the records that come from now on",
          "  --max N                 stop after N records",
          "",
          "example:",
          "  bin/recrawl kafka watch crawl.decisions");

  private TopicWatch() {}

  static int run(String[] args, PrintStream out, PrintStream err, AtomicBoolean stop) {
    String topic = null;
    String bootstrap = "127.0.0.1:9092";
    boolean fromEnd = false;
    long max = Long.MAX_VALUE;
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (a.equals("--help") || a.equals("-h")) {
          out.println(USAGE);
          return 0;
        } else if (a.equals("--bootstrap") && i + 1 < args.length) {
          bootstrap = args[++i];
        } else if (a.equals("--from-end")) {
          fromEnd = true;
        } else if (a.equals("--max") && i + 1 < args.length) {
          max = Long.parseLong(args[++i]);
          if (max <= 0) {
            throw new NumberFormatException();
          }
        } else if (!a.startsWith("-") && topic == null) {
          topic = a;
        } else {
          throw new IllegalArgumentException("unexpected argument '" + a + "'");
        }
      }
      if (topic == null) {
        throw new IllegalArgumentException("which topic? (crawl.requests, crawl.decisions, ...)");
      }
    } catch (NumberFormatException e) {
      err.println("recrawl kafka watch: --max takes a positive number");
      err.println(USAGE);
      return 2;
    } catch (IllegalArgumentException e) {
      err.println("recrawl kafka watch: " + e.getMessage());
      err.println(USAGE);
      return 2;
    }
    Map<String, Object> config =
        Map.of(
            "bootstrap.servers",
            bootstrap,
            "isolation.level",
            "read_committed",
            "enable.auto.commit",
            false,
            "default.api.timeout.ms",
            15_000);
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
      List<PartitionInfo> partitions = consumer.partitionsFor(topic);
      if (partitions == null || partitions.isEmpty()) {
        err.println("recrawl kafka watch: no topic " + topic + " at " + bootstrap);
        return 2;
      }
      String name = topic;
      List<TopicPartition> assigned =
          partitions.stream().map(p -> new TopicPartition(name, p.partition())).toList();
      consumer.assign(assigned);
      if (fromEnd) {
        consumer.seekToEnd(assigned);
      } else {
        consumer.seekToBeginning(assigned);
      }
      long printed = 0;
      while (!stop.get() && printed < max) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
          out.println(r.value());
          if (++printed == max) {
            break;
          }
        }
        out.flush();
      }
      return 0;
    } catch (org.apache.kafka.common.KafkaException e) {
      err.println("recrawl kafka watch: " + bootstrap + ": " + e.getMessage());
      return 1;
    }
  }
}
