package io.recrawl.crawler.urlfrontier;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.persistence.AbstractStatusUpdaterBolt;
import com.digitalpebble.stormcrawler.persistence.Status;
import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import io.recrawl.crawler.StatusEvents;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayDeque;
import java.util.Date;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts each status to a URL Frontier server with {@code PutURLs}: a discovery as a discovered item,
 * anything else as a known item with the metadata StormCrawler persists ({@code metadata.persist})
 * and its refetch date from StormCrawler's {@code scheduler.class} ({@code refetchable_from_date},
 * seconds; 0 when the scheduler says never). Whether the server keeps that date (URL Frontier's
 * own) or decides for itself (recrawl's {@code value} mode) is the server's.
 *
 * <p>One stream is kept open; a tuple is acked when the server acks its URL, which gRPC reports on
 * its own thread: the acks wait in a queue for the bolt's thread (the next tuple, or a tick a
 * second), since Storm's collector is the executor's. If the stream fails, the tuples waiting for
 * it are failed and the next status opens a new one.
 */
public class FrontierStatusUpdater extends AbstractStatusUpdaterBolt {

  private static final Logger LOG = LoggerFactory.getLogger(FrontierStatusUpdater.class);

  /** A URL the server acked (ok), or a stream that failed (null URL). */
  private record Answer(String url, boolean ok) {}

  private final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
  private final Map<String, ArrayDeque<Tuple>> waiting = new HashMap<>();
  private transient ManagedChannel channel;
  private transient URLFrontierGrpc.URLFrontierStub frontier;
  private transient StreamObserver<URLItem> puts;
  private transient StatusEvents evidence;

  @Override
  public void prepare(
      Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
    super.prepare(conf, context, collector);
    channel = FrontierAddress.channel(conf);
    frontier = URLFrontierGrpc.newStub(channel);
    evidence = StatusEvents.fromConf(conf);
    LOG.info("putting statuses to URL Frontier at {}", FrontierAddress.of(conf));
  }

  @Override
  public Map<String, Object> getComponentConfiguration() {
    return Map.of(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
  }

  @Override
  public void execute(Tuple tuple) {
    settle();
    if (!TupleUtils.isTick(tuple)) {
      super.execute(tuple);
    }
  }

  @Override
  protected void store(
      String url, Status status, Metadata metadata, Optional<Date> nextFetch, Tuple t) {
    URLItem item = item(url, status, withEvidence(url, status, metadata, t), nextFetch);
    if (puts == null) {
      puts = frontier.putURLs(new Acks());
    }
    waiting.computeIfAbsent(url, u -> new ArrayDeque<>()).add(t);
    puts.onNext(item);
  }

  /**
   * The persisted metadata and, from the tuple's own (unfiltered), the fetch's evidence as
   * recrawl's Kafka status updater sends it: the validators and the Date under the job's names,
   * Retry-After, robots.txt's Crawl-delay and the Last-Modified to ask If-Modified-Since with next
   * time. A server that decides refetch dates learns change and politeness from them; URL
   * Frontier's own keeps them with the URL, and the next fetch of it asks If-Modified-Since.
   */
  private Metadata withEvidence(String url, Status status, Metadata persisted, Tuple t) {
    Metadata raw = (Metadata) t.getValueByField("metadata");
    StatusEvent e =
        evidence.toEvent(url, status.name(), raw.asMap(), "", System.currentTimeMillis());
    Metadata out = new Metadata();
    out.putAll(persisted);
    e.metadata().forEach((k, v) -> out.setValues(k, v.toArray(String[]::new)));
    return out;
  }

  /** The item for a status: what StormCrawler's URL Frontier module sends. */
  static URLItem item(String url, Status status, Metadata metadata, Optional<Date> nextFetch) {
    URLInfo.Builder info = URLInfo.newBuilder().setUrl(url);
    for (String key : metadata.keySet()) {
      info.putMetadata(
          key, StringList.newBuilder().addAllValues(List.of(metadata.getValues(key))).build());
    }
    URLItem.Builder b = URLItem.newBuilder().setID(url);
    if (status == Status.DISCOVERED) {
      return b.setDiscovered(DiscoveredURLItem.newBuilder().setInfo(info)).build();
    }
    long refetch = nextFetch.map(d -> TimeUnit.MILLISECONDS.toSeconds(d.getTime())).orElse(0L);
    return b.setKnown(KnownURLItem.newBuilder().setInfo(info).setRefetchableFromDate(refetch))
        .build();
  }

  /** Acks (or fails) the tuples whose answers came, on the bolt's thread. */
  private void settle() {
    for (Answer a; (a = answers.poll()) != null; ) {
      if (a.url() == null) {
        failAll();
        continue;
      }
      ArrayDeque<Tuple> ts = waiting.get(a.url());
      Tuple t = ts == null ? null : ts.poll();
      if (t == null) {
        continue;
      }
      if (ts.isEmpty()) {
        waiting.remove(a.url());
      }
      if (a.ok()) {
        ack(t, a.url());
      } else {
        _collector.fail(t);
      }
    }
  }

  private void failAll() {
    puts = null;
    for (Iterator<ArrayDeque<Tuple>> it = waiting.values().iterator(); it.hasNext(); ) {
      it.next().forEach(_collector::fail);
      it.remove();
    }
  }

  /** The server's answers, on gRPC's thread. */
  private final class Acks implements StreamObserver<AckMessage> {
    @Override
    public void onNext(AckMessage a) {
      answers.add(new Answer(a.getID(), a.getStatus() != AckMessage.Status.FAIL));
    }

    @Override
    public void onError(Throwable t) {
      LOG.warn("PutURLs failed: {}; its statuses are failed", t.toString());
      answers.add(new Answer(null, false));
    }

    @Override
    public void onCompleted() {
      answers.add(new Answer(null, false));
    }
  }

  @Override
  public void cleanup() {
    if (puts != null) {
      puts.onCompleted();
    }
    if (channel != null) {
      channel.shutdown();
    }
  }
}
