package io.recrawl.engine;

import java.util.HashMap;
import java.util.Map;

/** One host's state in plain hash maps: the simulator's store, and the reference for tests. */
public final class InMemoryHostStore implements HostStore {

  private HostState host;
  private final Map<String, PageState> pages = new HashMap<>();
  private final LongObjectMap<String> slots = new LongObjectMap<>();

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
    return slots.get(key);
  }

  @Override
  public void putSlot(long key, String url) {
    slots.put(key, url);
  }

  @Override
  public void removeSlot(long key) {
    slots.remove(key);
  }

  /** Number of page records; for tests that check state returns to zero. */
  public int pageCount() {
    return pages.size();
  }
}
