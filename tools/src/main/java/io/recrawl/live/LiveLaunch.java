package io.recrawl.live;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the programs of the live benchmark come from: this checkout's builds. The job runs on
 * flink-jobs' class path, each crawler on status-updater's (Storm's Kafka client and Flink's cannot
 * share one) or, through URL Frontier, on urlfrontier-crawler's, the trial broker on kafka-trial's,
 * as {@code bin/recrawl kafka} runs it, and {@code bin/recrawl frontier} on frontier-service's.
 */
record LiveLaunch(Path home) {

  String jobClasspath() throws IOException {
    return classpath(home.resolve("flink-jobs"), "cli-classpath.txt");
  }

  String crawlerClasspath() throws IOException {
    return classpath(home.resolve("status-updater"), "local-crawl-classpath.txt");
  }

  String urlFrontierCrawlerClasspath() throws IOException {
    return classpath(home.resolve("urlfrontier-crawler"), "crawl-classpath.txt");
  }

  String frontierClasspath() throws IOException {
    return classpath(home.resolve("frontier-service"), "frontier-classpath.txt");
  }

  String kafkaClasspath() throws IOException {
    return classpath(home.resolve("kafka-trial"), "classpath.txt");
  }

  Path log4jConfig() {
    return home.resolve("config/log4j2-cli.properties");
  }

  Path recrawlCrawlerConfig() {
    return home.resolve("config/crawler-conf-recrawl.yaml");
  }

  private static String classpath(Path module, String file) throws IOException {
    Path list = module.resolve("target").resolve(file);
    if (!Files.exists(list)) {
      throw new IllegalStateException(
          list + " is missing: build first (bin/recrawl builds it, or mvn -B -DskipTests package)");
    }
    return module.resolve("target/classes") + File.pathSeparator + Files.readString(list).trim();
  }
}
