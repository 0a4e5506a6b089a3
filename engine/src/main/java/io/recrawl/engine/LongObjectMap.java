package io.recrawl.engine;

import java.util.function.ObjLongConsumer;

/**
 * An open-addressing hash map from long keys to objects: no boxed key and no entry object per
 * mapping. The in-memory store puts and removes a slot key per index operation; a boxed map
 * allocated two objects each time, which the simulator's heap of millions of pages paid for in GC.
 * The Flink store keeps each host's lease slots in one too.
 */
public final class LongObjectMap<V> {

  private long[] keys = new long[16];
  private Object[] values = new Object[16];
  private int size;

  public V get(long key) {
    int mask = keys.length - 1;
    for (int i = slot(key, mask); values[i] != null; i = (i + 1) & mask) {
      if (keys[i] == key) {
        @SuppressWarnings("unchecked")
        V v = (V) values[i];
        return v;
      }
    }
    return null;
  }

  /** Maps {@code key} to a non-null value. */
  public void put(long key, V value) {
    if (value == null) {
      throw new IllegalArgumentException("null value");
    }
    int mask = keys.length - 1;
    int i = slot(key, mask);
    for (; values[i] != null; i = (i + 1) & mask) {
      if (keys[i] == key) {
        values[i] = value;
        return;
      }
    }
    keys[i] = key;
    values[i] = value;
    if (++size * 2 > keys.length) {
      resize(keys.length * 2);
    }
  }

  /** Removes the mapping of {@code key}; returns whether there was one. */
  public boolean remove(long key) {
    int mask = keys.length - 1;
    int i = slot(key, mask);
    while (values[i] != null && keys[i] != key) {
      i = (i + 1) & mask;
    }
    if (values[i] == null) {
      return false;
    }
    // Backward-shift deletion: move later entries of the probe run into the hole, so lookups never
    // need tombstones.
    int hole = i;
    for (int j = (hole + 1) & mask; values[j] != null; j = (j + 1) & mask) {
      int home = slot(keys[j], mask);
      boolean movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        keys[hole] = keys[j];
        values[hole] = values[j];
        hole = j;
      }
    }
    values[hole] = null;
    size--;
    return true;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** Calls {@code action} with every value and its key, in no particular order. */
  public void forEach(ObjLongConsumer<V> action) {
    for (int i = 0; i < keys.length; i++) {
      if (values[i] != null) {
        @SuppressWarnings("unchecked")
        V v = (V) values[i];
        action.accept(v, keys[i]);
      }
    }
  }

  private void resize(int capacity) {
    long[] oldKeys = keys;
    Object[] oldValues = values;
    keys = new long[capacity];
    values = new Object[capacity];
    int mask = capacity - 1;
    for (int k = 0; k < oldKeys.length; k++) {
      if (oldValues[k] != null) {
        int i = slot(oldKeys[k], mask);
        while (values[i] != null) {
          i = (i + 1) & mask;
        }
        keys[i] = oldKeys[k];
        values[i] = oldValues[k];
      }
    }
  }

  // Slot keys put the bucket in the high bits and a sequence in the low ones: mix them all.
  private static int slot(long key, int mask) {
    long z = key * 0x9E3779B97F4A7C15L;
    return (int) (z ^ (z >>> 32)) & mask;
  }
}
