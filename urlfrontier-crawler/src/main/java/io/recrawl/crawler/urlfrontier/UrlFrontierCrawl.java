package io.recrawl.crawler.urlfrontier;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.indexing.DummyIndexer;
import com.digitalpebble.stormcrawler.persistence.Status;
import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import io.recrawl.crawler.FetchPath;
import io.recrawl.crawler.LocalCrawl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;

/**
 * A StormCrawler 2.4 crawl whose frontier is a URL Frontier server: {@link FrontierSpout}, the
 * fetch and parse path, {@link FrontierStatusUpdater}. Outlinks go to the server as discoveries
 * (with {@code parser.emitOutlinks}).
 *
 * <p>Arguments: a seeds file ({@code URL\tkey=value...} lines, put as discovered items before the
 * crawl starts; {@code -} for none), then StormCrawler configuration files applied in order on top
 * of {@code crawler-default.yaml}. Runs in a LocalCluster until standard input closes, as {@link
 * LocalCrawl}.
 */
public final class UrlFrontierCrawl {

  public static final String NAME = "urlfrontier-crawl";

  private UrlFrontierCrawl() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      throw new IllegalArgumentException(
          "usage: UrlFrontierCrawl SEEDS_FILE|- CRAWLER_CONF_YAML...");
    }
    Config conf = LocalCrawl.config(List.of(args).subList(1, args.length));
    if (!args[0].equals("-")) {
      int n = putSeeds(conf, Files.readAllLines(Path.of(args[0])));
      System.out.println(NAME + ": " + n + " seeds put to " + FrontierAddress.of(conf));
    }
    LocalCrawl.runUntilStopped(NAME, conf, build(conf));
    System.exit(0); // Storm's local daemons leave non-daemon threads behind
  }

  /** The topology. */
  public static StormTopology build(Config conf) {
    Config.registerSerialization(conf, Metadata.class);
    Config.registerSerialization(conf, Status.class);
    TopologyBuilder b = new TopologyBuilder();
    b.setSpout("spout", new FrontierSpout());
    FetchPath.wire(b, "spout", new DummyIndexer(), new FrontierStatusUpdater());
    return b.createTopology();
  }

  /** Puts the seeds as discovered items; returns how many the server acked. */
  static int putSeeds(Config conf, List<String> lines) throws InterruptedException {
    ManagedChannel channel = FrontierAddress.channel(conf);
    try {
      AtomicInteger acked = new AtomicInteger();
      CountDownLatch done = new CountDownLatch(1);
      StreamObserver<URLItem> in =
          URLFrontierGrpc.newStub(channel)
              .putURLs(
                  new StreamObserver<>() {
                    @Override
                    public void onNext(AckMessage a) {
                      if (a.getStatus() != AckMessage.Status.FAIL) {
                        acked.incrementAndGet();
                      }
                    }

                    @Override
                    public void onError(Throwable t) {
                      done.countDown();
                    }

                    @Override
                    public void onCompleted() {
                      done.countDown();
                    }
                  });
      for (String line : lines) {
        if (!line.isBlank()) {
          String[] f = line.split("\t");
          Metadata m = new Metadata();
          for (int i = 1; i < f.length; i++) {
            int eq = f[i].indexOf('=');
            if (eq > 0) {
              m.addValue(f[i].substring(0, eq), f[i].substring(eq + 1));
            }
          }
          in.onNext(
              FrontierStatusUpdater.item(f[0].strip(), Status.DISCOVERED, m, Optional.empty()));
        }
      }
      in.onCompleted();
      if (!done.await(5, TimeUnit.MINUTES)) {
        throw new IllegalStateException("the seeds' PutURLs did not complete");
      }
      return acked.get();
    } finally {
      channel.shutdownNow();
    }
  }
}
