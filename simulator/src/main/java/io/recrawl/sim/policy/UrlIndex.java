package io.recrawl.sim.policy;

import io.recrawl.sim.workload.Workload;

/**
 * A workload's page numbers by URL in one long array: an open-addressing table whose entries hold
 * the URL's hash and the page number side by side. The crawl-value adapter looks up every released
 * URL; a hash map of boxed numbers cost a node and an Integer per look-up, each a cache miss at a
 * million pages, where this costs one probe (and the URL's own hash field).
 */
final class UrlIndex {

  private final Workload workload;

  /** Per slot: the URL's hash in the high half, page number + 1 in the low half; 0 = empty. */
  private final long[] table;

  private final int mask;

  UrlIndex(Workload workload) {
    this.workload = workload;
    int capacity = Integer.highestOneBit(Math.max(2, workload.pages()) * 2 - 1) << 1;
    table = new long[capacity];
    mask = capacity - 1;
    for (int p = 0; p < workload.pages(); p++) {
      int hash = workload.url(p).hashCode();
      int i = slot(hash);
      while (table[i] != 0) {
        i = (i + 1) & mask;
      }
      table[i] = ((long) hash << 32) | (p + 1L);
    }
  }

  /** The page with this URL, or -1 (workload URLs are distinct: the loader checks). */
  int page(String url) {
    int hash = url.hashCode();
    for (int i = slot(hash); table[i] != 0; i = (i + 1) & mask) {
      long entry = table[i];
      if ((int) (entry >>> 32) == hash) {
        int p = (int) entry - 1;
        String candidate = workload.url(p);
        if (candidate == url || candidate.equals(url)) {
          return p;
        }
      }
    }
    return -1;
  }

  private int slot(int hash) {
    int h = hash * 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask;
  }
}
