package io.recrawl.kafka;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bin/recrawl kafka}: a single-node Kafka broker for a trial crawl, with the crawl's six
 * topics, until Ctrl-C. Not for production: one node keeps one copy of every record.
 */
public final class KafkaCommand {

  /** The job's default topic names (recrawl.kafka.topic.*), in the order they are printed. */
  public static final List<String> TOPICS =
      List.of(
          "crawl.status",
          "crawl.requests",
          "crawl.control",
          "crawl.deadletters",
          "crawl.decisions",
          "crawl.answers");

  static final String USAGE =
      String.join(
          "\n",
          "usage: bin/recrawl kafka [--port PORT] [--controller-port PORT] [--dir DIR] [--partitions N]",
          "       " + TopicWatch.SYNOPSIS,
          "",
          "A real Kafka broker (KRaft, one node, loopback only) for a trial crawl, with the topics the",
          "job and the crawler use; it runs until Ctrl-C and keeps its records in DIR across restarts.",
          "",
          "options:",
          "  --port PORT             client port (default 9092: the job's recrawl.kafka.bootstrap.servers)",
          "  --controller-port PORT  KRaft controller port (default 9093)",
          "  --dir DIR               data directory (default work/kafka)",
          "  --partitions N          partitions of crawl.status and crawl.requests (default 4): the",
          "                          job's and the spout's parallelism are at most this; crawl.control,",
          "                          crawl.deadletters, crawl.decisions and crawl.answers have one",
          "  --help                  this text",
          "",
          "example:",
          "  bin/recrawl kafka --dir /tmp/trial/kafka",
          "",
          "watch prints a topic's committed records as they come (watch --help: its options).",
          "For a real cluster, docs/operations.md gives the topic commands and broker settings.");

  private KafkaCommand() {}

  public static void main(String[] args) throws Exception {
    int rc;
    if (args.length > 0 && args[0].equals("watch")) {
      java.util.concurrent.atomic.AtomicBoolean stop =
          new java.util.concurrent.atomic.AtomicBoolean();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> stop.set(true)));
      rc =
          TopicWatch.run(
              java.util.Arrays.copyOfRange(args, 1, args.length), System.out, System.err, stop);
    } else {
      rc = run(args, System.out, System.err, new CountDownLatch(1));
    }
    if (rc != 0) {
      System.exit(rc);
    }
  }

  /**
   * Starts the broker and the topics, prints where it is, then waits for {@code stop} (counted down
   * by the JVM's shutdown, or by a caller that runs it on a thread of its own).
   */
  public static int run(String[] args, PrintStream out, PrintStream err, CountDownLatch stop)
      throws Exception {
    int port = 9092;
    int controllerPort = 9093;
    Path dir = Path.of("work", "kafka");
    int partitions = 4;
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (a.equals("--help") || a.equals("-h")) {
          out.println(USAGE);
          return 0;
        } else if (a.equals("--port") && i + 1 < args.length) {
          port = positive(a, args[++i]);
        } else if (a.equals("--controller-port") && i + 1 < args.length) {
          controllerPort = positive(a, args[++i]);
        } else if (a.equals("--dir") && i + 1 < args.length) {
          dir = Path.of(args[++i]);
        } else if (a.equals("--partitions") && i + 1 < args.length) {
          partitions = positive(a, args[++i]);
        } else {
          throw new IllegalArgumentException("unexpected argument '" + a + "'");
        }
      }
    } catch (IllegalArgumentException e) {
      err.println("recrawl kafka: " + e.getMessage());
      err.println(USAGE);
      return 2;
    }
    TrialBroker broker = TrialBroker.start(dir.toAbsolutePath(), port, controllerPort);
    Thread closer =
        new Thread(
            () -> {
              broker.close();
              stop.countDown();
            },
            "recrawl-kafka-shutdown");
    Runtime.getRuntime().addShutdownHook(closer);
    try {
      List<String> created = broker.createTopics(topics(partitions));
      out.println(
          "recrawl kafka: broker at "
              + broker.bootstrapServers()
              + " (KRaft, one node, data in "
              + broker.dir()
              + ")");
      for (Map.Entry<String, Integer> t : topics(partitions).entrySet()) {
        out.println(
            "  topic "
                + t.getKey()
                + (created.contains(t.getKey())
                    ? ": created, " + t.getValue() + " partition(s)"
                    : ": already there"));
      }
      out.println(
          "recrawl kafka: set recrawl.kafka.bootstrap.servers: "
              + broker.bootstrapServers()
              + " in the job and the crawler; Ctrl-C stops it");
      out.flush();
      stop.await();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(closer);
        broker.close();
      } catch (IllegalStateException shuttingDown) {
        // the JVM is already stopping: the hook closes the broker
      }
    }
    return 0;
  }

  /** The six topics with their partitions: status and requests at {@code partitions}, one else. */
  public static Map<String, Integer> topics(int partitions) {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (String t : TOPICS) {
      m.put(t, t.equals("crawl.status") || t.equals("crawl.requests") ? partitions : 1);
    }
    return m;
  }

  private static int positive(String option, String value) {
    try {
      int n = Integer.parseInt(value);
      if (n > 0 && n <= 65_535) {
        return n;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new IllegalArgumentException(
        option + " takes a number from 1 to 65535, not '" + value + "'");
  }
}
