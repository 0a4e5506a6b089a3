package io.recrawl.crawler;

import com.digitalpebble.stormcrawler.util.ConfUtils;
import java.io.IOException;
import java.util.List;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.utils.Utils;

/**
 * Runs a crawl topology in a Storm LocalCluster in this JVM, until a signal or until its standard
 * input closes: StormCrawler 2.4's {@code ConfigurableTopology} has no local mode. Needs
 * storm-server on the class path, which a Storm cluster does not need.
 *
 * <p>As a program it runs {@link RecrawlCrawlTopology}: the crawler half of the Flink job's
 * end-to-end tests, which run it in a JVM of their own because Storm's Kafka client and Flink's
 * cannot share a class path. Arguments: the Kafka bootstrap servers, then StormCrawler
 * configuration files, applied in order on top of {@code crawler-default.yaml} (like {@code
 * -conf}). Prints {@value #READY} once submitted.
 */
public final class LocalCrawl {

  public static final String READY = "recrawl-local-crawl: submitted";

  private LocalCrawl() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      throw new IllegalArgumentException(
          "usage: LocalCrawl BOOTSTRAP_SERVERS CRAWLER_CONF_YAML...");
    }
    Config conf = config(List.of(args).subList(1, args.length));
    conf.put(CrawlerSettings.BOOTSTRAP_SERVERS, args[0]);
    runUntilStopped("recrawl-local-crawl", conf, RecrawlCrawlTopology.build(conf));
    System.exit(0); // Storm's local daemons leave non-daemon threads behind
  }

  /** {@code crawler-default.yaml}, then each file in order, as {@code -conf} applies them. */
  public static Config config(List<String> confFiles) throws IOException {
    Config conf = new Config();
    conf.putAll(
        ConfUtils.extractConfigElement(Utils.findAndReadConfigFile("crawler-default.yaml", false)));
    for (String file : confFiles) {
      ConfUtils.loadConf(file, conf);
    }
    return conf;
  }

  /**
   * Submits the topology to a new LocalCluster, prints {@value #READY}, and runs until the JVM is
   * stopped (Ctrl-C, SIGTERM), whatever its standard input: a crawl started with {@code nohup} or
   * {@code &} has none. Says why it stops when it stops; what was in flight is crawled again once
   * its lease in the job runs out.
   */
  public static void runUntilSignalled(String name, Config conf, StormTopology topology)
      throws Exception {
    LocalCluster cluster = new LocalCluster();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () ->
                    System.out.println(
                        name
                            + ": stopped: the JVM was asked to stop (Ctrl-C or SIGTERM); what was"
                            + " in flight is requested again when its lease in the job runs out")));
    cluster.submitTopology(name, conf, topology);
    System.out.println(READY);
    System.out.flush();
    Thread.currentThread().join(); // until the JVM is stopped
  }

  /**
   * Submits the topology to a new LocalCluster, prints {@value #READY}, and returns when standard
   * input closes, with the cluster shut down: for a parent process (the tests) that ends the crawl
   * by closing this process's input. Ctrl-C ends the JVM, and the crawl with it.
   */
  public static void runUntilStopped(String name, Config conf, StormTopology topology)
      throws Exception {
    try (LocalCluster cluster = new LocalCluster()) {
      cluster.submitTopology(name, conf, topology);
      System.out.println(READY);
      System.out.flush();
      while (System.in.read() >= 0) {
        // discard: the caller ends the crawl by closing this process's input
      }
    }
    System.out.println("recrawl-local-crawl: stopped");
  }
}
