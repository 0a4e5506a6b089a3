package io.recrawl.flink.scheduler;

import io.recrawl.engine.HostState;
import io.recrawl.engine.HostStore;
import io.recrawl.engine.PageState;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.operators.KeyContext;
import org.apache.flink.util.FlinkRuntimeException;

/**
 * The engine's {@link HostStore} over Flink keyed state (the current key is the host), one engine
 * call at a time: {@link #begin}, the engine's reads and writes, then {@link #commit} or {@link
 * #rollback}.
 *
 * <p>Within a call, writes are held on the heap and read back from there; the commit applies only
 * their net effect. A wake-up moves a page from its due slot to a ready slot and, most of the time,
 * straight on to a lease slot: written through, that was two page reads, two page writes, a slot
 * written and deleted again; here it is one read and one write per record. A call that fails leaves
 * RocksDB untouched (it used to leave it half-written).
 *
 * <p>Host records go through a {@link HostRecordCache}: they are written back to RocksDB at
 * checkpoints rather than at every event. So are lease slots, kept per host in one {@link
 * LeaseSlots} value rather than as a slot entry each. The engine mutates the record it is given, so
 * a call works on a copy, and the copy becomes the cached record on commit.
 */
final class FlinkHostStore implements HostStore {

  /** Host records kept on the heap. */
  static final int CACHED_HOSTS = 1 << 16;

  /**
   * Heap bytes of host records and lease slots kept, about: an eighth of the JVM's heap, at least
   * 64 MiB (docs/operations.md). Lease slots dominate, one per URL in flight, so a bound below a
   * crawl's working set makes the cache let go of every record again and again; one in bytes at all
   * keeps a host with thousands in flight from taking the heap.
   */
  static long cachedBytes() {
    return Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 8);
  }

  private long reads;
  private final ValueState<HostState> hostState;
  private final ValueState<LeaseSlots> leaseState;
  private final MapState<String, PageState> pages;
  private final MapState<Long, String> slots;
  private final HostRecordCache hosts;
  private final boolean keepsLeases;

  // The call in progress.
  private String hostKey;
  private HostState host;
  private boolean hostLoaded;
  private boolean hostChanged;

  /** Pages written in this call, by URL; a null value is a removal. */
  private Map<String, PageState> pageWrites = new HashMap<>();

  /** Slots written in this call (key to URL); a null value is a removal. */
  private Map<Long, String> slotWrites = new HashMap<>();

  /** Slots created in this call: they are not in RocksDB, so removing one needs no delete. */
  private HashSet<Long> newSlots = new HashSet<>();

  /** Writes of a typical call; the write tables are made anew after a call with more. */
  private static final int SMALL_CALL = 12;

  /**
   * @param leaseState where lease slots are kept (see {@link LeaseSlots}); null = in {@code slots}
   */
  FlinkHostStore(
      ValueState<HostState> hostState,
      ValueState<LeaseSlots> leaseState,
      MapState<String, PageState> pages,
      MapState<Long, String> slots) {
    this.hostState = hostState;
    this.leaseState = leaseState;
    this.pages = pages;
    this.slots = slots;
    this.hosts = new HostRecordCache(hostState, leaseState, CACHED_HOSTS, cachedBytes());
    this.keepsLeases = leaseState != null;
  }

  /** Host records are written back at {@link #flush} (checkpoints) instead of on every commit. */
  void writeBack(KeyContext keys) {
    hosts.writeBack(keys);
  }

  /** The host record cache, for its metrics. */
  HostRecordCache hostCache() {
    return hosts;
  }

  /** Writes the host records changed since the last flush to RocksDB. */
  void flush() {
    hosts.flush();
  }

  /** Starts an engine call for {@code host}, which must be the current key. */
  FlinkHostStore begin(String key) {
    hostKey = key;
    host = null;
    hostLoaded = false;
    clearWrites();
    return this;
  }

  /**
   * Applies the call's writes to keyed state. The host record stays readable until the next call.
   */
  void commit() {
    LeaseSlots leases = keepsLeases && !slotWrites.isEmpty() ? hosts.leases(hostKey) : null;
    boolean leasesChanged = false;
    try {
      for (Map.Entry<Long, String> e : slotWrites.entrySet()) {
        long key = e.getKey();
        String url = e.getValue();
        if (url == null) {
          if (leases != null && leases.remove(key)) {
            leasesChanged = true;
          } else {
            slots.remove(key);
          }
        } else if (leases != null && isLeaseSlot(key, url) && leases.size() < LeaseSlots.MAX) {
          leases.put(key, SchedulerState.compactUrl(hostKey, url));
          leasesChanged = true;
        } else {
          slots.put(key, SchedulerState.compactUrl(hostKey, url));
        }
      }
      for (Map.Entry<String, PageState> e : pageWrites.entrySet()) {
        String key = SchedulerState.compactUrl(hostKey, e.getKey());
        if (e.getValue() == null) {
          pages.remove(key);
        } else {
          pages.put(key, e.getValue());
        }
      }
    } catch (Exception e) {
      throw new FlinkRuntimeException("writing the state of " + hostKey, e);
    }
    if (leasesChanged) {
      hosts.leasesChanged(hostKey);
    }
    if (hostChanged) {
      hosts.put(hostKey, host);
    }
    clearWrites();
  }

  /**
   * Whether a slot written in this call is its page's lease slot: the page, written in the same
   * call, is in flight and indexed under this key (the engine indexes a released page at its lease
   * expiry).
   */
  private boolean isLeaseSlot(long key, String url) {
    PageState p = pageWrites.get(url);
    return p != null && p.slot == key && p.leaseUntil != 0;
  }

  /** Drops the call's writes: the host's state is as before the call. */
  void rollback() {
    clearWrites();
    host = null;
    hostLoaded = false;
  }

  /**
   * Clears all keyed state of {@code key}, the current key: host record, lease slots, pages and
   * slots, cached or not. Reads none of it: a record that cannot be read is cleared too.
   */
  void quarantine(String key) {
    rollback();
    hosts.forget(key);
    try {
      hostState.clear();
      if (leaseState != null) {
        leaseState.clear();
      }
      pages.clear();
      slots.clear();
    } catch (Exception e) {
      throw new FlinkRuntimeException("clearing the state of " + key, e);
    }
  }

  private void clearWrites() {
    if (pageWrites.size() > SMALL_CALL
        || slotWrites.size() > SMALL_CALL
        || newSlots.size() > SMALL_CALL) {
      // A big call (a wake-up draining many slots) grows the tables for good, and clearing and
      // iterating a hash table costs its capacity, not its size: start small again.
      pageWrites = new HashMap<>();
      slotWrites = new HashMap<>();
      newSlots = new HashSet<>();
    } else {
      pageWrites.clear();
      slotWrites.clear();
      newSlots.clear();
    }
    hostChanged = false;
  }

  @Override
  public HostState host() {
    if (!hostLoaded) {
      HostState committed = hosts.get(hostKey);
      host = committed == null ? null : HostStateSerializer.INSTANCE.copy(committed);
      hostLoaded = true;
    }
    return host;
  }

  @Override
  public void putHost(HostState record) {
    host = record;
    hostLoaded = true;
    hostChanged = true;
  }

  @Override
  public void removeHost() {
    host = null;
    hostLoaded = true;
    hostChanged = true;
  }

  @Override
  public PageState page(String url) {
    PageState written = pageWrites.get(url);
    if (written != null || pageWrites.containsKey(url)) { // a null value is a removal in this call
      return written;
    }
    reads++;
    try {
      return pages.get(SchedulerState.compactUrl(hostKey, url));
    } catch (Exception e) {
      throw new FlinkRuntimeException("reading page " + url, e);
    }
  }

  /** Pages read from keyed state so far: the work that bounds a catch-up's steps. */
  long reads() {
    return reads;
  }

  /**
   * The keys of the current host's pages as committed (a call's own writes are not in it); for
   * front-end queries, which read between calls.
   */
  Iterable<String> committedPageKeys() {
    String key = hostKey;
    return () -> {
      Iterator<String> stored;
      try {
        stored = pages.keys().iterator();
      } catch (Exception e) {
        throw new FlinkRuntimeException("reading the pages of " + key, e);
      }
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return stored.hasNext();
        }

        @Override
        public String next() {
          return SchedulerState.expandUrl(key, stored.next());
        }
      };
    };
  }

  @Override
  public void putPage(String url, PageState page) {
    pageWrites.put(url, page);
  }

  @Override
  public void removePage(String url) {
    pageWrites.put(url, null);
  }

  @Override
  public String slot(long key) {
    Long k = key;
    String written = slotWrites.get(k);
    if (written != null || slotWrites.containsKey(k)) { // a null value is a removal in this call
      return written;
    }
    if (keepsLeases) {
      String leased = hosts.leases(hostKey).get(key);
      if (leased != null) {
        return SchedulerState.expandUrl(hostKey, leased);
      }
    }
    try {
      String stored = slots.get(k);
      return stored == null ? null : SchedulerState.expandUrl(hostKey, stored);
    } catch (Exception e) {
      throw new FlinkRuntimeException("reading slot " + key + " of " + hostKey, e);
    }
  }

  /**
   * The engine puts a slot only under a key that {@link io.recrawl.engine.SlotQueues#push} has just
   * handed out, and every slot popped is removed, so the key is not in RocksDB yet.
   */
  @Override
  public void putSlot(long key, String url) {
    slotWrites.put(key, url);
    newSlots.add(key);
  }

  @Override
  public void removeSlot(long key) {
    Long k = key;
    if (newSlots.remove(k)) {
      slotWrites.remove(k); // created and removed within the call: RocksDB never sees it
    } else {
      slotWrites.put(k, null);
    }
  }
}
