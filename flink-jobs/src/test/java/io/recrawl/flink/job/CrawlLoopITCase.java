package io.recrawl.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.testutil.KafkaExtension;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole loop with real parts: the production job (host scheduler on RocksDB, checkpoints,
 * exactly-once Kafka output) and StormCrawler's own fetcher and parser in the example topology of
 * {@code status-updater} (a Storm LocalCluster in a JVM of its own: Storm's Kafka client and Flink's
 * cannot share a class path), joined by a real Kafka broker, crawling a local web site. A seed goes
 * in; the job requests it, the crawler fetches it and sends its status and outlinks back, the job
 * requests those, and recrawls the seed: every request and status crosses the topics as in a
 * deployment.
 */
class CrawlLoopITCase {

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = TestClusters.miniCluster(TestClusters.strict(null));

  @RegisterExtension
  static final KafkaExtension KAFKA =
      new KafkaExtension("crawl.status", 2, "crawl.requests", 2, "crawl.deadletters", 1, "crawl.control", 1);

  /** The crawler's build output: its class path, written by status-updater's build. */
  private static final Path CRAWLER = Path.of("..", "status-updater").toAbsolutePath().normalize();
  private static final Path CRAWLER_CLASSPATH = CRAWLER.resolve("target/local-crawl-classpath.txt");
  private static final Duration DEADLINE = Duration.ofSeconds(180);

  @TempDir Path dir;

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void aSeedIsCrawledItsLinksFollowedAndItIsRecrawledThroughKafka() throws Exception {
    assertThat(CRAWLER_CLASSPATH).as("status-updater is built before flink-jobs (mvn verify from the root)").exists();
    HttpServer site = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    String base = "http://127.0.0.1:" + site.getAddress().getPort();
    site.createContext("/", CrawlLoopITCase::serve);
    site.start();
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), base + "/\n");
    Map<String, Object> settings = KAFKA.jobSettings("crawl-loop");
    settings.putAll(Map.ofEntries(
        Map.entry("recrawl.input.seeds", seeds.toString()),
        Map.entry("recrawl.deadletters.type", "kafka"),
        Map.entry("recrawl.watermark.idleness-ms", 500),
        Map.entry("recrawl.control.tick-interval-ms", 200),
        // A site crawled in seconds: revisits 5-10 s apart, one-second due buckets.
        Map.entry("recrawl.engine.due.bucket", "1 s"),
        Map.entry("recrawl.engine.timer.recheck", "1 min"),
        Map.entry("recrawl.engine.revisit.min-interval", "5 s"),
        Map.entry("recrawl.engine.revisit.max-interval", "10 s"),
        Map.entry("recrawl.engine.lease", "1 min"),
        Map.entry("recrawl.parallelism", 2)));
    RecrawlConfig config = RecrawlConfig.fromMap(settings);
    // Checkpoints commit the requests' Kafka transactions; the crawler reads them read_committed.
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(Map.of(
        "execution.checkpointing.interval", "500 ms",
        "execution.checkpointing.dir", TestClusters.checkpointDir("CrawlLoopITCase").toUri().toString())));
    RecrawlJob.build(env, config, JobSources.fromConfig(config), JobSinks.fromConfig(config));
    JobClient job = env.executeAsync("crawl-loop");
    Process crawler = startCrawler();
    try {
      String home = base + "/";
      List<CrawlRequest> requests = List.of();
      List<StatusEvent> statuses = List.of();
      long deadline = System.nanoTime() + DEADLINE.toNanos();
      while (System.nanoTime() < deadline) {
        assertThat(crawler.isAlive()).as("the crawler JVM is running; its log: %s", log()).isTrue();
        // Statuses first: a request was committed before the crawler could answer it, so every
        // status read has its request among those read after it.
        statuses = statuses();
        requests = requests();
        if (count(statuses, home, CrawlStatus.FETCHED) >= 2 && count(statuses, base + "/a.html", CrawlStatus.FETCHED) >= 1
            && count(statuses, base + "/b.html", CrawlStatus.FETCHED) >= 1) {
          break;
        }
        Thread.sleep(500);
      }
      // The seed fetched twice (a recrawl the job scheduled), its links followed.
      assertThat(count(statuses, home, CrawlStatus.FETCHED)).as("FETCHED of the seed in %s; crawler log: %s", statuses, log())
          .isGreaterThanOrEqualTo(2);
      List<StatusEvent> homeFetches = statuses.stream().filter(e -> e.url().equals(home) && e.status() == CrawlStatus.FETCHED).toList();
      assertThat(homeFetches.get(1).time() - homeFetches.get(0).time()).as("revisit.min-interval").isGreaterThanOrEqualTo(5_000);
      assertThat(homeFetches.get(1).first("signature")).as("the same content: evidence of no change")
          .isNotNull().isEqualTo(homeFetches.get(0).first("signature"));
      assertThat(statuses).anySatisfy(e -> {
        assertThat(e.url()).isEqualTo(base + "/b.html");
        assertThat(e.status()).isEqualTo(CrawlStatus.DISCOVERED);
      });
      assertThat(count(statuses, base + "/a.html", CrawlStatus.FETCHED)).isGreaterThanOrEqualTo(1);
      assertThat(count(statuses, base + "/b.html", CrawlStatus.FETCHED)).isGreaterThanOrEqualTo(1);
      // The crawler fetched only what the job asked for: as many requests of each URL as fetches.
      Map<String, Long> requested = requests.stream().collect(Collectors.groupingBy(CrawlRequest::url, Collectors.counting()));
      for (String url : statuses.stream().filter(e -> e.status() == CrawlStatus.FETCHED).map(StatusEvent::url).distinct().toList()) {
        assertThat(requested.getOrDefault(url, 0L)).as("requests of %s", url).isGreaterThanOrEqualTo(count(statuses, url, CrawlStatus.FETCHED));
      }
      // Politeness, on the output: one request a second at most per host (host.max-rate 86400).
      Map<String, List<CrawlRequest>> byHost = requests.stream().collect(Collectors.groupingBy(CrawlRequest::host));
      byHost.forEach((host, rs) -> {
        List<CrawlRequest> sorted = new ArrayList<>(rs);
        sorted.sort(Comparator.comparingLong(CrawlRequest::time));
        for (int i = 1; i < sorted.size(); i++) {
          assertThat(sorted.get(i).time() - sorted.get(i - 1).time()).as("spacing of %s's requests", host).isGreaterThanOrEqualTo(1_000);
        }
      });
      // Nothing either side could not read.
      assertThat(committed("crawl.deadletters")).isEmpty();
    } finally {
      stop(crawler);
      TestClusters.cancelAndWait(job);
      site.stop(0);
    }
  }

  private static long count(List<StatusEvent> events, String url, CrawlStatus status) {
    return events.stream().filter(e -> e.url().equals(url) && e.status() == status).count();
  }

  private static List<CrawlRequest> requests() {
    return committed("crawl.requests").stream().map(v -> CrawlRequestCodec.parse(v, 0).value()).toList();
  }

  private static List<StatusEvent> statuses() {
    return committed("crawl.status").stream()
        .map(v -> StatusEventCodec.withDefaults().parse(v, System.currentTimeMillis()).value()).toList();
  }

  /** Every committed record of a topic up to its end now: all partitions assigned, read from the start. */
  private static List<String> committed(String topic) {
    Properties p = new Properties();
    p.put("bootstrap.servers", KAFKA.kafka().bootstrapServers());
    p.put("isolation.level", "read_committed");
    p.put("enable.auto.commit", "false");
    List<String> out = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
          .map(i -> new TopicPartition(topic, i.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(100)).forEach(r -> out.add(r.value()));
      }
    }
    return out;
  }

  /** Three linked pages; /a.html and /b.html link back home. */
  private static void serve(HttpExchange x) throws IOException {
    String body = switch (x.getRequestURI().getPath()) {
      case "/robots.txt" -> "User-agent: *\nAllow: /\n";
      case "/" -> "<html><head><title>Home</title></head><body><a href=\"/a.html\">a</a> <a href=\"/b.html\">b</a></body></html>";
      case "/a.html" -> "<html><head><title>A</title></head><body><a href=\"/\">home</a></body></html>";
      case "/b.html" -> "<html><head><title>B</title></head><body><a href=\"/\">home</a></body></html>";
      default -> null;
    };
    byte[] bytes = (body == null ? "not found" : body).getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("Content-Type", x.getRequestURI().getPath().endsWith(".txt") ? "text/plain" : "text/html; charset=utf-8");
    x.sendResponseHeaders(body == null ? 404 : 200, bytes.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(bytes);
    }
  }

  private Path logFile() {
    return dir.resolve("local-crawl.log");
  }

  private String log() throws IOException {
    return Files.exists(logFile()) ? Files.readString(logFile()) : "(none)";
  }

  /** Starts the example topology in a Storm LocalCluster, in a JVM with status-updater's class path. */
  private Process startCrawler() throws IOException {
    Path conf = Files.writeString(dir.resolve("crawler-conf-test.yaml"), String.join("\n",
        "config:",
        "  http.agent.name: \"recrawl-loop-itcase\"",
        "  fetcher.server.delay: 0.1",
        "  recrawl.spout.offset-commit-period-ms: 500",
        "  topology.message.timeout.secs: 120",
        ""));
    String classpath = String.join(java.io.File.pathSeparator,
        CRAWLER.resolve("target/test-classes").toString(),
        CRAWLER.resolve("target/classes").toString(),
        Files.readString(CRAWLER_CLASSPATH).trim());
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("-Xmx1g");
    // The JDK module openings this JVM was given (the build's list), which Storm needs as well.
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-opens") || a.startsWith("--add-exports"))
        .forEach(command::add);
    command.addAll(List.of("-cp", classpath, "io.recrawl.crawler.LocalCrawl", KAFKA.kafka().bootstrapServers(),
        CRAWLER.resolveSibling("config").resolve("crawler-conf-recrawl.yaml").toString(), conf.toString()));
    return new ProcessBuilder(command)
        .directory(CRAWLER.toFile())
        .redirectErrorStream(true)
        .redirectOutput(logFile().toFile())
        .start();
  }

  /** Closes the crawler's input (it then shuts its cluster down), killing it if it does not stop. */
  private static void stop(Process crawler) throws InterruptedException {
    try {
      crawler.getOutputStream().close();
    } catch (IOException ignored) {
      // already gone
    }
    if (!crawler.waitFor(30, TimeUnit.SECONDS)) {
      crawler.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
