package io.recrawl.live;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts the systems of the live benchmark, each in JVMs of its own: recrawl (the job and its
 * crawler, on a Kafka broker), StormCrawler's memory frontier with each of three schedulers, and
 * through URL Frontier's API: {@code bin/recrawl frontier} or URL Frontier's own server, each with
 * the StormCrawler 2.4 topology of urlfrontier-crawler.
 */
final class LiveSystems {

  static final String RECRAWL = "recrawl";
  static final String DEFAULT = "default";
  static final String ADAPTIVE = "adaptive";
  static final String CRAWL_VALUE_SCHEDULER = "crawl-value-scheduler";

  /** The trial broker's JVM, which recrawl's systems share. */
  static final String KAFKA = "kafka";

  static final String RECRAWL_FRONTIER = "recrawl-frontier";
  static final String URLFRONTIER_DEFAULT = "urlfrontier-default";
  static final String URLFRONTIER_ADAPTIVE = "urlfrontier-adaptive";

  /** The systems a run has unless {@code --systems} says otherwise. */
  static final List<String> ALL = List.of(RECRAWL, DEFAULT, ADAPTIVE, CRAWL_VALUE_SCHEDULER);

  /** The systems through URL Frontier's door. */
  static final List<String> DOOR =
      List.of(RECRAWL_FRONTIER, URLFRONTIER_DEFAULT, URLFRONTIER_ADAPTIVE);

  /** Every system {@code --systems} takes. */
  static final List<String> KNOWN =
      List.of(
          RECRAWL,
          DEFAULT,
          ADAPTIVE,
          CRAWL_VALUE_SCHEDULER,
          RECRAWL_FRONTIER,
          URLFRONTIER_DEFAULT,
          URLFRONTIER_ADAPTIVE);

  static final String FRONTIER_READY = "serving URL Frontier on port";

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
            io.recrawl.flink.launch.JobMain.class.getName(),
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

  /**
   * A system through URL Frontier's door: the server ({@code bin/recrawl frontier}, or URL
   * Frontier's own from {@code urlFrontierJar}) and the StormCrawler topology that speaks to it,
   * which puts the seeds first.
   */
  List<ChildJvm> throughTheDoor(
      String system,
      List<String> seeds,
      LiveTuning t,
      double budget,
      int maxPending,
      int threads,
      long runSeconds,
      Path urlFrontierJar)
      throws Exception {
    Path dir = Files.createDirectories(out.resolve(system));
    Path seedFile = Files.write(dir.resolve("seeds.txt"), seeds);
    int port = freePort();
    List<ChildJvm> started = new ArrayList<>();
    String scheduler;
    if (system.equals(RECRAWL_FRONTIER)) {
      int kafkaPort = freePortPair();
      ChildJvm f =
          ChildJvm.start(
              dir,
              system + "-service",
              launch.frontierClasspath(),
              List.of("-Xmx1g", "-Dlog4j2.configurationFile=" + launch.log4jConfig()),
              "io.recrawl.frontier.FrontierCommand",
              LiveConfigs.frontier(dir.resolve("frontier"), port, kafkaPort, t));
      started.add(f);
      f.awaitLog(FRONTIER_READY, 180_000);
      scheduler = "";
    } else {
      if (urlFrontierJar == null) {
        throw new IllegalArgumentException(system + " needs --urlfrontier-jar");
      }
      ChildJvm f =
          ChildJvm.start(
              dir,
              system + "-service",
              urlFrontierJar.toString(),
              List.of("-Xmx1g"),
              "crawlercommons.urlfrontier.service.URLFrontierServer",
              List.of("-p", "" + port, "rocksdb.path=" + dir.resolve("rocksdb")));
      started.add(f);
      awaitPort(f, port, 120_000);
      scheduler =
          system.equals(URLFRONTIER_DEFAULT)
              ? LiveConfigs.defaultScheduler(t)
              : LiveConfigs.adaptiveScheduler(t);
    }
    Path common =
        Files.writeString(
            dir.resolve("crawler-common.yaml"), LiveConfigs.crawlerCommon(runSeconds));
    Path own =
        Files.writeString(
            dir.resolve("crawler.yaml"),
            LiveConfigs.urlFrontierCrawler(
                "127.0.0.1:" + port, budget, maxPending, threads, scheduler));
    started.add(
        ChildJvm.start(
            dir,
            system + "-crawler",
            launch.urlFrontierCrawlerClasspath(),
            List.of("-Xmx768m", "-Djdk.net.hosts.file=" + hostsFile),
            "io.recrawl.crawler.urlfrontier.UrlFrontierCrawl",
            List.of(seedFile.toString(), common.toString(), own.toString())));
    return started;
  }

  private static void awaitPort(ChildJvm c, int port, long timeoutMs) throws Exception {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (true) {
      try (Socket s = new Socket("127.0.0.1", port)) {
        return;
      } catch (IOException notYet) {
        if (!c.isAlive() || System.currentTimeMillis() > deadline) {
          throw new IllegalStateException(c.name() + " does not serve; see " + c.logFile());
        }
        Thread.sleep(200);
      }
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** A free port whose next is free too (the trial broker's controller takes it). */
  private static int freePortPair() throws IOException {
    for (int i = 0; i < 100; i++) {
      int p = freePort();
      try (ServerSocket next = new ServerSocket(p + 1)) {
        return p;
      } catch (IOException taken) {
        // try another
      }
    }
    throw new IOException("no two free ports in a row");
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
