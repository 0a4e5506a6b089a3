package io.recrawl.flink.scheduler;

import io.recrawl.engine.HostState;
import io.recrawl.engine.PageState;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.PageKeys;
import io.recrawl.wire.QueryAnswer;
import io.recrawl.wire.StateQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.util.Collector;

/**
 * One host's part of a query: its pages read into the tally, or the query's change (a deletion, a
 * block) applied to them as an engine call on the host's clock.
 */
final class QueryVisit {

  private final HostSchedulerFunction scheduler;
  private final KeyedStateBackend<String> keys;
  private final TimerService timers;
  private final Collector<CrawlRequest> requests;
  private final SideOutput side;

  QueryVisit(
      HostSchedulerFunction scheduler,
      KeyedStateBackend<String> keys,
      TimerService timers,
      Collector<CrawlRequest> requests,
      SideOutput side) {
    this.scheduler = scheduler;
    this.keys = keys;
    this.timers = timers;
    this.requests = requests;
    this.side = side;
  }

  /**
   * {@link #visit}, and a host whose records cannot be read (or whose change throws) quarantined as
   * on the keyed path, if {@code recrawl.quarantine.max-hosts} allows, so that the others are
   * answered; else the answer fails, naming the host.
   */
  long visitOrQuarantine(
      String host, StateQuery q, QueryTally t, long now, long watermark, double lambda0) {
    try {
      return visit(host, q, t, now, watermark, lambda0);
    } catch (RuntimeException unreadable) {
      scheduler.quarantine().quarantineOrThrow(host, unreadable, now);
      scheduler.quarantine().sendLetters(side);
      return 0;
    }
  }

  /**
   * Adds one host's pages to the tally, or applies the change to them; returns the pages the host
   * held. A change runs on the host's clock as a status event would (ahead of event time, never
   * past the host's pending wake-up).
   */
  private long visit(
      String host, StateQuery q, QueryTally t, long now, long watermark, double lambda0) {
    keys.setCurrentKey(host);
    FlinkHostStore store = scheduler.read(host);
    HostState h = store.host();
    if (h == null) {
      return 0;
    }
    long held = Math.max(1, h.pages);
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
        return held;
      }
      case LIST_CRAWLS -> {
        for (String key : store.committedPageKeys()) {
          t.crawls.add(PageKeys.crawl(key));
        }
        return held;
      }
      case URL_STATUS -> {
        String key = PageKeys.of(q.crawl(), q.url());
        if (store.page(key) != null) { // one look-up, not a walk of the host's pages
          t.addPage(page(store, host, key, lambda0, now));
        }
        return held;
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
      return held;
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
    return held;
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
}
