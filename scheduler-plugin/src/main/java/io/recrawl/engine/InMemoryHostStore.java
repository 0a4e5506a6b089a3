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

  @Override
  public void putPage(String url, PageState page) {
    pages.put(url, page);
  }

  @Override
  public void removePage(String url) {
    pages.remove(url);
  }

  @Override
  public String slot(long key) {
    BucketSlots b = slots.get(SlotQueues.bucketOf(key));
    return b == null ? null : b.get(SlotQueues.seqOf(key));
  }

  @Override
  public void putSlot(long key, String url) {
    long bucket = SlotQueues.bucketOf(key);
    BucketSlots b = slots.get(bucket);
    if (b == null) {
      b = new BucketSlots(SlotQueues.seqOf(key));
      slots.put(bucket, b);
    }
    b.put(SlotQueues.seqOf(key), url);
  }

  @Override
  public void removeSlot(long key) {
    long bucket = SlotQueues.bucketOf(key);
    BucketSlots b = slots.get(bucket);
    if (b != null && b.remove(SlotQueues.seqOf(key))) {
      slots.remove(bucket);
    }
  }

  /**
   * One bucket's slots in sequence order: a bucket is filled at its tail and drained from its head,
   * so its slots sit next to each other in memory and a wake-up reads them in order.
   */
  private static final class BucketSlots {
    private String[] urls = new String[4];
    private int base; // sequence number of urls[0]
    private int live;

    BucketSlots(int firstSeq) {
      base = firstSeq;
    }

    String get(int seq) {
      int i = seq - base;
      return i >= 0 && i < urls.length ? urls[i] : null;
    }

    void put(int seq, String url) {
      if (seq < base || seq - base >= urls.length) {
        resize(seq);
      }
      int i = seq - base;
      if (urls[i] == null) {
        live++;
      }
      urls[i] = url;
    }

    /** Returns true when the bucket is left empty. */
    boolean remove(int seq) {
      int i = seq - base;
      if (i >= 0 && i < urls.length && urls[i] != null) {
        urls[i] = null;
        live--;
      }
      return live == 0;
    }

    /** Re-bases the array at its first live slot (or {@code seq}) and makes room up to {@code seq}. */
    private void resize(int seq) {
      int first = seq;
      for (int i = 0; i < urls.length; i++) {
        if (urls[i] != null) {
          first = Math.min(first, base + i);
          break;
        }
      }
      int needed = Math.max(seq, base + urls.length - 1) - first + 1;
      String[] grown = new String[Math.max(4, Integer.highestOneBit(needed - 1) << 1)];
      for (int i = 0; i < urls.length; i++) {
        if (urls[i] != null) {
          grown[base + i - first] = urls[i];
        }
      }
      urls = grown;
      base = first;
    }
  }

  /** Number of page records; for tests that check state returns to zero. */
  public int pageCount() {
    return pages.size();
  }
}
