package io.recrawl.engine;

import io.recrawl.wire.CrawlStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * The search a limited host makes when it has a free slot and nothing ready: the most valuable of
 * the first few pages of its due queue. The pages examined and not chosen are re-indexed at the
 * current threshold, which moves re-check entries (pages far from due) off the head of the queue.
 */
final class FreeSlotSearch {

  /**
   * Candidates a free slot compares, and head entries it may pop to find them (stale ones
   * included).
   */
  private static final int PULL_CANDIDATES = 8;

  private static final int PULL_POPS = 64;

  /** The page found, taken off its queue, with its crawl value now. */
  record Candidate(String url, PageState page, double value) {}

  /** A page the search took off its bucket and puts back there. */
  private record SetAside(DueIndex.Taken taken, long bucket) {}

  private final DueIndex dueIndex;
  private final PageValuation valuation;

  FreeSlotSearch(DueIndex dueIndex, PageValuation valuation) {
    this.dueIndex = dueIndex;
    this.valuation = valuation;
  }

  /**
   * The best candidate, which the caller must release or index again; null when the head of the due
   * queue holds none.
   */
  Candidate best(HostStore store, HostState h, long now, double theta) {
    DueIndex.Taken best = null;
    double bestValue = Double.NEGATIVE_INFINITY;
    int candidates = 0;
    List<SetAside> passed = null;
    for (int pops = 0;
        candidates < PULL_CANDIDATES && pops < PULL_POPS && !h.due.isEmpty();
        pops++) {
      long bucket = h.due.firstBucket();
      DueIndex.Taken t = DueIndex.take(store, h.due, DueIndex.DUE, bucket);
      if (t == null) {
        continue;
      }
      PageState p = t.page();
      if (p.forced
          || p.inFlight()
          || p.status == CrawlStatus.ERROR.ordinal()
          || !valuation.revisitAllowed(p, now)) {
        // Not a candidate (a retry in its back-off, a lease, an error, a page visited within
        // revisit.min-interval): it goes back into its own
        // bucket once the search is over. Put back at once, it could land in the head bucket again
        // and be popped over and over, and the search would end with the slot unused.
        if (passed == null) {
          passed = new ArrayList<>();
        }
        passed.add(new SetAside(t, bucket));
        continue;
      }
      candidates++;
      double v = valuation.crawlValue(h, p, now);
      if (v > bestValue) {
        if (best != null) {
          dueIndex.schedule(store, h, best.page(), best.url(), theta, now);
        }
        best = t;
        bestValue = v;
      } else {
        dueIndex.schedule(store, h, p, t.url(), theta, now);
      }
    }
    for (int i = 0; passed != null && i < passed.size(); i++) {
      SetAside a = passed.get(i);
      DueIndex.replaceSlot(
          store, a.taken.page(), a.taken.url(), h.due.push(DueIndex.DUE, a.bucket));
    }
    return best == null ? null : new Candidate(best.url(), best.page(), bestValue);
  }
}
