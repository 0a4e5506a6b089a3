package io.recrawl.crawler;

import com.digitalpebble.stormcrawler.ConfigurableTopology;
import com.digitalpebble.stormcrawler.Constants;
import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.bolt.FetcherBolt;
import com.digitalpebble.stormcrawler.bolt.JSoupParserBolt;
import com.digitalpebble.stormcrawler.bolt.URLPartitionerBolt;
import com.digitalpebble.stormcrawler.indexing.DummyIndexer;
import com.digitalpebble.stormcrawler.persistence.Status;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.kafka.spout.KafkaSpout;
import org.apache.storm.topology.IRichBolt;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

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
    b.setBolt("partitioner", new URLPartitionerBolt()).shuffleGrouping("spout");
    b.setBolt("fetch", new FetcherBolt()).fieldsGrouping("partitioner", new Fields("key"));
    b.setBolt("parse", new JSoupParserBolt()).localOrShuffleGrouping("fetch");
    // Without an indexer a parsed 200 page never reaches the status stream as FETCHED.
    b.setBolt("index", indexer).localOrShuffleGrouping("parse");
    // Grouped by URL, as StormCrawler wires its status updaters: the DISCOVERED cache then works.
    Fields url = new Fields("url");
    b.setBolt("status", new KafkaStatusUpdaterBolt())
        .fieldsGrouping("fetch", Constants.StatusStreamName, url)
        .fieldsGrouping("parse", Constants.StatusStreamName, url)
        .fieldsGrouping("index", Constants.StatusStreamName, url);
    b.setBolt("deadletters", new KafkaDeadLetterBolt())
        .shuffleGrouping("spout", KafkaDeadLetterBolt.STREAM);
    return b;
  }
}
