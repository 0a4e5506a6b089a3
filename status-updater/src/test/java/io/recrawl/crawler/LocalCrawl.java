package io.recrawl.crawler;

import com.digitalpebble.stormcrawler.util.ConfUtils;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.utils.Utils;

/**
 * Runs {@link RecrawlCrawlTopology} in a Storm LocalCluster until its standard input closes: the
 * crawler half of the Flink job's end-to-end test ({@code CrawlLoopITCase} in flink-jobs), which
 * runs it in a JVM of its own because Storm's Kafka client and Flink's cannot share a class path.
 *
 * <p>Arguments: the Kafka bootstrap servers, then StormCrawler configuration files, applied in
 * order on top of {@code crawler-default.yaml} (like {@code -conf}). Prints {@value #READY} once
 * submitted.
 */
public final class LocalCrawl {

  static final String READY = "recrawl-local-crawl: submitted";

  private LocalCrawl() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      throw new IllegalArgumentException(
          "usage: LocalCrawl BOOTSTRAP_SERVERS CRAWLER_CONF_YAML...");
    }
    Config conf = new Config();
    conf.putAll(
        ConfUtils.extractConfigElement(Utils.findAndReadConfigFile("crawler-default.yaml", false)));
    for (int i = 1; i < args.length; i++) {
      ConfUtils.loadConf(args[i], conf);
    }
    conf.put(CrawlerSettings.BOOTSTRAP_SERVERS, args[0]);
    try (LocalCluster cluster = new LocalCluster()) {
      cluster.submitTopology("recrawl-local-crawl", conf, RecrawlCrawlTopology.build(conf));
      System.out.println(READY);
      System.out.flush();
      // The parent ends the crawl by closing this process's input (or by killing it).
      while (System.in.read() >= 0) {
        // discard
      }
    }
    System.out.println("recrawl-local-crawl: stopped");
    System.exit(0); // Storm's local daemons leave non-daemon threads behind
  }
}
