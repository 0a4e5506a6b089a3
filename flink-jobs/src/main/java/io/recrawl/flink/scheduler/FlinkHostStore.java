package io.recrawl.flink.scheduler;

import io.recrawl.engine.HostState;
import io.recrawl.engine.HostStore;
import io.recrawl.engine.PageState;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.util.FlinkRuntimeException;

/**
 * The engine's {@link HostStore} over Flink keyed state (the current key is the host). The host
 * record is read once per engine call and kept until {@link #reset}: the engine reads it several
 * times, and on RocksDB every read is a deserialisation.
 */
final class FlinkHostStore implements HostStore {

  private final ValueState<HostState> hostState;
  private final MapState<String, PageState> pages;
  private final MapState<Long, String> slots;
  private String hostKey;
  private HostState cached;
  private boolean loaded;

  FlinkHostStore(ValueState<HostState> hostState, MapState<String, PageState> pages, MapState<Long, String> slots) {
    this.hostState = hostState;
    this.pages = pages;
    this.slots = slots;
  }

  /** Starts an engine call for {@code host}, which must be the current key. */
  FlinkHostStore reset(String host) {
    hostKey = host;
    cached = null;
    loaded = false;
    return this;
  }

  @Override
  public HostState host() {
    if (!loaded) {
      try {
        cached = hostState.value();
      } catch (Exception e) {
        throw new FlinkRuntimeException("reading host state of " + hostKey, e);
      }
      loaded = true;
    }
    return cached;
  }

  @Override
  public void putHost(HostState host) {
    try {
      hostState.update(host);
    } catch (Exception e) {
      throw new FlinkRuntimeException("writing host state of " + hostKey, e);
    }
    cached = host;
    loaded = true;
  }

  @Override
  public void removeHost() {
    hostState.clear();
    cached = null;
    loaded = true;
  }

  @Override
  public PageState page(String url) {
    try {
      return pages.get(SchedulerState.compactUrl(hostKey, url));
    } catch (Exception e) {
      throw new FlinkRuntimeException("reading page " + url, e);
    }
  }

  @Override
  public void putPage(String url, PageState page) {
    try {
      pages.put(SchedulerState.compactUrl(hostKey, url), page);
    } catch (Exception e) {
      throw new FlinkRuntimeException("writing page " + url, e);
    }
  }

  @Override
  public void removePage(String url) {
    try {
      pages.remove(SchedulerState.compactUrl(hostKey, url));
    } catch (Exception e) {
      throw new FlinkRuntimeException("removing page " + url, e);
    }
  }

  @Override
  public String slot(long key) {
    try {
      String stored = slots.get(key);
      return stored == null ? null : SchedulerState.expandUrl(hostKey, stored);
    } catch (Exception e) {
      throw new FlinkRuntimeException("reading slot " + key + " of " + hostKey, e);
    }
  }

  @Override
  public void putSlot(long key, String url) {
    try {
      slots.put(key, SchedulerState.compactUrl(hostKey, url));
    } catch (Exception e) {
      throw new FlinkRuntimeException("writing slot " + key + " of " + hostKey, e);
    }
  }

  @Override
  public void removeSlot(long key) {
    try {
      slots.remove(key);
    } catch (Exception e) {
      throw new FlinkRuntimeException("removing slot " + key + " of " + hostKey, e);
    }
  }
}
