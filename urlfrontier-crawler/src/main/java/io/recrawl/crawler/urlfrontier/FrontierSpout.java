package io.recrawl.crawler.urlfrontier;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.persistence.AbstractQueryingSpout;
import com.digitalpebble.stormcrawler.util.ConfUtils;
import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes the URLs to fetch from a URL Frontier server with {@code GetURLs}. StormCrawler's querying
 * spout decides when to ask: once its buffer is empty and {@code spout.min.delay.queries} ms after
 * the last ask. Each ask takes up to {@code urlfrontier.max.urls.per.bucket} URLs (10) from each of
 * up to {@code urlfrontier.max.buckets} queues (10), each held back by the server for {@code
 * urlfrontier.delay.requestable} seconds (the topology's message timeout) unless its status comes
 * first. So the crawler's pull is at most buckets × URLs per bucket an ask.
 *
 * <p>A URL acked is taken again at once: {@code spout.ttl.purgatory} defaults to 0 s here, not
 * StormCrawler's 30 s. The purgatory covers a search index that shows a fetched URL as due until
 * its next refresh; a URL Frontier server does not hand out a URL it is waiting for, and a URL it
 * hands out again soon after its fetch is due again, which the purgatory would drop and the server
 * then hold back for the whole {@code urlfrontier.delay.requestable}.
 *
 * <p>The answer streams in on gRPC's thread; the spout's own thread moves it into the buffer, so
 * that StormCrawler's buffer and in-process map are touched by one thread only. A failed tuple is
 * not re-sent: the server hands its URL out again once its delay is over.
 */
public class FrontierSpout extends AbstractQueryingSpout {

  private static final Logger LOG = LoggerFactory.getLogger(FrontierSpout.class);

  static final String MAX_URLS_PER_BUCKET = "urlfrontier.max.urls.per.bucket";
  static final String MAX_BUCKETS = "urlfrontier.max.buckets";
  static final String DELAY_REQUESTABLE = "urlfrontier.delay.requestable";
  static final String PURGATORY = "spout.ttl.purgatory";

  /** An answer's URL, or (null) the end of an answer. */
  private record Arrival(URLInfo info) {}

  private final ConcurrentLinkedQueue<Arrival> arrivals = new ConcurrentLinkedQueue<>();
  private transient ManagedChannel channel;
  private transient URLFrontierGrpc.URLFrontierStub frontier;
  private GetParams ask;

  @Override
  public void open(
      Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
    conf = withDefaults(conf);
    super.open(conf, context, collector);
    int delay =
        ConfUtils.getInt(
            conf,
            DELAY_REQUESTABLE,
            ConfUtils.getInt(conf, Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 30));
    ask =
        GetParams.newBuilder()
            .setMaxUrlsPerQueue(ConfUtils.getInt(conf, MAX_URLS_PER_BUCKET, 10))
            .setMaxQueues(ConfUtils.getInt(conf, MAX_BUCKETS, 10))
            .setDelayRequestable(delay)
            .build();
    channel = FrontierAddress.channel(conf);
    frontier = URLFrontierGrpc.newStub(channel);
    LOG.info("taking URLs from URL Frontier at {}: {}", FrontierAddress.of(conf), ask);
  }

  /** The topology's configuration with this spout's defaults where it sets none. */
  static Map<String, Object> withDefaults(Map<String, Object> conf) {
    Map<String, Object> c = new HashMap<>(conf);
    c.putIfAbsent(PURGATORY, 0);
    return c;
  }

  @Override
  protected void populateBuffer() {
    isInQuery.set(true);
    frontier.getURLs(
        ask,
        new StreamObserver<>() {
          @Override
          public void onNext(URLInfo info) {
            arrivals.add(new Arrival(info));
          }

          @Override
          public void onError(Throwable t) {
            LOG.warn("GetURLs failed: {}", t.toString());
            arrivals.add(new Arrival(null));
          }

          @Override
          public void onCompleted() {
            arrivals.add(new Arrival(null));
          }
        });
  }

  @Override
  public void nextTuple() {
    for (Arrival a; (a = arrivals.poll()) != null; ) {
      if (a.info() == null) {
        markQueryReceivedNow();
      } else if (!beingProcessed.containsKey(a.info().getUrl())) {
        buffer.add(a.info().getUrl(), metadata(a.info()));
      }
    }
    super.nextTuple();
  }

  static Metadata metadata(URLInfo info) {
    Metadata m = new Metadata();
    info.getMetadataMap()
        .forEach((k, v) -> m.setValues(k, v.getValuesList().toArray(String[]::new)));
    return m;
  }

  @Override
  public void close() {
    if (channel != null) {
      channel.shutdown();
      try {
        channel.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
