package io.recrawl.live;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts the systems of the live benchmark, each in JVMs of its own: recrawl (the job and its
 * crawler, on a Kafka broker) and StormCrawler's memory frontier with each of three schedulers.
 */
final class LiveSystems {

  static final String RECRAWL = "recrawl";
  static final String DEFAULT = "default";
  static final String ADAPTIVE = "adaptive";
  static final String CRAWL_VALUE_SCHEDULER = "crawl-value-scheduler";

  /** The trial broker's JVM, which recrawl's systems share. */
  static final String KAFKA = "kafka";

  static final List<String> ALL = List.of(RECRAWL, DEFAULT, ADAPTIVE, CRAWL_VALUE_SCHEDULER);

  static final String LOCAL_CRAWL_READY = "recrawl-local-crawl: submitted";
  static final String JOB_READY = "running; Ctrl-C stops it";
  static final String KAFKA_READY = "Ctrl-C stops it";

  private final LiveLaunch launch;
  private final Path out;
  private final Path hostsFile;

  LiveSystems(LiveLaunch launch, Path out, Path hostsFile) {
    this.launch = launch;
    this.out = out;
    this.hostsFile = hostsFile;
  }

  /** The trial broker, as {@code bin/recrawl kafka} starts it; returns once it serves. */
  ChildJvm kafka(int port, int controllerPort) throws Exception {
    ChildJvm k =
        ChildJvm.start(
            out,
            KAFKA,
            launch.kafkaClasspath(),
            List.of("-Xmx512m"),
            "io.recrawl.kafka.KafkaCommand",
            List.of(
                "--port",
                "" + port,
                "--controller-port",
                "" + controllerPort,
                "--dir",
                out.resolve("kafka").toString()));
    k.awaitLog(KAFKA_READY, 120_000);
    return k;
  }

  /** The job ({@code bin/recrawl run --config}) and its crawler (LocalCrawl). */
  List<ChildJvm> recrawl(String bootstrap, List<String> seeds, LiveTuning t, long runSeconds)
      throws Exception {
    Path dir = Files.createDirectories(out.resolve(RECRAWL));
    Path seedFile = Files.write(dir.resolve("seeds.txt"), seeds);
    Path jobConf =
        Files.writeString(
            dir.resolve("job.yaml"),
            LiveConfigs.job(bootstrap, seedFile.toString(), dir.resolve("work").toString(), t));
    List<ChildJvm> started = new ArrayList<>();
    started.add(
        ChildJvm.start(
            dir,
            RECRAWL + "-job",
            launch.jobClasspath(),
            List.of("-Xmx1g", "-Dlog4j2.configurationFile=" + launch.log4jConfig()),
            "io.recrawl.flink.cli.RecrawlCli",
            List.of("run", "--config", jobConf.toString())));
    Path common =
        Files.writeString(
            dir.resolve("crawler-common.yaml"), LiveConfigs.crawlerCommon(runSeconds));
    Path own =
        Files.writeString(dir.resolve("crawler.yaml"), LiveConfigs.recrawlCrawler(bootstrap));
    started.add(
        crawler(
            dir,
            RECRAWL + "-crawler",
            "io.recrawl.crawler.LocalCrawl",
            List.of(
                bootstrap,
                launch.recrawlCrawlerConfig().toString(),
                common.toString(),
                own.toString())));
    return started;
  }

  /** StormCrawler's memory frontier with the system's scheduler. */
  ChildJvm memoryFrontier(String system, List<String> seeds, LiveTuning t, long runSeconds)
      throws Exception {
    Path dir = Files.createDirectories(out.resolve(system));
    Path seedFile = Files.write(dir.resolve("seeds.txt"), seeds);
    Path common =
        Files.writeString(
            dir.resolve("crawler-common.yaml"), LiveConfigs.crawlerCommon(runSeconds));
    Path own =
        Files.writeString(
            dir.resolve("crawler.yaml"), LiveConfigs.memoryFrontier(system, t, seeds.size()));
    return crawler(
        dir,
        system + "-crawler",
        "io.recrawl.crawler.MemoryFrontierCrawl",
        List.of(seedFile.toString(), common.toString(), own.toString()));
  }

  private ChildJvm crawler(Path dir, String name, String main, List<String> args)
      throws IOException {
    return ChildJvm.start(
        dir,
        name,
        launch.crawlerClasspath(),
        List.of("-Xmx768m", "-Djdk.net.hosts.file=" + hostsFile),
        main,
        args);
  }
}
