package io.recrawl.flink.tools.frontier;

import io.recrawl.engine.HostState;
import io.recrawl.engine.HostStore;
import io.recrawl.engine.PageState;
import java.util.HashMap;
import java.util.Map;

/** One host's state in hash maps that can be read back whole, for writing it to a savepoint. */
final class RecordingHostStore implements HostStore {

  private HostState host;
  final Map<String, PageState> pages = new HashMap<>();
  final Map<Long, String> slots = new HashMap<>();

  @Override
  public HostState host() {
    return host;
  }

  @Override
  public void putHost(HostState h) {
    host = h;
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
}
