package io.recrawl.flink.testutil;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * StormCrawler's example topology ({@code status-updater}'s {@code RecrawlCrawlTopology}, fetcher
 * and parser included) in a Storm LocalCluster, in a JVM of its own: Storm's kafka-clients 3.9 and
 * Flink's 4.2 cannot share a class path. status-updater's build writes the class path it runs with.
 */
public final class LocalCrawler implements AutoCloseable {

  private static final Path MODULE = Path.of("..", "status-updater").toAbsolutePath().normalize();
  private static final Path CLASSPATH = MODULE.resolve("target/local-crawl-classpath.txt");

  private final JvmProcess process;

  private LocalCrawler(JvmProcess process) {
    this.process = process;
  }

  /**
   * Starts a crawler that reads requests from and writes statuses to the broker at {@code
   * bootstrap} (the default topics), configured like a deployment: {@code
   * config/crawler-conf-recrawl.yaml}, then test settings (a fast fetcher, offsets committed every
   * 500 ms). Its output goes to {@code dir/name.log}.
   */
  public static LocalCrawler start(String bootstrap, Path dir, String name) throws IOException {
    assertThat(CLASSPATH)
        .as("status-updater is built before flink-jobs (mvn verify from the root)")
        .exists();
    Path conf =
        Files.writeString(
            dir.resolve(name + "-conf.yaml"),
            String.join(
                "\n",
                "config:",
                "  http.agent.name: \"recrawl-itcase\"",
                "  fetcher.server.delay: 0.1",
                "  recrawl.spout.offset-commit-period-ms: 500",
                "  topology.message.timeout.secs: 120",
                ""));
    String classpath =
        String.join(
            File.pathSeparator,
            MODULE.resolve("target/test-classes").toString(),
            MODULE.resolve("target/classes").toString(),
            Files.readString(CLASSPATH).trim());
    return new LocalCrawler(
        JvmProcess.start(
            dir,
            name,
            classpath,
            List.of(),
            "io.recrawl.crawler.LocalCrawl",
            bootstrap,
            MODULE.resolveSibling("config").resolve("crawler-conf-recrawl.yaml").toString(),
            conf.toString()));
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** What the crawler JVM printed so far. */
  public String log() throws IOException {
    return process.log();
  }

  /** Kills the crawler JVM without warning, as a crash would: no shutdown, no offsets committed. */
  public void kill() throws InterruptedException {
    process.kill();
  }

  /**
   * Closes the crawler's input (it then shuts its cluster down), killing it if it does not stop.
   */
  @Override
  public void close() throws Exception {
    process.close();
  }
}
