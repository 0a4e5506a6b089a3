package io.recrawl.flink.scheduler;

import io.recrawl.engine.HostState;
import io.recrawl.engine.HostStore;
import io.recrawl.engine.PageState;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.util.FlinkRuntimeException;

/**
 * The engine's {@link HostStore} over Flink keyed state (the current key is the host).
 *
 * <p>Host records are also kept in a bounded write-through cache on the heap: a host record (its
 * demand curve, its queue heads) is read and rewritten on every event of the host, and a RocksDB read
 * of it was the top cost of the operator. RocksDB stays the state of record: every put goes there too,
 * so checkpoints see it; the cache is transient and starts empty after a restore. Pages and slots are
 * not cached: one URL's events are rare, a host's are not.
 */
final class FlinkHostStore implements HostStore {

  private final ValueState<HostState> hostState;
  private final MapState<String, PageState> pages;
  private final MapState<Long, String> slots;
  private final HostCache cache = new HostCache(CACHED_HOSTS);
  private String hostKey;
  private HostState cached;
  private boolean loaded;

  /** Host records kept on the heap, most recently used first. */
  static final int CACHED_HOSTS = 1 << 16;

  /** An LRU map; a removed host is cached as absent too (its state is gone). */
  private static final class HostCache extends java.util.LinkedHashMap<String, HostState> {
    private static final long serialVersionUID = 1L;
    private final int capacity;

    HostCache(int capacity) {
      super(1024, 0.75f, true);
      this.capacity = capacity;
    }

    @Override
    protected boolean removeEldestEntry(java.util.Map.Entry<String, HostState> eldest) {
      return size() > capacity;
    }
  }

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
      if (cache.containsKey(hostKey)) {
        cached = cache.get(hostKey);
      } else {
        try {
          cached = hostState.value();
        } catch (Exception e) {
          throw new FlinkRuntimeException("reading host state of " + hostKey, e);
        }
        cache.put(hostKey, cached);
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
    cache.put(hostKey, host);
  }

  @Override
  public void removeHost() {
    hostState.clear();
    cached = null;
    loaded = true;
    cache.put(hostKey, null);
  }

  /**
   * Forgets the current host's cached record: after an engine call that failed half-way, the heap
   * copy may hold changes that never reached RocksDB.
   */
  void invalidate() {
    cache.remove(hostKey);
    loaded = false;
    cached = null;
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
