package io.recrawl.crawler;

import com.digitalpebble.stormcrawler.Constants;
import com.digitalpebble.stormcrawler.bolt.FetcherBolt;
import com.digitalpebble.stormcrawler.bolt.JSoupParserBolt;
import com.digitalpebble.stormcrawler.bolt.URLPartitionerBolt;
import org.apache.storm.topology.BoltDeclarer;
import org.apache.storm.topology.IRichBolt;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * StormCrawler's fetch and parse path, between a topology's spout and its status updater, as every
 * crawl here wires it: the URLs partitioned by host to the fetcher, parsed, indexed, and every
 * status to the status updater, grouped by URL (StormCrawler's DISCOVERED cache then works).
 */
public final class FetchPath {

  private FetchPath() {}

  /**
   * Wires the path from the component {@code spout} to {@code status}.
   *
   * @param indexer must emit a parsed page's FETCHED status on the status stream, as StormCrawler's
   *     indexers do ({@code DummyIndexer} does only that): without one a parsed 200 page never
   *     reaches the status stream
   */
  public static BoltDeclarer wire(
      TopologyBuilder b, String spout, IRichBolt indexer, IRichBolt status) {
    b.setBolt("partitioner", new URLPartitionerBolt()).shuffleGrouping(spout);
    b.setBolt("fetch", new FetcherBolt()).fieldsGrouping("partitioner", new Fields("key"));
    b.setBolt("parse", new JSoupParserBolt()).localOrShuffleGrouping("fetch");
    b.setBolt("index", indexer).localOrShuffleGrouping("parse");
    Fields url = new Fields("url");
    return b.setBolt("status", status)
        .fieldsGrouping("fetch", Constants.StatusStreamName, url)
        .fieldsGrouping("parse", Constants.StatusStreamName, url)
        .fieldsGrouping("index", Constants.StatusStreamName, url);
  }
}
