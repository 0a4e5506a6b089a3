package io.recrawl.crawler;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.indexing.DummyIndexer;
import com.digitalpebble.stormcrawler.persistence.MemoryStatusUpdater;
import com.digitalpebble.stormcrawler.persistence.Status;
import com.digitalpebble.stormcrawler.spout.MemorySpout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;

/**
 * StormCrawler 2.4's own in-memory frontier, with no recrawl job: {@code MemorySpout} and {@code
 * MemoryStatusUpdater} around the fetch and parse path of {@link RecrawlCrawlTopology}. The
 * scheduler is StormCrawler's {@code scheduler.class} (DefaultScheduler, AdaptiveScheduler, or
 * recrawl's stand-alone {@code CrawlValueScheduler}). The live benchmark runs it as a baseline.
 *
 * <p>Arguments: a seeds file ({@code URL\tkey=value...} lines), then StormCrawler configuration
 * files applied in order on top of {@code crawler-default.yaml}. MemorySpout's queue is static: one
 * frontier per JVM. Runs in a LocalCluster until standard input closes, as {@link LocalCrawl}.
 */
public final class MemoryFrontierCrawl {

  public static final String NAME = "memory-frontier-crawl";

  private MemoryFrontierCrawl() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      throw new IllegalArgumentException(
          "usage: MemoryFrontierCrawl SEEDS_FILE CRAWLER_CONF_YAML...");
    }
    List<String> seeds =
        Files.readAllLines(Path.of(args[0])).stream().filter(l -> !l.isBlank()).toList();
    Config conf = LocalCrawl.config(List.of(args).subList(1, args.length));
    LocalCrawl.runUntilStopped(NAME, conf, build(conf, seeds));
    System.exit(0); // Storm's local daemons leave non-daemon threads behind
  }

  /** The topology: the seeds in the spout's queue, then the fetch, parse and status path. */
  public static StormTopology build(Config conf, List<String> seeds) {
    Config.registerSerialization(conf, Metadata.class);
    Config.registerSerialization(conf, Status.class);
    TopologyBuilder b = new TopologyBuilder();
    b.setSpout("spout", new MemorySpout(seeds.toArray(String[]::new)));
    FetchPath.wire(b, "spout", new DummyIndexer(), new MemoryStatusUpdater());
    return b.createTopology();
  }
}
