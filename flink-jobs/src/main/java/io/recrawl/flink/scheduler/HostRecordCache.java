package io.recrawl.flink.scheduler;

import io.recrawl.engine.HostState;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.operators.KeyContext;
import org.apache.flink.util.FlinkRuntimeException;

/**
 * Host records on the heap, written back to RocksDB lazily; when full, all clean records are dropped.
 *
 * <p>A host record is read and rewritten at every event and wake-up of its host, and its RocksDB
 * {@code put} was a tenth of the operator's time. With a {@link KeyContext} (the operator's, see
 * {@link HostSchedulerOperator}) a changed record is only marked dirty, and all dirty records are
 * written when the operator {@link #flush}es: before every checkpoint barrier, at the end of input
 * and when the cache grows past its capacity. RocksDB then holds every record at each checkpoint,
 * which is all that recovery needs (a failure restores the last checkpoint, and the heap copy is
 * lost with the rest). Without a key context the cache is write-through.
 *
 * <p>A removed host is cached too, as a null record (its RocksDB entry must be cleared on flush).
 */
final class HostRecordCache {

  /** A cached record: null = the host has no record. */
  private static final class Entry {
    HostState record;
    boolean dirty;

    Entry(HostState record, boolean dirty) {
      this.record = record;
      this.dirty = dirty;
    }
  }

  // Not an access-ordered (LRU) map: relinking the entry on every look-up cost more, in cache misses,
  // than the occasional re-read of a host after the cache has been emptied.
  private final HashMap<String, Entry> entries = new HashMap<>(1024);
  private final ValueState<HostState> state;
  private final int capacity;
  private KeyContext keys;
  private int dirty;

  HostRecordCache(ValueState<HostState> state, int capacity) {
    this.state = state;
    this.capacity = capacity;
  }

  /** Switches to write-back: {@code keys} lets a flush move between hosts. */
  void writeBack(KeyContext keys) {
    this.keys = keys;
  }

  /** The committed record of {@code host} (the current key); null if it has none. Do not mutate it. */
  HostState get(String host) {
    Entry e = entries.get(host);
    if (e == null) {
      HostState stored;
      try {
        stored = state.value();
      } catch (Exception ex) {
        throw new FlinkRuntimeException("reading host state of " + host, ex);
      }
      e = new Entry(stored, false);
      entries.put(host, e);
      bound();
    }
    return e.record;
  }

  /** Commits the record of {@code host} (the current key); null removes it. */
  void put(String host, HostState record) {
    if (keys == null) {
      write(host, record);
      entries.put(host, new Entry(record, false));
      bound();
      return;
    }
    Entry e = entries.get(host);
    if (e == null) {
      entries.put(host, new Entry(record, true));
      dirty++;
    } else {
      e.record = record;
      if (!e.dirty) {
        e.dirty = true;
        dirty++;
      }
    }
    bound();
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
        if (e.dirty) {
          keys.setCurrentKey(m.getKey());
          write(m.getKey(), e.record);
          e.dirty = false;
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

  /**
   * Keeps the cache at its capacity: writes the dirty records back, then drops every clean record
   * (RocksDB has them all); the hosts in use come back one read each.
   */
  private void bound() {
    if (entries.size() <= capacity) {
      return;
    }
    if (keys != null) {
      flush();
    }
    Iterator<Entry> it = entries.values().iterator();
    while (it.hasNext()) {
      if (!it.next().dirty) {
        it.remove();
      }
    }
  }
}
