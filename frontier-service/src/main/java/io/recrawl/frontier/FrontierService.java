package io.recrawl.frontier;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.Active;
import crawlercommons.urlfrontier.Urlfrontier.BlockQueueParams;
import crawlercommons.urlfrontier.Urlfrontier.Boolean;
import crawlercommons.urlfrontier.Urlfrontier.CountUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.CrawlLimitParams;
import crawlercommons.urlfrontier.Urlfrontier.DeleteCrawlMessage;
import crawlercommons.urlfrontier.Urlfrontier.Empty;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.ListUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.Local;
import crawlercommons.urlfrontier.Urlfrontier.LogLevelParams;
import crawlercommons.urlfrontier.Urlfrontier.Long;
import crawlercommons.urlfrontier.Urlfrontier.Pagination;
import crawlercommons.urlfrontier.Urlfrontier.QueueDelayParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueList;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.Stats;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.ControlMessageCodec;
import io.recrawl.wire.HostKeys;
import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * URL Frontier's gRPC API in front of the recrawl job: PutURLs writes status events to {@code
 * crawl.status}, GetURLs hands out the crawl requests the job released on {@code crawl.requests},
 * SetDelay becomes a host rate ceiling on {@code crawl.control}. The service keeps no frontier of
 * its own, only the released URLs no client has taken yet ({@link ReadyQueues}).
 */
public final class FrontierService extends URLFrontierGrpc.URLFrontierImplBase
    implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(FrontierService.class);

  private final FrontierSettings settings;
  private final HostKeys hostKeys;
  private final ItemMapping mapping;
  private final TopicWriter writer;
  private final ReadyQueues queues = new ReadyQueues();
  private final RequestFeed feed;
  private final FrontierCounters counters = new FrontierCounters();

  public FrontierService(FrontierSettings settings) {
    this.settings = settings;
    this.hostKeys = HostKeys.of(settings.partitionMode());
    this.mapping = new ItemMapping(settings.partitionMode());
    this.writer = new TopicWriter(settings.bootstrap());
    this.feed =
        new RequestFeed(settings.bootstrap(), settings.requestsTopic(), settings.groupId(), queues);
  }

  // ---- PutURLs and GetURLs: the crawl loop

  @Override
  public StreamObserver<URLItem> putURLs(StreamObserver<AckMessage> acks) {
    return new PutUrlsCall(
        acks, settings.maxInFlight(), mapping, writer, settings.statusTopic(), queues, counters);
  }

  @Override
  public void getURLs(GetParams p, StreamObserver<URLInfo> out) {
    ServerCallStreamObserver<URLInfo> call = (ServerCallStreamObserver<URLInfo>) out;
    String crawl = p.hasAnyCrawlID() ? null : CrawlIds.normalise(p.getCrawlID());
    String key = p.getKey().isEmpty() ? "" : queueKey(p.getKey());
    long delayMs =
        1000L
            * (p.getDelayRequestable() == 0
                ? settings.defaultDelayRequestable()
                : p.getDelayRequestable());
    long deadline = System.currentTimeMillis() + settings.getWaitMs();
    List<URLInfo> batch;
    try {
      while (true) {
        long now = System.currentTimeMillis();
        batch = queues.take(crawl, key, p.getMaxUrlsPerQueue(), p.getMaxQueues(), delayMs, now);
        if (!batch.isEmpty() || now >= deadline || call.isCancelled()) {
          break;
        }
        // URLs on their way from the job: a short, bounded wait, woken by each arrival.
        queues.await(Math.min(50, deadline - now));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      out.onError(Status.CANCELLED.withDescription("interrupted").asRuntimeException());
      return;
    }
    for (int i = 0; i < batch.size(); i++) {
      try {
        if (call.isCancelled()) {
          throw Status.CANCELLED.asRuntimeException();
        }
        out.onNext(batch.get(i));
      } catch (RuntimeException cancelled) {
        queues.giveBack(batch.subList(i, batch.size()));
        return;
      }
    }
    out.onCompleted();
  }

  // ---- Queue control

  @Override
  public void blockQueueUntil(BlockQueueParams p, StreamObserver<Empty> out) {
    queues.block(CrawlIds.normalise(p.getCrawlID()), queueKey(p.getKey()), p.getTime() * 1000L);
    done(out, Empty.getDefaultInstance());
  }

  @Override
  public void setDelay(QueueDelayParams p, StreamObserver<Empty> out) {
    String crawl = CrawlIds.normalise(p.getCrawlID());
    String key = p.getKey().isEmpty() ? "" : queueKey(p.getKey());
    long delayMs = 1000L * p.getDelayRequestable();
    queues.delay(crawl, key, delayMs);
    if (key.isEmpty()) {
      done(out, Empty.getDefaultInstance());
      return;
    }
    // The host's rate ceiling in the job: one fetch per delay (0 removes it).
    double perDay = p.getDelayRequestable() == 0 ? 0 : 86_400.0 / p.getDelayRequestable();
    String json =
        ControlMessageCodec.toJson(
            ControlMessage.hostRate(System.currentTimeMillis(), key, perDay));
    writer
        .write(settings.controlTopic(), key, json)
        .whenComplete(
            (ok, error) -> {
              if (error == null) {
                done(out, Empty.getDefaultInstance());
              } else {
                out.onError(
                    Status.UNAVAILABLE
                        .withDescription("host rate not written to Kafka: " + error)
                        .asRuntimeException());
              }
            });
  }

  @Override
  public void setCrawlLimit(CrawlLimitParams p, StreamObserver<Empty> out) {
    queues.limit(CrawlIds.normalise(p.getCrawlID()), queueKey(p.getKey()), p.getLimit());
    done(out, Empty.getDefaultInstance());
  }

  @Override
  public void deleteQueue(QueueWithinCrawlParams p, StreamObserver<Long> out) {
    long n = queues.deleteQueue(CrawlIds.normalise(p.getCrawlID()), queueKey(p.getKey()));
    done(out, Long.newBuilder().setValue(n).build());
  }

  @Override
  public void deleteCrawl(DeleteCrawlMessage p, StreamObserver<Long> out) {
    long n = queues.deleteCrawl(CrawlIds.normalise(p.getValue()));
    done(out, Long.newBuilder().setValue(n).build());
  }

  // ---- Queries

  @Override
  public void getStats(QueueWithinCrawlParams p, StreamObserver<Stats> out) {
    String crawl = CrawlIds.normalise(p.getCrawlID());
    String key = p.getKey().isEmpty() ? "" : queueKey(p.getKey());
    long now = System.currentTimeMillis();
    long size = queues.waiting(crawl, key);
    long inProcess = queues.inProcess(crawl, key, now);
    done(
        out,
        Stats.newBuilder()
            .setCrawlID(crawl)
            .setSize(size)
            .setInProcess((int) Math.min(Integer.MAX_VALUE, inProcess))
            .setNumberOfQueues(key.isEmpty() ? queues.queueCount(crawl) : 1)
            .putCounts("active_queues", queues.queueKeys(crawl, false, now).size())
            .build());
  }

  @Override
  public void listQueues(Pagination p, StreamObserver<QueueList> out) {
    String crawl = CrawlIds.normalise(p.getCrawlID());
    List<String> all = queues.queueKeys(crawl, p.getIncludeInactive(), System.currentTimeMillis());
    int start = Math.min(p.getStart(), all.size());
    int size = p.getSize() == 0 ? 100 : p.getSize();
    List<String> page = all.subList(start, Math.min(all.size(), start + size));
    done(
        out,
        QueueList.newBuilder()
            .addAllValues(page)
            .setTotal(all.size())
            .setStart(start)
            .setSize(page.size())
            .setCrawlID(crawl)
            .build());
  }

  @Override
  public void countURLs(CountUrlParams p, StreamObserver<Long> out) {
    out.onError(jobQueryMissing("CountURLs"));
  }

  @Override
  public void getURLStatus(URLStatusRequest p, StreamObserver<URLItem> out) {
    out.onError(jobQueryMissing("GetURLStatus"));
  }

  @Override
  public void listURLs(ListUrlParams p, StreamObserver<URLItem> out) {
    out.onError(jobQueryMissing("ListURLs"));
  }

  // ---- Service-level

  @Override
  public void listNodes(Empty p, StreamObserver<StringList> out) {
    done(out, StringList.newBuilder().addValues(settings.advertisedAddress()).build());
  }

  @Override
  public void listCrawls(Local p, StreamObserver<StringList> out) {
    done(out, StringList.newBuilder().addAllValues(new ArrayList<>(queues.crawlIds())).build());
  }

  @Override
  public void setActive(Active p, StreamObserver<Empty> out) {
    queues.setActive(p.getState());
    done(out, Empty.getDefaultInstance());
  }

  @Override
  public void getActive(Local p, StreamObserver<Boolean> out) {
    done(out, Boolean.newBuilder().setState(queues.active()).build());
  }

  @Override
  public void setLogLevel(LogLevelParams p, StreamObserver<Empty> out) {
    Configurator.setLevel(p.getPackage(), Level.valueOf(p.getLevel().name()));
    LOG.info("log level of {} set to {}", p.getPackage(), p.getLevel());
    done(out, Empty.getDefaultInstance());
  }

  /** What PutURLs wrote, skipped and failed so far. */
  FrontierCounters counters() {
    return counters;
  }

  /** A queue key as the job keys hosts: a client may name the host in any spelling. */
  String queueKey(String key) {
    try {
      return hostKeys.keyOfHost(key);
    } catch (IllegalArgumentException e) {
      return key;
    }
  }

  private static io.grpc.StatusRuntimeException jobQueryMissing(String rpc) {
    return Status.UNIMPLEMENTED
        .withDescription(
            rpc
                + " is answered from the job's state through a query path that this build of"
                + " recrawl does not have yet (docs/url-frontier.md)")
        .asRuntimeException();
  }

  private static <T> void done(StreamObserver<T> out, T value) {
    out.onNext(value);
    out.onCompleted();
  }

  @Override
  public void close() throws Exception {
    feed.close();
    writer.close();
  }
}
