package io.recrawl.flink.scheduler;

import io.recrawl.engine.HostState;
import io.recrawl.engine.PageState;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.PageKeys;
import io.recrawl.wire.QueryAnswer;
import io.recrawl.wire.QueryCodec;
import io.recrawl.wire.StateQuery;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.util.Collector;

/**
 * Answers a front end's {@link StateQuery}s (the URL Frontier service's) from this subtask's keyed
 * state. A query waits until the status input has been read past its time, so that every status
 * sent before it has been applied: until event time is within the status source's out-of-orderness
 * of it (a watermark that far behind the query means every partition has delivered a later status,
 * or is idle). Then the subtask that owns the host answers a query of one host, and every subtask
 * answers a query of all hosts for its own. Changes (deletions, blocks) run as engine calls like
 * any status event's. Waiting queries live in memory only: after a restart the asker times out and
 * asks again.
 */
final class StateQueries {

  private final HostSchedulerFunction scheduler;
  private final KeyedStateBackend<String> keys;
  private final TimerService timers;
  private final Collector<CrawlRequest> requests;
  private final SideOutput side;
  private final int subtask;
  private final int parallelism;
  private final int maxParallelism;
  private final long statusLateness;
  private final List<StateQuery> waiting = new ArrayList<>();

  /** The most queries that wait for event time; beyond, a query is answered with an error. */
  static final int MAX_WAITING = 10_000;

  /**
   * @param requests where the requests of a change go (a change releases none today: the host's
   *     wake-up does)
   * @param side where answers go ({@link SchedulerOutputs#ANSWERS})
   * @param statusLateness how far event time lags behind the statuses read, ms
   */
  StateQueries(
      HostSchedulerFunction scheduler,
      KeyedStateBackend<String> keys,
      TimerService timers,
      Collector<CrawlRequest> requests,
      SideOutput side,
      int subtask,
      int parallelism,
      int maxParallelism,
      long statusLateness) {
    this.scheduler = scheduler;
    this.keys = keys;
    this.timers = timers;
    this.requests = requests;
    this.side = side;
    this.subtask = subtask;
    this.parallelism = parallelism;
    this.maxParallelism = maxParallelism;
    this.statusLateness = statusLateness;
  }

  /**
   * A query arrived; it is answered at once if the statuses have been read past it. While {@link
   * #MAX_WAITING} wait (event time stands still), a new one is answered with an error instead.
   */
  void add(StateQuery q, long watermark, double lambda0) {
    if (waiting.size() >= MAX_WAITING && !due(q, watermark)) {
      if (mine(q)) {
        side.output(
            SchedulerOutputs.ANSWERS,
            QueryCodec.toJson(
                failed(q, watermark, MAX_WAITING + " queries wait for event time to pass them")));
      }
      return;
    }
    waiting.add(q);
    answerUpTo(watermark, lambda0);
  }

  /** Whether this subtask answers {@code q}: it owns its host, or the query is of every host. */
  private boolean mine(StateQuery q) {
    return q.host() == null
        || KeyGroupRangeAssignment.assignKeyToParallelOperator(
                q.host(), maxParallelism, parallelism)
            == subtask;
  }

  private QueryAnswer failed(StateQuery q, long now, String why) {
    boolean all = q.host() == null;
    return new QueryAnswer(
        q.id(), all ? subtask : 0, all ? parallelism : 1, now, 0, 0, 0, null, null, false, why);
  }

  /** Whether queries wait for event time. */
  boolean waiting() {
    return !waiting.isEmpty();
  }

  /** Whether every status sent before {@code q} has been read at event time {@code watermark}. */
  private boolean due(StateQuery q, long watermark) {
    return q.time() - statusLateness <= watermark;
  }

  /** Answers, in arrival order, every waiting query whose statuses have all been read. */
  void answerUpTo(long watermark, double lambda0) {
    for (Iterator<StateQuery> it = waiting.iterator(); it.hasNext(); ) {
      StateQuery q = it.next();
      if (due(q, watermark)) {
        it.remove();
        answer(q, watermark, lambda0);
      }
    }
  }

  private void answer(StateQuery q, long watermark, double lambda0) {
    long now = Math.max(q.time(), watermark);
    if (!mine(q)) {
      return; // its owner answers
    }
    boolean oneHost = q.host() != null;
    int parts = oneHost ? 1 : parallelism;
    Tally t = new Tally(q, parts, now);
    QueryAnswer answer;
    try {
      if (oneHost) {
        visitOrQuarantine(q.host(), q, t, now, watermark, lambda0);
      } else {
        scheduler.flushHostRecords(); // the key walk reads RocksDB
        List<String> hosts;
        try (Stream<String> all =
            keys.getKeys(SchedulerState.hostDescriptor().getName(), VoidNamespace.INSTANCE)) {
          hosts = all.collect(Collectors.toList());
        }
        boolean byCursor = q.op() == StateQuery.Op.LIST_URLS && q.after() != null;
        if (byCursor) {
          hosts = fromCursorOn(hosts, q.after());
        }
        for (String host : hosts) {
          visitOrQuarantine(host, q, t, now, watermark, lambda0);
          if (byCursor && !t.wantsPages()) {
            break; // the rest comes after this page's last
          }
        }
      }
      answer = t.answer();
    } catch (RuntimeException failure) {
      answer = failed(q, now, failure.toString());
    }
    side.output(SchedulerOutputs.ANSWERS, QueryCodec.toJson(answer));
  }

  /** The hosts in key order, from the cursor's host on. */
  private static List<String> fromCursorOn(List<String> hosts, String cursor) {
    String from = cursor.substring(0, Math.max(0, cursor.indexOf('\n')));
    return new TreeSet<>(hosts).tailSet(from, true).stream().toList();
  }

  /**
   * {@link #visit}, and a host whose records cannot be read (or whose change throws) quarantined as
   * on the keyed path, if {@code recrawl.quarantine.max-hosts} allows, so that the others are
   * answered; else the answer fails, naming the host.
   */
  private void visitOrQuarantine(
      String host, StateQuery q, Tally t, long now, long watermark, double lambda0) {
    try {
      visit(host, q, t, now, watermark, lambda0);
    } catch (RuntimeException unreadable) {
      scheduler.quarantine().quarantineOrThrow(host, unreadable, now);
      scheduler.quarantine().sendLetters(side);
    }
  }

  /**
   * Adds one host's pages to the tally, or applies the change to them. A change runs on the host's
   * clock as a status event would (ahead of event time, never past the host's pending wake-up).
   */
  private void visit(String host, StateQuery q, Tally t, long now, long watermark, double lambda0) {
    keys.setCurrentKey(host);
    FlinkHostStore store = scheduler.read(host);
    HostState h = store.host();
    if (h == null) {
      return;
    }
    long clock = HostSchedulerFunction.statusClock(now, watermark, h);
    switch (q.op()) {
      case BLOCK_HOST -> {
        scheduler.changeHost(
            host,
            clock,
            lambda0,
            (engine, s, ctx, o) -> {
              engine.blockUntil(s, q.until(), ctx, o);
              return 0;
            },
            timers,
            requests,
            side);
        return;
      }
      case LIST_CRAWLS -> {
        for (String key : store.committedPageKeys()) {
          t.crawls.add(PageKeys.crawl(key));
        }
        return;
      }
      case URL_STATUS -> {
        String key = PageKeys.of(q.crawl(), q.url());
        if (store.page(key) != null) { // one look-up, not a walk of the host's pages
          t.addPage(page(store, host, key, lambda0, now));
        }
        return;
      }
      default -> {}
    }
    List<String> matching = new ArrayList<>();
    for (String key : store.committedPageKeys()) {
      if (PageKeys.inCrawl(key, q.crawl()) && q.matches(PageKeys.url(key))) {
        matching.add(key);
      }
    }
    if (matching.isEmpty()) {
      return;
    }
    switch (q.op()) {
      case DELETE_HOST, DELETE_CRAWL ->
          t.count +=
              scheduler.changeHost(
                  host,
                  clock,
                  lambda0,
                  (engine, s, ctx, o) -> engine.removePages(s, matching, ctx, o),
                  timers,
                  requests,
                  side);
      case LIST_URLS -> {
        t.count += matching.size();
        List<String> listed = q.after() == null ? matching : afterCursor(host, matching, q.after());
        for (String key : listed) {
          if (!t.wantsPages()) {
            break;
          }
          t.addPage(page(store, host, key, lambda0, now));
        }
      }
      case COUNT_URLS -> t.count += matching.size();
      case STATS, LIST_HOSTS -> {
        long inFlight;
        if (matching.size() == h.pages) {
          inFlight = h.inFlight; // the host's pages are all the crawl's: no page to read
        } else {
          inFlight = 0;
          for (String key : matching) {
            PageState p = store.page(key);
            if (p != null && p.inFlight()) {
              inFlight++;
            }
          }
        }
        t.count += matching.size();
        t.inFlight += inFlight;
        t.hosts++;
        if (q.op() == StateQuery.Op.LIST_HOSTS
            && (q.includeInactive() || active(store, h, matching, now))) {
          t.addHost(host);
        }
      }
      default -> throw new IllegalStateException("unhandled query " + q.op());
    }
  }

  /** The host's page keys in key order, those after the cursor's position only. */
  private static List<String> afterCursor(String host, List<String> keys, String cursor) {
    int nl = cursor.indexOf('\n');
    String cursorHost = cursor.substring(0, Math.max(0, nl));
    String cursorKey = nl < 0 ? "" : cursor.substring(nl + 1);
    TreeSet<String> sorted = new TreeSet<>(keys);
    return (host.equals(cursorHost) ? sorted.tailSet(cursorKey, false) : sorted).stream().toList();
  }

  /**
   * Whether a host has pages of the crawl that may still go: it is not blocked, and not every page
   * is ERROR (never fetched again). A page in flight counts: it waits in the crawler's queue.
   */
  private static boolean active(FlinkHostStore store, HostState h, List<String> pages, long now) {
    if (h.blockedUntil > now) {
      return false;
    }
    for (String key : pages) {
      PageState p = store.page(key);
      if (p != null && p.status != CrawlStatus.ERROR.ordinal()) {
        return true;
      }
    }
    return false;
  }

  private QueryAnswer.Page page(
      FlinkHostStore store, String host, String key, double lambda0, long now) {
    PageState p = store.page(key);
    return new QueryAnswer.Page(
        key,
        host,
        CrawlStatus.values()[p.status],
        p.lastFetch,
        scheduler.engine().dueAt(store, key, lambda0, now),
        p.inFlight(),
        p.metadata);
  }

  /** One subtask's answer as it is gathered, kept under the answer's size limit. */
  private final class Tally {
    final StateQuery q;
    final int part;
    final int parts;
    long count;
    long inFlight;
    long hosts;
    long hostsListed;
    long chars;
    boolean cut;
    final TreeSet<String> names = new TreeSet<>();
    final TreeSet<String> crawls = new TreeSet<>();
    final List<QueryAnswer.Page> pages = new ArrayList<>();

    final long now;

    Tally(StateQuery q, int parts, long now) {
      this.q = q;
      this.now = now;
      this.part = parts == 1 ? 0 : subtask;
      this.parts = parts;
    }

    /** Lists hold the first start + size results: the asker pages over the parts together. */
    private long room() {
      return q.start() + q.size();
    }

    boolean wantsPages() {
      return pages.size() < room() && !cut;
    }

    void addPage(QueryAnswer.Page p) {
      long c = QueryCodec.maxChars(p);
      if (chars + c > QueryCodec.MAX_ANSWER_CHARS / 2) {
        cut = true;
        return;
      }
      chars += c;
      pages.add(p);
    }

    void addHost(String host) {
      hostsListed++;
      if (q.after() != null && host.compareTo(q.after()) <= 0) {
        return; // listed by an earlier page
      }
      names.add(host);
      if (names.size() > room()) {
        names.pollLast(); // keeps the first in key order
      }
    }

    /**
     * Count: the crawls (crawl lists), the hosts listed (host lists), else pages. As of the query's
     * time, or the latest release if later: a status read ahead of event time may have released a
     * request stamped after the query, and a front end dropping what was released before a deletion
     * must drop that one too.
     */
    QueryAnswer answer() {
      long asOf = Math.max(now, scheduler.latestRelease());
      return switch (q.op()) {
        case LIST_CRAWLS ->
            new QueryAnswer(
                q.id(),
                part,
                parts,
                asOf,
                crawls.size(),
                0,
                0,
                List.copyOf(crawls),
                null,
                false,
                null);
        case LIST_HOSTS ->
            new QueryAnswer(
                q.id(),
                part,
                parts,
                asOf,
                hostsListed,
                inFlight,
                hosts,
                List.copyOf(names),
                null,
                false,
                null);
        default ->
            new QueryAnswer(
                q.id(), part, parts, asOf, count, inFlight, hosts, null, pages, cut, null);
      };
    }
  }
}
