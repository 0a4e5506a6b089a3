package io.recrawl.example;

import com.digitalpebble.stormcrawler.ConfigurableTopology;
import com.digitalpebble.stormcrawler.indexing.StdOutIndexer;
import io.recrawl.crawler.LocalCrawl;
import io.recrawl.crawler.RecrawlCrawlTopology;
import java.util.Arrays;
import java.util.List;
import org.apache.storm.Config;
import org.apache.storm.topology.TopologyBuilder;

/**
 * A StormCrawler crawler whose frontier is recrawl's Flink job: it fetches what the job requests on
 * Kafka and reports every status back. The wiring is recrawl's ({@link RecrawlCrawlTopology}); this
 * crawler chooses its indexer, here one that prints each page's URL and title.
 *
 * <pre>
 * on a Storm cluster:  storm jar target/example-crawler-0.1.0-SNAPSHOT-topology.jar \
 *                        io.recrawl.example.ExampleCrawler -conf crawler-conf.yaml
 * in this JVM:         ./crawl-local crawler-conf.yaml   (a Storm LocalCluster until Ctrl-C or SIGTERM)
 * </pre>
 */
public class ExampleCrawler extends ConfigurableTopology {

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--local")) {
      List<String> confFiles = Arrays.asList(args).subList(1, args.length);
      Config conf = LocalCrawl.config(confFiles);
      LocalCrawl.runUntilSignalled("example-crawler", conf, topology(conf).createTopology());
    }
    ConfigurableTopology.start(new ExampleCrawler(), args);
  }

  @Override
  protected int run(String[] args) {
    return submit("example-crawler", conf, topology(conf));
  }

  /** recrawl's wiring with this crawler's indexer; put your own indexer here. */
  static TopologyBuilder topology(Config conf) {
    Config.registerSerialization(conf, com.digitalpebble.stormcrawler.Metadata.class);
    Config.registerSerialization(conf, com.digitalpebble.stormcrawler.persistence.Status.class);
    return RecrawlCrawlTopology.builder(conf, new StdOutIndexer());
  }
}
