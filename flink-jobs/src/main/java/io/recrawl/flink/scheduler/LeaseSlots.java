package io.recrawl.flink.scheduler;

import io.recrawl.engine.LongObjectMap;
import java.util.function.ObjLongConsumer;

/**
 * The lease slots of one host (slot key to stored URL), kept beside its host record instead of one
 * RocksDB entry each.
 *
 * <p>A released page is indexed at its lease expiry, and that slot is removed again when the page's
 * status comes back: as RocksDB entries, a put and a delete for nearly every release, for a slot
 * that is hardly ever read. Held here, they are written with the host record, once per checkpoint.
 * A host has at most its in-flight pages here, and at most {@link #MAX} (further lease slots go to
 * RocksDB).
 */
public final class LeaseSlots {

  /** Most slots one host keeps here: bounds the record rewritten at each checkpoint. */
  static final int MAX = 4096;

  private final LongObjectMap<String> slots = new LongObjectMap<>();

  public int size() {
    return slots.size();
  }

  public boolean isEmpty() {
    return slots.isEmpty();
  }

  /** Heap bytes counted per slot: its map entry and a stored URL of typical length. */
  static final int BYTES_PER_SLOT = 160;

  /** About how many bytes of heap these slots take. */
  long heapBytes() {
    return 64 + (long) BYTES_PER_SLOT * slots.size();
  }

  /** The stored URL of a slot, or null. */
  public String get(long key) {
    return slots.get(key);
  }

  /** Maps a slot to a non-null stored URL. */
  public void put(long key, String url) {
    slots.put(key, url);
  }

  /** Removes a slot; returns whether it was here. */
  public boolean remove(long key) {
    return slots.remove(key);
  }

  /** Calls {@code action} for every slot, in no particular order. */
  public void forEach(ObjLongConsumer<String> action) {
    slots.forEach(action);
  }
}
