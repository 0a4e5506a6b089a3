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
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
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
import io.recrawl.wire.HostKeys;
import io.recrawl.wire.PageKeys;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.QueryAnswer;
import io.recrawl.wire.StateQuery;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
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

  /** URL Frontier's default page size of lists. */
  private static final int DEFAULT_PAGE = 100;

  private final FrontierSettings settings;
  private final ReleasedUrls released;
  private final CrawlTopics topics;
  private final JobQueries queries;
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
    this.queries = queries;
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
      long now = System.currentTimeMillis();
      String json;
      try {
        json =
            StatusEventCodec.toJson(
                UrlItems.toEvent(item, now, settings.modeOf(UrlItems.crawl(item))));
      } catch (IllegalArgumentException bad) {
        skip(id, bad.getMessage());
        return;
      }
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
              request.getKey().isEmpty() ? "" : host(request.getKey()),
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
      out.onNext(info(taken.get(i).url(), taken.get(i).host(), taken.get(i).metadata()));
    }
    out.onCompleted();
  }

  private static URLInfo info(String pageKey, String host, Map<String, List<String>> metadata) {
    URLInfo.Builder b =
        URLInfo.newBuilder()
            .setUrl(PageKeys.url(pageKey))
            .setKey(host)
            .setCrawlID(PageKeys.crawl(pageKey));
    if (metadata != null) {
      for (Map.Entry<String, List<String>> e : metadata.entrySet()) {
        if (e.getKey().equals(StatusEvent.REFETCH_AT_KEY)) {
          continue; // the job's own: the date is the item's
        }
        b.putMetadata(e.getKey(), StringList.newBuilder().addAllValues(e.getValue()).build());
      }
    }
    return b.build();
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
    ask(
        out,
        query(StateQuery.Op.BLOCK_HOST, null, host(request.getKey())).until(until),
        answers -> {
          released.block(host(request.getKey()), until);
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
    ask(out, query(StateQuery.Op.STATS, null, key), answers -> Empty.getDefaultInstance());
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
        host(request.getKey()));
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
    StateQuery q = query(op, crawl, host);
    released.deleting(crawl, host, q.time());
    List<QueryAnswer> answers =
        askEvenLate(out, q, whenever -> released.deleted(crawl, host, JobQueries.asOf(whenever)));
    if (answers != null) {
      out.onNext(Long.newBuilder().setValue(sum(answers, QueryAnswer::count)).build());
      out.onCompleted();
    }
  }

  // ---------------------------------------------------------------- queries

  /**
   * Pages of the crawl (or of one queue) in the job; in process = URLs handed out whose delay is
   * not over (this instance's); queues = hosts with pages of the crawl.
   */
  @Override
  public void getStats(QueueWithinCrawlParams request, StreamObserver<Stats> out) {
    String crawl = PageKeys.crawlOrDefault(request.getCrawlID());
    String key = host(request.getKey());
    ask(
        out,
        query(StateQuery.Op.STATS, crawl, key),
        answers ->
            Stats.newBuilder()
                .setCrawlID(crawl)
                .setSize(sum(answers, QueryAnswer::count))
                .setInProcess((int) released.inProcess(crawl, key, System.currentTimeMillis()))
                .setNumberOfQueues(sum(answers, QueryAnswer::hosts))
                .putCounts("in_flight", sum(answers, QueryAnswer::inFlight))
                .build());
  }

  /**
   * Host keys with pages of the crawl, in key order, {@code start} and {@code size} of any size:
   * the job is asked at most {@link StateQuery#MAX_RESULTS} at a time after the last key listed.
   */
  @Override
  public void listQueues(Pagination request, StreamObserver<QueueList> out) {
    String crawl = PageKeys.crawlOrDefault(request.getCrawlID());
    Window window = new Window(request.getStart(), request.getSize());
    List<String> page = new ArrayList<>();
    long total = 0;
    String cursor = "";
    while (true) {
      StateQuery q =
          query(StateQuery.Op.LIST_HOSTS, crawl, null)
              .listing(0, 0, request.getIncludeInactive())
              .after(cursor, StateQuery.MAX_RESULTS);
      List<QueryAnswer> answers = ask(out, q);
      if (answers == null) {
        return;
      }
      total = sum(answers, QueryAnswer::count);
      String bound = null;
      TreeSet<String> names = new TreeSet<>();
      for (QueryAnswer a : answers) {
        names.addAll(a.names());
        if (a.names().size() >= StateQuery.MAX_RESULTS) {
          bound = earlier(bound, a.names().get(a.names().size() - 1));
        }
      }
      for (String name : bound == null ? names : names.headSet(bound, true)) {
        if (window.full()) {
          break;
        }
        cursor = name;
        if (window.admits()) {
          page.add(name);
        }
      }
      if (bound == null || window.full()) {
        break;
      }
    }
    out.onNext(
        QueueList.newBuilder()
            .addAllValues(page)
            .setTotal(total)
            .setStart(request.getStart())
            .setSize(page.size())
            .setCrawlID(crawl)
            .build());
    out.onCompleted();
  }

  @Override
  public void countURLs(CountUrlParams request, StreamObserver<Long> out) {
    StateQuery q =
        query(
                StateQuery.Op.COUNT_URLS,
                PageKeys.crawlOrDefault(request.getCrawlID()),
                host(request.getKey()))
            .filtered(request.hasFilter() ? request.getFilter() : null, request.getIgnoreCase());
    ask(out, q, answers -> Long.newBuilder().setValue(sum(answers, QueryAnswer::count)).build());
  }

  @Override
  public void getURLStatus(URLStatusRequest request, StreamObserver<URLItem> out) {
    StateQuery q;
    try {
      q =
          StateQuery.urlStatus(
              JobQueries.newId(),
              System.currentTimeMillis(),
              PageKeys.crawlOrDefault(request.getCrawlID()),
              request.getUrl());
    } catch (IllegalArgumentException bad) {
      out.onError(Status.INVALID_ARGUMENT.withDescription(bad.getMessage()).asException());
      return;
    }
    List<QueryAnswer> answers = ask(out, q);
    if (answers == null) {
      return;
    }
    List<QueryAnswer.Page> pages = answers.get(0).pages();
    if (pages.isEmpty()) {
      out.onError(
          Status.NOT_FOUND
              .withDescription(request.getUrl() + " is not in crawl " + q.crawl())
              .asException());
      return;
    }
    out.onNext(item(pages.get(0)));
    out.onCompleted();
  }

  /**
   * Pages of the crawl (or of one queue) in the order of host key then page key, {@code start} and
   * {@code size} of any size: the job is asked a page of at most {@link StateQuery#MAX_RESULTS} at
   * a time after a cursor, and the parts' pages are merged, so that nothing is missed or sent
   * twice.
   */
  @Override
  public void listURLs(ListUrlParams request, StreamObserver<URLItem> out) {
    ServerCallStreamObserver<URLItem> call = (ServerCallStreamObserver<URLItem>) out;
    Window window = new Window(request.getStart(), request.getSize());
    String crawl = PageKeys.crawlOrDefault(request.getCrawlID());
    String cursor = StateQuery.cursor("", "");
    while (!window.full() && !call.isCancelled()) {
      StateQuery q =
          query(StateQuery.Op.LIST_URLS, crawl, host(request.getKey()))
              .filtered(request.hasFilter() ? request.getFilter() : null, request.getIgnoreCase())
              .after(cursor, StateQuery.MAX_RESULTS);
      List<QueryAnswer> answers = ask(out, q);
      if (answers == null) {
        return;
      }
      // A part that filled its page may have more after its last: go no further than the
      // smallest such last, and ask again from there.
      String bound = null;
      List<QueryAnswer.Page> pages = new ArrayList<>();
      for (QueryAnswer a : answers) {
        pages.addAll(a.pages());
        if (!a.pages().isEmpty() && (a.cut() || a.pages().size() >= StateQuery.MAX_RESULTS)) {
          bound = earlier(bound, position(a.pages().get(a.pages().size() - 1)));
        }
      }
      pages.sort(java.util.Comparator.comparing(FrontierService::position));
      for (QueryAnswer.Page p : pages) {
        String at = position(p);
        if (window.full() || (bound != null && at.compareTo(bound) > 0)) {
          break;
        }
        cursor = at;
        if (window.admits()) {
          out.onNext(item(p));
        }
      }
      if (bound == null) {
        break; // every part has given all it has
      }
    }
    if (!call.isCancelled()) {
      out.onCompleted();
    }
  }

  /** The earlier of a bound (null = none yet) and {@code last}, in key order. */
  private static String earlier(String bound, String last) {
    return bound == null || last.compareTo(bound) < 0 ? last : bound;
  }

  /**
   * A client's {@code start} and {@code size} over a listing walked in order: the first {@code
   * start} items are skipped, then up to {@code size} (0: {@link #DEFAULT_PAGE}) are taken.
   */
  private static final class Window {
    private long skip;
    private long left;

    Window(long start, long size) {
      this.skip = start;
      this.left = size == 0 ? DEFAULT_PAGE : size;
    }

    boolean full() {
      return left == 0;
    }

    /** Counts the next item in order; whether it is one to send. */
    boolean admits() {
      if (skip > 0) {
        skip--;
        return false;
      }
      left--;
      return true;
    }
  }

  private static String position(QueryAnswer.Page p) {
    return StateQuery.cursor(p.host(), p.key());
  }

  /**
   * A page as URL Frontier's server answers it: a known item with its next date in seconds (0 =
   * never), a page never fetched too, whose next date is when it goes; URL Frontier's CLI reads
   * nothing else.
   */
  private static URLItem item(QueryAnswer.Page p) {
    long date = p.due() == java.lang.Long.MAX_VALUE ? 0 : Math.max(1, p.due() / 1_000);
    return URLItem.newBuilder()
        .setKnown(
            KnownURLItem.newBuilder()
                .setInfo(info(p.key(), p.host(), p.metadata()))
                .setRefetchableFromDate(date))
        .build();
  }

  // ---------------------------------------------------------------- the service itself

  @Override
  public void listNodes(Empty request, StreamObserver<StringList> out) {
    out.onNext(StringList.newBuilder().addValues(node).build());
    out.onCompleted();
  }

  /** The crawls that have pages in the job. */
  @Override
  public void listCrawls(Local request, StreamObserver<StringList> out) {
    ask(
        out,
        query(StateQuery.Op.LIST_CRAWLS, null, null),
        answers -> {
          TreeSet<String> crawls = new TreeSet<>();
          answers.forEach(a -> crawls.addAll(a.names()));
          return StringList.newBuilder().addAllValues(crawls).build();
        });
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

  // ---------------------------------------------------------------- asking the job

  /** A query of one host ({@code host} null = every host), asked now. */
  private static StateQuery query(StateQuery.Op op, String crawl, String host) {
    return StateQuery.of(JobQueries.newId(), op, System.currentTimeMillis(), crawl, host);
  }

  /**
   * A client's queue key as the job keys hosts (a host, {@code host:port}; {@code Example.COM:80}
   * is {@code example.com}): null for none (every queue). A key that names no host is kept as it
   * is, and matches no queue.
   */
  private String host(String key) {
    if (key == null || key.isEmpty()) {
      return null;
    }
    try {
      return HostKeys.of(settings.partitionMode()).keyOfHost(key);
    } catch (IllegalArgumentException noHost) {
      return key;
    }
  }

  private <T> void ask(
      StreamObserver<T> out,
      StateQuery q,
      java.util.function.Function<List<QueryAnswer>, T> reply) {
    List<QueryAnswer> answers = ask(out, q);
    if (answers != null) {
      out.onNext(reply.apply(answers));
      out.onCompleted();
    }
  }

  /** The job's whole answer, or null after the error has gone to {@code out}. */
  private List<QueryAnswer> ask(StreamObserver<?> out, StateQuery q) {
    return askEvenLate(out, q, null);
  }

  /**
   * The same; {@code evenLate} (if set) takes the whole answer when it comes, in time or after the
   * query timed out.
   */
  private List<QueryAnswer> askEvenLate(
      StreamObserver<?> out, StateQuery q, Consumer<List<QueryAnswer>> evenLate) {
    try {
      return queries.ask(q, evenLate);
    } catch (JobQueries.QueryFailed failed) {
      out.onError(Status.INTERNAL.withDescription(failed.getMessage()).asException());
    } catch (TimeoutException slow) {
      out.onError(
          Status.DEADLINE_EXCEEDED
              .withDescription("the job did not answer within " + settings.queryTimeoutMs() + " ms")
              .asException());
    } catch (InterruptedException stopping) {
      Thread.currentThread().interrupt();
      out.onError(Status.CANCELLED.withDescription("the service is stopping").asException());
    } catch (Exception e) {
      out.onError(Status.UNAVAILABLE.withDescription(String.valueOf(e)).asException());
    }
    return null;
  }

  private static long sum(
      List<QueryAnswer> answers, java.util.function.ToLongFunction<QueryAnswer> f) {
    return answers.stream().mapToLong(f).sum();
  }
}
