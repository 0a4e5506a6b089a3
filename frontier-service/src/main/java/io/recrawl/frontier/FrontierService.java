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
import io.recrawl.wire.PageKeys;
import io.recrawl.wire.QueryAnswer;
import io.recrawl.wire.StateQuery;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * URL Frontier's API in front of the job. {@code PutURLs} turns each item into a status event on
 * the job's status topic; {@code GetURLs} hands out the crawl requests the job released; queries,
 * deletions and blocks are asked of the job's state ({@link JobQueries}). What to crawl and when is
 * the job's: this service keeps no frontier of its own, only the job's outbox ({@link
 * ReleasedUrls}). The RPC table is in docs/url-frontier.md.
 */
public final class FrontierService extends URLFrontierGrpc.URLFrontierImplBase {

  private static final Logger LOG = LoggerFactory.getLogger(FrontierService.class);

  private final FrontierSettings settings;
  private final ReleasedUrls released;
  private final CrawlTopics topics;
  private final JobAsk job;
  private final QueryRpcs reads;
  private final String node;
  private final AtomicBoolean active = new AtomicBoolean(true);
  private final AtomicLong skipped = new AtomicLong();

  FrontierService(
      FrontierSettings settings,
      ReleasedUrls released,
      CrawlTopics topics,
      JobQueries queries,
      String node) {
    this.settings = settings;
    this.released = released;
    this.topics = topics;
    this.job = new JobAsk(settings, queries);
    this.reads = new QueryRpcs(job, released);
    this.node = node;
  }

  /** Items refused with SKIPPED since the start. */
  public long skipped() {
    return skipped.get();
  }

  // ---------------------------------------------------------------- the crawl's data

  @Override
  public StreamObserver<URLItem> putURLs(StreamObserver<AckMessage> acks) {
    return new PutUrlsStream(
        (ServerCallStreamObserver<AckMessage>) acks, settings, topics, released, skipped);
  }

  @Override
  public void getURLs(GetParams request, StreamObserver<URLInfo> out) {
    ServerCallStreamObserver<URLInfo> call = (ServerCallStreamObserver<URLInfo>) out;
    if (!active.get()) {
      out.onCompleted();
      return;
    }
    // As URL Frontier's service reads it: neither a crawl ID nor AnyCrawlID is any crawl.
    String crawl =
        request.getItemCase() == GetParams.ItemCase.CRAWLID
            ? PageKeys.crawlOrDefault(request.getCrawlID())
            : null;
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
              request.getKey().isEmpty() ? "" : job.host(request.getKey()),
              crawl,
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
      out.onNext(UrlItems.info(taken.get(i).url(), taken.get(i).host(), taken.get(i).metadata()));
    }
    out.onCompleted();
  }

  // ---------------------------------------------------------------- queue control

  /**
   * The host's rate limit in the job: one URL per {@code delay} seconds, as a host-rate override.
   * Without a key it would be the default of every queue: the job's {@code
   * recrawl.engine.host.max-rate} is that, set where the job starts.
   */
  @Override
  public void setDelay(QueueDelayParams request, StreamObserver<Empty> out) {
    if (request.getKey().isEmpty()) {
      out.onError(
          Status.INVALID_ARGUMENT
              .withDescription(
                  "SetDelay needs a key: the default of every queue is the job's"
                      + " recrawl.engine.host.max-rate, set where the job starts")
              .asException());
      return;
    }
    double perDay =
        request.getDelayRequestable() == 0 ? 0 : 86_400.0 / request.getDelayRequestable();
    control(out, request.getKey(), now -> topics.hostRate(request.getKey(), perDay, now));
  }

  /**
   * A host block in the job, under the rule of a Retry-After, and in the outbox. A time of 0 or in
   * the past lifts nothing: a block ends at its time (docs/url-frontier.md#every-rpc).
   */
  @Override
  public void blockQueueUntil(BlockQueueParams request, StreamObserver<Empty> out) {
    if (request.getKey().isEmpty()) {
      out.onError(
          Status.INVALID_ARGUMENT.withDescription("BlockQueueUntil needs a key").asException());
      return;
    }
    long until = request.getTime() * 1_000;
    if (until <= System.currentTimeMillis()) {
      out.onNext(Empty.getDefaultInstance());
      out.onCompleted();
      return;
    }
    job.ask(
        out,
        JobAsk.query(StateQuery.Op.BLOCK_HOST, null, job.host(request.getKey())).until(until),
        answers -> {
          released.block(job.host(request.getKey()), until);
          return Empty.getDefaultInstance();
        });
  }

  /**
   * A cap on the pages the job keeps for the host, across crawls (0 lifts it): a new URL beyond it
   * is refused by the job (dead letter {@code host_full}).
   */
  @Override
  public void setCrawlLimit(CrawlLimitParams request, StreamObserver<Empty> out) {
    if (request.getKey().isEmpty()) {
      out.onError(
          Status.INVALID_ARGUMENT.withDescription("SetCrawlLimit needs a key").asException());
      return;
    }
    control(
        out, request.getKey(), now -> topics.hostLimit(request.getKey(), request.getLimit(), now));
  }

  /** Sends a message on the control topic. */
  private interface ControlSend {
    void send(long now) throws Exception;
  }

  /**
   * Sends a host's control message, then asks the job about the host: the control topic keeps its
   * order, so once the job answers, the message is in force, and what the client sends next obeys
   * it.
   */
  private void control(StreamObserver<Empty> out, String key, ControlSend send) {
    try {
      send.send(System.currentTimeMillis());
    } catch (IllegalArgumentException bad) {
      out.onError(Status.INVALID_ARGUMENT.withDescription(bad.getMessage()).asException());
      return;
    } catch (Exception e) {
      out.onError(Status.UNAVAILABLE.withDescription(String.valueOf(e)).asException());
      return;
    }
    job.ask(
        out, JobAsk.query(StateQuery.Op.STATS, null, key), answers -> Empty.getDefaultInstance());
  }

  @Override
  public void deleteQueue(QueueWithinCrawlParams request, StreamObserver<Long> out) {
    if (request.getKey().isEmpty()) {
      out.onError(Status.INVALID_ARGUMENT.withDescription("DeleteQueue needs a key").asException());
      return;
    }
    delete(
        out,
        StateQuery.Op.DELETE_HOST,
        PageKeys.crawlOrDefault(request.getCrawlID()),
        job.host(request.getKey()));
  }

  @Override
  public void deleteCrawl(DeleteCrawlMessage request, StreamObserver<Long> out) {
    delete(out, StateQuery.Op.DELETE_CRAWL, PageKeys.crawlOrDefault(request.getValue()), null);
  }

  /**
   * A deletion: the outbox drops the queue's URLs at once and every release of them until the job
   * answers, even after the client stopped waiting (a deletion the job applies late), then what the
   * job released before it.
   */
  private void delete(StreamObserver<Long> out, StateQuery.Op op, String crawl, String host) {
    StateQuery q = JobAsk.query(op, crawl, host);
    released.deleting(crawl, host, q.time());
    List<QueryAnswer> answers =
        job.askEvenLate(
            out, q, whenever -> released.deleted(crawl, host, JobQueries.asOf(whenever)));
    if (answers != null) {
      out.onNext(Long.newBuilder().setValue(JobAsk.sum(answers, QueryAnswer::count)).build());
      out.onCompleted();
    }
  }

  // ---------------------------------------------------------------- queries

  // ---------------------------------------------------------------- queries (QueryRpcs)

  @Override
  public void getStats(QueueWithinCrawlParams request, StreamObserver<Stats> out) {
    reads.getStats(request, out);
  }

  @Override
  public void listQueues(Pagination request, StreamObserver<QueueList> out) {
    reads.listQueues(request, out);
  }

  @Override
  public void countURLs(CountUrlParams request, StreamObserver<Long> out) {
    reads.countURLs(request, out);
  }

  @Override
  public void getURLStatus(URLStatusRequest request, StreamObserver<URLItem> out) {
    reads.getURLStatus(request, out);
  }

  @Override
  public void listURLs(ListUrlParams request, StreamObserver<URLItem> out) {
    reads.listURLs(request, out);
  }

  @Override
  public void listCrawls(Local request, StreamObserver<StringList> out) {
    reads.listCrawls(request, out);
  }

  // ---------------------------------------------------------------- the service itself

  @Override
  public void listNodes(Empty request, StreamObserver<StringList> out) {
    out.onNext(StringList.newBuilder().addValues(node).build());
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
      out.onError(
          Status.UNIMPLEMENTED
              .withDescription("SetLogLevel needs Log4j 2 on the class path")
              .asException());
    }
  }
}
