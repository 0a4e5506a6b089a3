package io.recrawl.engine;

import java.util.HashMap;
import java.util.Map;

/** One host's state in plain hash maps: the simulator's store, and the reference for tests. */
public final class InMemoryHostStore implements HostStore {

  private HostState host;
  private final Map<String, PageState> pages = new HashMap<>();

  /** Slots by bucket (queue and bucket id), then by sequence number. */
  private final LongObjectMap<BucketSlots> slots = new LongObjectMap<>();

  @Override
  public HostState host() {
    return host;
  }

  @Override
  public void putHost(HostState host) {
    this.host = host;
  }

  @Override
  public void removeHost() {
    host = null;
  }

  @Override
  public PageState page(String url) {
    return pages.get(url);
  }

  /**
   * Records are live objects here, so re-putting the record this store already holds under the URL
   * (what the engine does after every change) needs no hash look-up.
   */
  @Override
  public void putPage(String url, PageState page) {
    if (holds(page, url)) {
      return;
    }
    PageState old = pages.put(url, page);
    if (old != null && old != page) {
      release(old);
    }
    page.heldBy = this;
    page.heldAs = url;
  }

  @Override
  public void removePage(String url) {
    PageState old = pages.remove(url);
    if (old != null && holds(old, url)) {
      release(old);
    }
  }

  /** Whether {@code page} is the record this store holds under {@code url}. */
  private boolean holds(PageState page, String url) {
    return page.heldBy == this && url.equals(page.heldAs);
  }

  private static void release(PageState page) {
    page.heldBy = null;
    page.heldAs = null;
  }

  @Override
  public String slot(long key) {
    BucketSlots b = bucket(SlotQueues.bucketOf(key));
    return b == null ? null : b.get(SlotQueues.seqOf(key));
  }

  @Override
  public void putSlot(long key, String url) {
    putSlot(key, url, null);
  }

  /**
   * Keeps the record with the slot: draining a bucket then reads each page without a URL look-up.
   */
  @Override
  public void putSlot(long key, String url, PageState page) {
    long bucket = SlotQueues.bucketOf(key);
    BucketSlots b = bucket(bucket);
    if (b == null) {
      b = new BucketSlots(SlotQueues.seqOf(key));
      slots.put(bucket, b);
      lastBucket = bucket;
      lastSlots = b;
    }
    b.put(SlotQueues.seqOf(key), url, page);
  }

  /** The record kept with the slot if it is still the one held under the URL, else a look-up. */
  @Override
  public PageState slotPage(long key, String url) {
    BucketSlots b = bucket(SlotQueues.bucketOf(key));
    PageState p = b == null ? null : b.page(SlotQueues.seqOf(key));
    return p != null && holds(p, url) ? p : pages.get(url);
  }

  @Override
  public void removeSlot(long key) {
    long bucket = SlotQueues.bucketOf(key);
    BucketSlots b = bucket(bucket);
    if (b != null && b.remove(SlotQueues.seqOf(key))) {
      slots.remove(bucket);
      lastSlots = null;
    }
  }

  // The bucket of the last slot read or written: a wake-up drains one bucket slot by slot, reading,
  // then removing each, so most calls hit it and skip the map.
  private long lastBucket;
  private BucketSlots lastSlots;

  private BucketSlots bucket(long bucket) {
    if (lastSlots != null && lastBucket == bucket) {
      return lastSlots;
    }
    BucketSlots b = slots.get(bucket);
    if (b != null) {
      lastBucket = bucket;
      lastSlots = b;
    }
    return b;
  }

  /**
   * One bucket's slots in sequence order: a bucket is filled at its tail and drained from its head,
   * so its slots sit next to each other in memory and a wake-up reads them in order.
   */
  private static final class BucketSlots {
    private String[] urls = new String[4];
    private PageState[] pages = new PageState[4];
    private int base; // sequence number of urls[0]
    private int live;

    BucketSlots(int firstSeq) {
      base = firstSeq;
    }

    String get(int seq) {
      int i = seq - base;
      return i >= 0 && i < urls.length ? urls[i] : null;
    }

    PageState page(int seq) {
      int i = seq - base;
      return i >= 0 && i < urls.length ? pages[i] : null;
    }

    void put(int seq, String url, PageState page) {
      if (seq < base || seq - base >= urls.length) {
        resize(seq);
      }
      int i = seq - base;
      if (urls[i] == null) {
        live++;
      }
      urls[i] = url;
      pages[i] = page;
    }

    /** Returns true when the bucket is left empty. */
    boolean remove(int seq) {
      int i = seq - base;
      if (i >= 0 && i < urls.length && urls[i] != null) {
        urls[i] = null;
        pages[i] = null;
        live--;
      }
      return live == 0;
    }

    /**
     * Re-bases the array at its first live slot (or {@code seq}) and makes room up to {@code seq}.
     */
    private void resize(int seq) {
      int first = seq;
      for (int i = 0; i < urls.length; i++) {
        if (urls[i] != null) {
          first = Math.min(first, base + i);
          break;
        }
      }
      int needed = Math.max(seq, base + urls.length - 1) - first + 1;
      int capacity = Math.max(4, Integer.highestOneBit(needed - 1) << 1);
      String[] grown = new String[capacity];
      PageState[] grownPages = new PageState[capacity];
      for (int i = 0; i < urls.length; i++) {
        if (urls[i] != null) {
          grown[base + i - first] = urls[i];
          grownPages[base + i - first] = pages[i];
        }
      }
      urls = grown;
      pages = grownPages;
      base = first;
    }
  }

  /** Number of page records; for tests that check state returns to zero. */
  public int pageCount() {
    return pages.size();
  }
}
