package io.recrawl.flink.scheduler;

import java.util.function.ObjLongConsumer;

/**
 * The lease slots of one host (slot key to stored URL), kept beside its host record instead of one
 * RocksDB entry each.
 *
 * <p>A released page is indexed at its lease expiry, and that slot is removed again when the page's
 * status comes back: as RocksDB entries, a put and a delete for nearly every release, for a slot that
 * is hardly ever read. Held here, they are written with the host record, once per checkpoint. A host
 * has at most its in-flight pages here, and at most {@link #MAX} (further lease slots go to RocksDB).
 *
 * <p>An open-addressing map: no boxed key nor entry object per slot.
 */
public final class LeaseSlots {

  /** Most slots one host keeps here: bounds the record rewritten at each checkpoint. */
  static final int MAX = 4096;

  private long[] keys;
  private String[] urls;
  private int size;

  public LeaseSlots() {
    this(4);
  }

  LeaseSlots(int expected) {
    int cap = 8;
    while (cap < expected * 2) {
      cap <<= 1;
    }
    keys = new long[cap];
    urls = new String[cap];
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The stored URL of a slot, or null. */
  public String get(long key) {
    if (size == 0) {
      return null;
    }
    int mask = keys.length - 1;
    for (int i = index(key, mask); urls[i] != null; i = (i + 1) & mask) {
      if (keys[i] == key) {
        return urls[i];
      }
    }
    return null;
  }

  /** Maps a slot to a non-null stored URL. */
  public void put(long key, String url) {
    if (url == null) {
      throw new IllegalArgumentException("null url");
    }
    if ((size + 1) * 2 > keys.length) {
      grow();
    }
    int mask = keys.length - 1;
    int i = index(key, mask);
    for (; urls[i] != null; i = (i + 1) & mask) {
      if (keys[i] == key) {
        urls[i] = url;
        return;
      }
    }
    keys[i] = key;
    urls[i] = url;
    size++;
  }

  /** Removes a slot; returns whether it was here. */
  public boolean remove(long key) {
    if (size == 0) {
      return false;
    }
    int mask = keys.length - 1;
    int i = index(key, mask);
    for (; urls[i] != null; i = (i + 1) & mask) {
      if (keys[i] == key) {
        break;
      }
    }
    if (urls[i] == null) {
      return false;
    }
    // Backward-shift deletion: move later entries of the probe run into the gap.
    int gap = i;
    for (int j = (gap + 1) & mask; urls[j] != null; j = (j + 1) & mask) {
      int home = index(keys[j], mask);
      if (((j - home) & mask) >= ((j - gap) & mask)) {
        keys[gap] = keys[j];
        urls[gap] = urls[j];
        gap = j;
      }
    }
    urls[gap] = null;
    keys[gap] = 0;
    size--;
    return true;
  }

  /** Calls {@code action} for every slot, in no particular order. */
  public void forEach(ObjLongConsumer<String> action) {
    for (int i = 0; i < keys.length; i++) {
      if (urls[i] != null) {
        action.accept(urls[i], keys[i]);
      }
    }
  }

  private void grow() {
    long[] oldKeys = keys;
    String[] oldUrls = urls;
    keys = new long[oldKeys.length * 2];
    urls = new String[oldUrls.length * 2];
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldUrls[i] != null) {
        put(oldKeys[i], oldUrls[i]);
      }
    }
  }

  private static int index(long key, int mask) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }
}
