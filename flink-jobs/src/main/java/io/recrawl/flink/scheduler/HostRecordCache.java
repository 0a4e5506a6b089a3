package io.recrawl.flink.scheduler;

import io.recrawl.engine.HostState;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.operators.KeyContext;
import org.apache.flink.util.FlinkRuntimeException;

/**
 * Host records and their {@link LeaseSlots} on the heap, written back to RocksDB lazily; when full
 * (in hosts, or in bytes: one host's lease slots can be thousands of URLs), all clean records are
 * dropped.
 *
 * <p>A host record is read and rewritten at every event and wake-up of its host, and a RocksDB
 * {@code put} of it each time was a large share of the operator's work (see
 * docs/decisions/job-throughput.md). With a {@link KeyContext} (the operator's, see {@link
 * HostSchedulerOperator}) a changed record is only marked dirty, and all dirty records are written
 * when the operator {@link #flush}es: before every checkpoint barrier, at the end of input and when
 * the cache grows past its capacity. RocksDB then holds every record at each checkpoint, which is
 * all that recovery needs (a failure restores the last checkpoint, and the heap copy is lost with
 * the rest). Without a key context the cache is write-through.
 *
 * <p>A removed host is cached too, as a null record (its RocksDB entry must be cleared on flush).
 */
final class HostRecordCache {

  /** A cached record: null = the host has no record. */
  private static final class Entry {
    HostState record;
    boolean dirty;

    /** Null until first asked for. */
    LeaseSlots leases;

    boolean leasesDirty;

    /** Heap bytes counted for this entry in {@link #bytes}. */
    long bytes;

    Entry(HostState record) {
      this.record = record;
    }

    boolean needsFlush() {
      return dirty || leasesDirty;
    }
  }

  // Not an access-ordered (LRU) map: relinking the entry on every look-up cost more, in cache
  // misses,
  // than the occasional re-read of a host after the cache has been emptied.
  private final HashMap<String, Entry> entries = new HashMap<>(1024);
  private final ValueState<HostState> state;
  private final ValueState<LeaseSlots> leaseState;
  private final int capacity;
  private final long maxBytes;
  private KeyContext keys;

  /** About how many bytes of heap the cached records and lease slots take. */
  private volatile long bytes;

  /** Times the cache was emptied of clean records because it was full. */
  private volatile long drops;

  /** Entries that need a flush. */
  private int dirty;

  /**
   * The entry looked up last, by the identity of its host key (never dropped by {@link #bound}).
   */
  private String lastHost;

  private Entry lastEntry;

  HostRecordCache(ValueState<HostState> state, int capacity, long maxBytes) {
    this(state, null, capacity, maxBytes);
  }

  /**
   * @param leaseState where {@link #leases} are kept; null if the caller keeps none
   * @param capacity most hosts kept
   * @param maxBytes most heap bytes kept, about (see {@link #bytesOf})
   */
  HostRecordCache(
      ValueState<HostState> state, ValueState<LeaseSlots> leaseState, int capacity, long maxBytes) {
    this.state = state;
    this.leaseState = leaseState;
    this.capacity = capacity;
    this.maxBytes = maxBytes;
  }

  /** About how many bytes of heap the cache holds now. */
  long bytes() {
    return bytes;
  }

  /** Times the cache was full and dropped its clean records. */
  long drops() {
    return drops;
  }

  /** Switches to write-back: {@code keys} lets a flush move between hosts. */
  void writeBack(KeyContext keys) {
    this.keys = keys;
  }

  /**
   * The committed record of {@code host} (the current key); null if it has none. Do not mutate it.
   */
  HostState get(String host) {
    return entry(host).record;
  }

  /**
   * The lease slots of {@code host} (the current key), read on first use; the caller may change
   * them and must then call {@link #leasesChanged}.
   */
  LeaseSlots leases(String host) {
    Entry e = entry(host);
    if (e.leases == null) {
      LeaseSlots stored;
      try {
        stored = leaseState.value();
      } catch (Exception ex) {
        throw new FlinkRuntimeException("reading the lease slots of " + host, ex);
      }
      e.leases = stored == null ? new LeaseSlots() : stored;
      recount(e);
    }
    return e.leases;
  }

  /** Commits a change the caller made to the {@link #leases} of {@code host} (the current key). */
  void leasesChanged(String host) {
    Entry e = host == lastHost ? lastEntry : entries.get(host);
    if (e == null || e.leases == null) {
      throw new IllegalStateException("lease slots of " + host + " changed without being read");
    }
    recount(e);
    if (keys == null) {
      writeLeases(host, e.leases);
      return;
    }
    if (!e.needsFlush()) {
      dirty++;
    }
    e.leasesDirty = true;
    bound(host);
  }

  /** Commits the record of {@code host} (the current key); null removes it. */
  void put(String host, HostState record) {
    Entry e = host == lastHost ? lastEntry : entries.get(host);
    if (e == null) {
      e = new Entry(null);
      entries.put(host, e);
    }
    lastHost = host;
    lastEntry = e;
    e.record = record;
    recount(e);
    if (keys == null) {
      write(host, record);
    } else {
      if (!e.needsFlush()) {
        dirty++;
      }
      e.dirty = true;
    }
    bound(host);
  }

  /**
   * Forgets {@code host}'s record and lease slots, written back or not: the caller clears its state
   * (a quarantine).
   */
  void forget(String host) {
    Entry e = entries.remove(host);
    if (e != null) {
      if (e.needsFlush()) {
        dirty--;
      }
      bytes -= e.bytes;
    }
    if (host.equals(lastHost)) {
      lastHost = null;
      lastEntry = null;
    }
  }

  /** Writes every dirty record to RocksDB; the current key is the same afterwards. */
  void flush() {
    if (dirty == 0) {
      return;
    }
    Object current = keys.getCurrentKey();
    try {
      for (Map.Entry<String, Entry> m : entries.entrySet()) {
        Entry e = m.getValue();
        if (e.needsFlush()) {
          keys.setCurrentKey(m.getKey());
          if (e.dirty) {
            write(m.getKey(), e.record);
            e.dirty = false;
          }
          if (e.leasesDirty) {
            writeLeases(m.getKey(), e.leases);
            e.leasesDirty = false;
          }
        }
      }
      dirty = 0;
    } finally {
      if (current != null) {
        keys.setCurrentKey(current);
      }
    }
  }

  /** Number of records not yet in RocksDB; for tests. */
  int dirtyCount() {
    return dirty;
  }

  private Entry entry(String host) {
    if (host == lastHost) {
      return lastEntry; // a call asks for its host's entry several times: one look-up
    }
    Entry e = entries.get(host);
    if (e == null) {
      HostState stored;
      try {
        stored = state.value();
      } catch (Exception ex) {
        throw new FlinkRuntimeException("reading host state of " + host, ex);
      }
      e = new Entry(stored);
      entries.put(host, e);
      recount(e);
      bound(host);
    }
    lastHost = host;
    lastEntry = e;
    return e;
  }

  private void write(String host, HostState record) {
    try {
      if (record == null) {
        state.clear();
      } else {
        state.update(record);
      }
    } catch (Exception ex) {
      throw new FlinkRuntimeException("writing host state of " + host, ex);
    }
  }

  private void writeLeases(String host, LeaseSlots leases) {
    try {
      if (leases.isEmpty()) {
        leaseState.clear();
      } else {
        leaseState.update(leases);
      }
    } catch (Exception ex) {
      throw new FlinkRuntimeException("writing the lease slots of " + host, ex);
    }
  }

  /**
   * Keeps the cache within its capacity and its bytes: writes the dirty records back, then drops
   * every clean record (RocksDB has them all) but the one of {@code current}, the host in use; the
   * others come back one read each.
   */
  private void bound(String current) {
    if (entries.size() <= capacity && bytes <= maxBytes) {
      return;
    }
    if (keys != null) {
      flush();
    }
    long kept = 0;
    Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, Entry> m = it.next();
      if (!m.getValue().needsFlush() && !m.getKey().equals(current)) {
        it.remove();
      } else {
        kept += m.getValue().bytes;
      }
    }
    bytes = kept;
    drops++;
  }

  /** Counts the entry's bytes anew after its record or lease slots changed. */
  private void recount(Entry e) {
    long now = bytesOf(e.record) + (e.leases == null ? 0 : e.leases.heapBytes());
    bytes += now - e.bytes;
    e.bytes = now;
  }

  /** About how many bytes of heap a host record takes: its fields, curve and slot queues. */
  static long bytesOf(HostState h) {
    if (h == null) {
      return 64; // the map entry of a removed host
    }
    long curve = h.curve == null ? 0 : 16 + 8L * h.curve.length;
    return 256 + curve + h.due.heapBytes() + h.ready.heapBytes();
  }
}
