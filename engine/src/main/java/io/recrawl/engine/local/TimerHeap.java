package io.recrawl.engine.local;

import java.util.Arrays;

/**
 * The hosts with a wake-up, as a binary min-heap on their wake time: one entry per host, hosts
 * known by number. The heap is primitive arrays (host numbers, wake times, and each host's place by
 * number): sifting reads no host record, each a cache miss with thousands of hosts, and writes no
 * reference, which the collector would have to track.
 */
final class TimerHeap {

  private int[] ids = new int[64];
  private long[] keys = new long[64];
  private int size;

  /** Each host number's place in the heap; -1 = no wake-up. */
  private int[] placeOf = new int[64];

  /** Makes room for host number {@code id}, without a wake-up. */
  void track(int id) {
    if (id >= placeOf.length) {
      placeOf = Arrays.copyOf(placeOf, Math.max(id + 1, placeOf.length * 2));
    }
    placeOf[id] = -1;
  }

  int size() {
    return size;
  }

  /** The host number at place {@code i} (0 = the earliest wake-up). */
  int idAt(int i) {
    return ids[i];
  }

  /** The wake time at place {@code i}. */
  long keyAt(int i) {
    return keys[i];
  }

  /** Moves host {@code id}'s wake-up to {@code time} (Long.MAX_VALUE = none). */
  void set(int id, long time) {
    int i = placeOf[id];
    if (i < 0) {
      if (time == Long.MAX_VALUE) {
        return;
      }
      if (size == ids.length) {
        ids = Arrays.copyOf(ids, size * 2);
        keys = Arrays.copyOf(keys, size * 2);
      }
      up(size++, id, time);
    } else if (time == Long.MAX_VALUE) {
      int last = ids[--size];
      placeOf[id] = -1;
      if (last != id) {
        long lastKey = keys[size];
        down(up(i, last, lastKey), last, lastKey);
      }
    } else {
      down(up(i, id, time), id, time);
    }
  }

  /**
   * Sifts host {@code id} with wake time {@code key} up from the free place {@code i}; returns
   * where it lands.
   */
  private int up(int i, int id, long key) {
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (keys[parent] <= key) {
        break;
      }
      place(ids[parent], keys[parent], i);
      i = parent;
    }
    place(id, key, i);
    return i;
  }

  /** Sifts host {@code id} with wake time {@code key}, at place {@code i}, down. */
  private void down(int i, int id, long key) {
    while (true) {
      int child = 2 * i + 1;
      if (child >= size) {
        break;
      }
      if (child + 1 < size && keys[child + 1] < keys[child]) {
        child++;
      }
      if (keys[child] >= key) {
        break;
      }
      place(ids[child], keys[child], i);
      i = child;
    }
    place(id, key, i);
  }

  private void place(int id, long key, int i) {
    ids[i] = id;
    keys[i] = key;
    placeOf[id] = i;
  }
}
