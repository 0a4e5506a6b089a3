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
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * URL Frontier's API in front of the job. {@code PutURLs} turns each item into a status event on
 * the job's status topic; {@code GetURLs} hands out the crawl requests the job released. What to
 * crawl and when is the job's: this service keeps no frontier of its own.
 *
 * <p>The RPCs that need the job's state (queries, deletions, queue blocks and limits) and crawls
 * other than the default one are not served yet: they answer UNIMPLEMENTED, and an item of another
 * crawl is SKIPPED (docs/url-frontier.md).
 */
public final class FrontierService extends URLFrontierGrpc.URLFrontierImplBase {

  private static final Logger LOG = LoggerFactory.getLogger(FrontierService.class);

  private final FrontierSettings settings;
  private final ReleasedUrls released;
  private final CrawlTopics topics;
  private final String node;
  private final AtomicBoolean active = new AtomicBoolean(true);
  private final AtomicLong skipped = new AtomicLong();

  FrontierService(
      FrontierSettings settings, ReleasedUrls released, CrawlTopics topics, String node) {
    this.settings = settings;
    this.released = released;
    this.topics = topics;
    this.node = node;
  }

  /** Items refused with SKIPPED since the start. */
  public long skipped() {
    return skipped.get();
  }

  // ---------------------------------------------------------------- the crawl's data

  @Override
  public StreamObserver<URLItem> putURLs(StreamObserver<AckMessage> acks) {
    return new PutStream((ServerCallStreamObserver<AckMessage>) acks);
  }

  /**
   * One {@code PutURLs} stream. At most {@code putsInFlight} items wait for Kafka at once: the
   * stream asks the client for one more item per ack, so a fast client is held back by gRPC's flow
   * control, and nothing is buffered without bound.
   */
  private final class PutStream implements StreamObserver<URLItem> {
    private final ServerCallStreamObserver<AckMessage> acks;
    private int pending;
    private boolean completed;

    PutStream(ServerCallStreamObserver<AckMessage> acks) {
      this.acks = acks;
      acks.disableAutoRequest();
      acks.request(settings.putsInFlight());
    }

    @Override
    public void onNext(URLItem item) {
      String id = item.getID().isEmpty() ? UrlItems.url(item) : item.getID();
      if (!CrawlIds.DEFAULT.equals(UrlItems.crawl(item))) {
        skip(id, "crawl " + UrlItems.crawl(item) + ": only the default crawl is served");
        return;
      }
      long now = System.currentTimeMillis();
      String json = StatusEventCodec.toJson(UrlItems.toEvent(item, now));
      Parsed<StatusEvent> checked = topics.check(json, now);
      if (!checked.ok()) {
        skip(id, checked.deadLetter().reason() + ": " + checked.deadLetter().detail());
        return;
      }
      StatusEvent e = checked.value();
      if (item.hasKnown()) {
        released.updated(e.url());
      }
      synchronized (this) {
        pending++;
      }
      topics.send(
          json, e, error -> ack(id, error == null ? AckMessage.Status.OK : AckMessage.Status.FAIL));
    }

    private void skip(String id, String why) {
      skipped.incrementAndGet();
      LOG.info("PutURLs item {} skipped: {}", id, why);
      synchronized (this) {
        pending++;
      }
      ack(id, AckMessage.Status.SKIPPED);
    }

    private synchronized void ack(String id, AckMessage.Status status) {
      pending--;
      if (!acks.isCancelled()) {
        acks.onNext(AckMessage.newBuilder().setID(id).setStatus(status).build());
        acks.request(1);
      }
      if (completed && pending == 0 && !acks.isCancelled()) {
        acks.onCompleted();
      }
    }

    @Override
    public void onError(Throwable t) {
      LOG.debug("PutURLs stream ended by the client", t);
    }

    @Override
    public synchronized void onCompleted() {
      completed = true;
      if (pending == 0 && !acks.isCancelled()) {
        acks.onCompleted();
      }
    }
  }

  @Override
  public void getURLs(GetParams request, StreamObserver<URLInfo> out) {
    ServerCallStreamObserver<URLInfo> call = (ServerCallStreamObserver<URLInfo>) out;
    if (!active.get()
        || (request.hasCrawlID()
            && !CrawlIds.DEFAULT.equals(CrawlIds.orDefault(request.getCrawlID())))) {
      out.onCompleted();
      return;
    }
    int delaySeconds =
        request.getDelayRequestable() > 0
            ? request.getDelayRequestable()
            : settings.defaultDelaySeconds();
    List<CrawlRequest> taken;
    try {
      taken =
          released.take(
              request.getMaxUrlsPerQueue(),
              request.getMaxQueues(),
              request.getKey(),
              delaySeconds * 1_000L,
              System.currentTimeMillis(),
              settings.getWaitMs());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      out.onError(Status.CANCELLED.withDescription("the service is stopping").asException());
      return;
    }
    for (int i = 0; i < taken.size(); i++) {
      if (call.isCancelled()) {
        released.giveBack(taken.subList(i, taken.size()));
        return;
      }
      out.onNext(info(taken.get(i)));
    }
    out.onCompleted();
  }

  private static URLInfo info(CrawlRequest r) {
    URLInfo.Builder b =
        URLInfo.newBuilder().setUrl(r.url()).setKey(r.host()).setCrawlID(CrawlIds.DEFAULT);
    for (Map.Entry<String, List<String>> e : r.metadata().entrySet()) {
      b.putMetadata(e.getKey(), StringList.newBuilder().addAllValues(e.getValue()).build());
    }
    return b.build();
  }

  // ---------------------------------------------------------------- queue control

  /**
   * The host's rate limit in the job: one URL per {@code delay} seconds, as a host-rate override
   * (an empty key would set the default of every queue: not served yet).
   */
  @Override
  public void setDelay(QueueDelayParams request, StreamObserver<Empty> out) {
    if (request.getKey().isEmpty()) {
      unimplemented(out, "SetDelay without a key (the default of every queue)");
      return;
    }
    try {
      double perDay =
          request.getDelayRequestable() == 0 ? 0 : 86_400.0 / request.getDelayRequestable();
      topics.hostRate(request.getKey(), perDay, System.currentTimeMillis());
      out.onNext(Empty.getDefaultInstance());
      out.onCompleted();
    } catch (IllegalArgumentException bad) {
      out.onError(Status.INVALID_ARGUMENT.withDescription(bad.getMessage()).asException());
    } catch (Exception e) {
      out.onError(Status.UNAVAILABLE.withDescription(String.valueOf(e)).asException());
    }
  }

  @Override
  public void blockQueueUntil(BlockQueueParams request, StreamObserver<Empty> out) {
    unimplemented(out, "BlockQueueUntil");
  }

  @Override
  public void setCrawlLimit(CrawlLimitParams request, StreamObserver<Empty> out) {
    unimplemented(out, "SetCrawlLimit");
  }

  @Override
  public void deleteQueue(QueueWithinCrawlParams request, StreamObserver<Long> out) {
    unimplemented(out, "DeleteQueue");
  }

  @Override
  public void deleteCrawl(DeleteCrawlMessage request, StreamObserver<Long> out) {
    unimplemented(out, "DeleteCrawl");
  }

  // ---------------------------------------------------------------- queries

  @Override
  public void getStats(QueueWithinCrawlParams request, StreamObserver<Stats> out) {
    unimplemented(out, "GetStats");
  }

  @Override
  public void listQueues(Pagination request, StreamObserver<QueueList> out) {
    unimplemented(out, "ListQueues");
  }

  @Override
  public void countURLs(CountUrlParams request, StreamObserver<Long> out) {
    unimplemented(out, "CountURLs");
  }

  @Override
  public void getURLStatus(URLStatusRequest request, StreamObserver<URLItem> out) {
    unimplemented(out, "GetURLStatus");
  }

  @Override
  public void listURLs(ListUrlParams request, StreamObserver<URLItem> out) {
    unimplemented(out, "ListURLs");
  }

  // ---------------------------------------------------------------- the service itself

  @Override
  public void listNodes(Empty request, StreamObserver<StringList> out) {
    out.onNext(StringList.newBuilder().addValues(node).build());
    out.onCompleted();
  }

  @Override
  public void listCrawls(Local request, StreamObserver<StringList> out) {
    out.onNext(StringList.newBuilder().addValues(CrawlIds.DEFAULT).build());
    out.onCompleted();
  }

  @Override
  public void setActive(Active request, StreamObserver<Empty> out) {
    active.set(request.getState());
    out.onNext(Empty.getDefaultInstance());
    out.onCompleted();
  }

  @Override
  public void getActive(Local request, StreamObserver<Boolean> out) {
    out.onNext(Boolean.newBuilder().setState(active.get()).build());
    out.onCompleted();
  }

  @Override
  public void setLogLevel(LogLevelParams request, StreamObserver<Empty> out) {
    if (LogLevels.set(request.getPackage(), request.getLevel().name())) {
      out.onNext(Empty.getDefaultInstance());
      out.onCompleted();
    } else {
      unimplemented(out, "SetLogLevel without Log4j 2 on the class path");
    }
  }

  private static void unimplemented(StreamObserver<?> out, String what) {
    out.onError(
        Status.UNIMPLEMENTED
            .withDescription(
                what + " is not served yet: it needs the job's state (docs/url-frontier.md)")
            .asException());
  }
}
