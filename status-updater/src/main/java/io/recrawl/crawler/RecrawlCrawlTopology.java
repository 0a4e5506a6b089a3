package io.recrawl.crawler;

import com.digitalpebble.stormcrawler.ConfigurableTopology;
import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.indexing.DummyIndexer;
import com.digitalpebble.stormcrawler.persistence.Status;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.kafka.spout.KafkaSpout;
import org.apache.storm.topology.IRichBolt;
import org.apache.storm.topology.TopologyBuilder;

/**
 * Example crawl topology driven by the recrawl scheduler: crawl requests from Kafka are fetched and
 * parsed, and every status goes back to Kafka.
 *
 * <pre>
 * storm jar &lt;topology jar&gt; io.recrawl.crawler.RecrawlCrawlTopology -conf crawler-conf.yaml
 * </pre>
 */
public class RecrawlCrawlTopology extends ConfigurableTopology {

  public static void main(String[] args) {
    ConfigurableTopology.start(new RecrawlCrawlTopology(), args);
  }

  @Override
  protected int run(String[] args) {
    return submit("recrawl-crawl", conf, builder(conf, new DummyIndexer()));
  }

  /** The topology for a config (crawler-default.yaml plus the crawler's own file). */
  public static StormTopology build(Config conf) {
    // What ConfigurableTopology.submit does, for callers (tests) that submit themselves.
    Config.registerSerialization(conf, Metadata.class);
    Config.registerSerialization(conf, Status.class);
    return builder(conf, new DummyIndexer()).createTopology();
  }

  /**
   * The wiring, with the crawler's own indexer: it must emit a parsed page's FETCHED status on the
   * status stream, as StormCrawler's indexers do ({@code DummyIndexer} does only that).
   */
  public static TopologyBuilder builder(Config conf, IRichBolt indexer) {
    CrawlerSettings settings = CrawlerSettings.fromConf(conf);
    TopologyBuilder b = new TopologyBuilder();
    b.setSpout(
        "spout",
        new KafkaSpout<>(RequestSpouts.spoutConfig(settings)),
        settings.spoutParallelism());
    FetchPath.wire(b, "spout", indexer, new KafkaStatusUpdaterBolt());
    b.setBolt("deadletters", new KafkaDeadLetterBolt())
        .shuffleGrouping("spout", KafkaDeadLetterBolt.STREAM);
    return b;
  }
}
