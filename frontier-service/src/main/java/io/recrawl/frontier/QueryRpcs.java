package io.recrawl.frontier;

import crawlercommons.urlfrontier.Urlfrontier.CountUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.ListUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.Local;
import crawlercommons.urlfrontier.Urlfrontier.Long;
import crawlercommons.urlfrontier.Urlfrontier.Pagination;
import crawlercommons.urlfrontier.Urlfrontier.QueueList;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.Stats;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.recrawl.wire.PageKeys;
import io.recrawl.wire.QueryAnswer;
import io.recrawl.wire.StateQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The RPCs that read the job's state: stats, queues, counts, a URL's status, listings of URLs and
 * crawls. Each is a query the job answers from its keyed state ({@link JobAsk}); listings of any
 * size are walked in pages of at most {@link StateQuery#MAX_RESULTS}.
 */
final class QueryRpcs {

  /** URL Frontier's default page size of lists. */
  private static final int DEFAULT_PAGE = 100;

  private final JobAsk job;
  private final ReleasedUrls released;

  QueryRpcs(JobAsk job, ReleasedUrls released) {
    this.job = job;
    this.released = released;
  }

  /**
   * Pages of the crawl (or of one queue) in the job; in process = URLs handed out whose delay is
   * not over (this instance's); queues = hosts with pages of the crawl.
   */
  void getStats(QueueWithinCrawlParams request, StreamObserver<Stats> out) {
    String crawl = PageKeys.crawlOrDefault(request.getCrawlID());
    String key = job.host(request.getKey());
    job.ask(
        out,
        JobAsk.query(StateQuery.Op.STATS, crawl, key),
        answers ->
            Stats.newBuilder()
                .setCrawlID(crawl)
                .setSize(JobAsk.sum(answers, QueryAnswer::count))
                .setInProcess((int) released.inProcess(crawl, key, System.currentTimeMillis()))
                .setNumberOfQueues(JobAsk.sum(answers, QueryAnswer::hosts))
                .putCounts("in_flight", JobAsk.sum(answers, QueryAnswer::inFlight))
                .build());
  }

  /**
   * Host keys with pages of the crawl, in key order, {@code start} and {@code size} of any size:
   * the job is asked at most {@link StateQuery#MAX_RESULTS} at a time after the last key listed.
   */
  void listQueues(Pagination request, StreamObserver<QueueList> out) {
    String crawl = PageKeys.crawlOrDefault(request.getCrawlID());
    Window window = new Window(request.getStart(), request.getSize());
    List<String> page = new ArrayList<>();
    long total = 0;
    String cursor = "";
    while (true) {
      StateQuery q =
          JobAsk.query(StateQuery.Op.LIST_HOSTS, crawl, null)
              .listing(0, 0, request.getIncludeInactive())
              .after(cursor, StateQuery.MAX_RESULTS);
      List<QueryAnswer> answers = job.ask(out, q);
      if (answers == null) {
        return;
      }
      total = JobAsk.sum(answers, QueryAnswer::count);
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

  void countURLs(CountUrlParams request, StreamObserver<Long> out) {
    StateQuery q =
        JobAsk.query(
                StateQuery.Op.COUNT_URLS,
                PageKeys.crawlOrDefault(request.getCrawlID()),
                job.host(request.getKey()))
            .filtered(request.hasFilter() ? request.getFilter() : null, request.getIgnoreCase());
    job.ask(
        out,
        q,
        answers -> Long.newBuilder().setValue(JobAsk.sum(answers, QueryAnswer::count)).build());
  }

  void getURLStatus(URLStatusRequest request, StreamObserver<URLItem> out) {
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
    List<QueryAnswer> answers = job.ask(out, q);
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
  void listURLs(ListUrlParams request, StreamObserver<URLItem> out) {
    ServerCallStreamObserver<URLItem> call = (ServerCallStreamObserver<URLItem>) out;
    Window window = new Window(request.getStart(), request.getSize());
    String crawl = PageKeys.crawlOrDefault(request.getCrawlID());
    String cursor = StateQuery.cursor("", "");
    while (!window.full() && !call.isCancelled()) {
      StateQuery q =
          JobAsk.query(StateQuery.Op.LIST_URLS, crawl, job.host(request.getKey()))
              .filtered(request.hasFilter() ? request.getFilter() : null, request.getIgnoreCase())
              .after(cursor, StateQuery.MAX_RESULTS);
      List<QueryAnswer> answers = job.ask(out, q);
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
      pages.sort(java.util.Comparator.comparing(QueryRpcs::position));
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
                .setInfo(UrlItems.info(p.key(), p.host(), p.metadata()))
                .setRefetchableFromDate(date))
        .build();
  }

  /** The crawls that have pages in the job. */
  void listCrawls(Local request, StreamObserver<StringList> out) {
    job.ask(
        out,
        JobAsk.query(StateQuery.Op.LIST_CRAWLS, null, null),
        answers -> {
          TreeSet<String> crawls = new TreeSet<>();
          answers.forEach(a -> crawls.addAll(a.names()));
          return StringList.newBuilder().addAllValues(crawls).build();
        });
  }
}
