package io.recrawl.engine;

import java.util.HashMap;
import java.util.Map;

/** One host's state in plain hash maps: the simulator's store, and the reference for tests. */
public final class InMemoryHostStore implements HostStore {

  private HostState host;
  private final Map<String, PageState> pages = new HashMap<>();
  private final Map<Long, String> slots = new HashMap<>();

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

  // Slot keys put the bucket in the high word and the sequence in the low one, and Long.hashCode
  // folds the two words together: whole buckets would collide. A bijective mix spreads them.
  private static long mix(long key) {
    long z = key * 0x9E3779B97F4A7C15L;
    return z ^ (z >>> 31);
  }

  @Override
  public String slot(long key) {
    return slots.get(mix(key));
  }

  @Override
  public void putSlot(long key, String url) {
    slots.put(mix(key), url);
  }

  @Override
  public void removeSlot(long key) {
    slots.remove(mix(key));
  }

  /** Number of page records; for tests that check state returns to zero. */
  public int pageCount() {
    return pages.size();
  }
}
