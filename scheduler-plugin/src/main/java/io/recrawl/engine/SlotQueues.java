package io.recrawl.engine;

import java.util.Arrays;

/**
 * The heads of a set of FIFO buckets kept in a key-value store: bucket b holds slots
 * {@code key(b, head) .. key(b, tail - 1)}. Only these few numbers live in the host record; the
 * slots themselves are single keys in the store, so adding a page is one put and reading a bucket
 * is point look-ups: nothing depends on the store's iteration order, and nothing scans a host.
 *
 * <p>Removal is lazy: a page records the one slot that is current for it ({@link PageState#slot});
 * any other slot that names it is stale and is skipped when its bucket is drained.
 */
public final class SlotQueues {

  private static final int SEQ_BITS = 30;
  private static final long SEQ_MASK = (1L << SEQ_BITS) - 1;

  // Buckets start .. end-1 of these arrays are live, ascending. Queues are drained from an end (the
  // first due bucket, the last ready one) and mostly filled near one, so the arrays keep room at
  // both ends: dropping or adding an end bucket moves nothing (copying whole arrays for it was a
  // tenth of the simulator's time).
  private long[] buckets = new long[0];
  private int[] heads = new int[0];
  private int[] tails = new int[0];
  private int start;
  private int end;

  public SlotQueues() {}

  /** The store key of a slot: queue id (2 bits), bucket (32 bits), sequence (30 bits). */
  public static long key(int queue, long bucket, int seq) {
    return ((long) queue << 62) | ((bucket & 0xFFFFFFFFL) << SEQ_BITS) | (seq & SEQ_MASK);
  }

  /** The queue and bucket of a store key, as one number. */
  static long bucketOf(long key) {
    return key >>> SEQ_BITS;
  }

  /** The sequence number of a store key within its bucket. */
  static int seqOf(long key) {
    return (int) (key & SEQ_MASK);
  }

  /** The queue id a store key belongs to. */
  public static int queueOf(long key) {
    return (int) (key >>> 62);
  }

  public boolean isEmpty() {
    return start == end;
  }

  /** Number of slots, stale ones included; derived, so serializers need not store it. */
  private transient long size = -1;

  /** Number of slots, stale ones included. */
  public long size() {
    if (size < 0) {
      long n = 0;
      for (int i = start; i < end; i++) {
        n += tails[i] - heads[i];
      }
      size = n;
    }
    return size;
  }

  /** Number of non-empty buckets. */
  public int bucketCount() {
    return end - start;
  }

  /** The id of the i-th bucket, ascending (for serializers). */
  public long bucket(int i) {
    return buckets[start + i];
  }

  /** The sequence number of the i-th bucket's oldest slot. */
  public int head(int i) {
    return heads[start + i];
  }

  /** One past the sequence number of the i-th bucket's newest slot. */
  public int tail(int i) {
    return tails[start + i];
  }

  /** Appends bucket b with slots head .. tail-1 after the last one (for serializers: ids ascend). */
  public void append(long b, int head, int tail) {
    if (!isEmpty() && b <= buckets[end - 1]) {
      throw new IllegalArgumentException("bucket " + b + " after " + buckets[end - 1]);
    }
    if (end == buckets.length) {
      makeRoom();
    }
    buckets[end] = b;
    heads[end] = head;
    tails[end] = tail;
    end++;
    size = -1;
  }

  /**
   * A copy that shares nothing with this one, its buckets centred in arrays with room at both ends:
   * the copy is usually made to be changed (a call's working copy of a host record), and an exact
   * fit would be reallocated at its first new bucket.
   */
  public SlotQueues copy() {
    SlotQueues c = new SlotQueues();
    centreInto(c, roomFor(end - start));
    c.size = size;
    return c;
  }

  /** Equal when they hold the same buckets with the same slots, however the arrays are laid out. */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SlotQueues q) || q.bucketCount() != bucketCount()) {
      return false;
    }
    return Arrays.equals(buckets, start, end, q.buckets, q.start, q.end)
        && Arrays.equals(heads, start, end, q.heads, q.start, q.end)
        && Arrays.equals(tails, start, end, q.tails, q.start, q.end);
  }

  @Override
  public int hashCode() {
    int h = 1;
    for (int i = start; i < end; i++) {
      h = 31 * h + Long.hashCode(buckets[i]) + 7 * heads[i] + 13 * tails[i];
    }
    return h;
  }

  public long firstBucket() {
    return buckets[start];
  }

  public long lastBucket() {
    return buckets[end - 1];
  }

  /** Appends a slot to bucket b and returns its store key. */
  public long push(int queue, long bucket) {
    int i = indexOf(bucket);
    if (i < 0) {
      i = insert(-i - 1, bucket);
    }
    if (tails[i] >= SEQ_MASK) {
      // A bucket with a billion slots: spill into the next one rather than wrap.
      return push(queue, bucket + 1);
    }
    if (size >= 0) {
      size++;
    }
    return key(queue, bucket, tails[i]++);
  }

  /** Removes and returns the oldest slot key of bucket b (which must be present and non-empty). */
  public long pop(int queue, long bucket) {
    int i = indexOf(bucket);
    long k = key(queue, bucket, heads[i]++);
    if (size > 0) {
      size--;
    }
    if (heads[i] == tails[i]) {
      if (i == start) {
        start++;
      } else if (i == end - 1) {
        end--;
      } else {
        shift(i + 1, end, -1);
        end--;
      }
      if (start == end) {
        // Empty: a burst's large arrays are let go; small ones are kept, with room on both sides.
        if (buckets.length > 64) {
          buckets = new long[0];
          heads = new int[0];
          tails = new int[0];
        }
        start = buckets.length / 2;
        end = start;
      }
    }
    return k;
  }

  /** The array index of bucket b, or -(insertion point) - 1; the ends are looked at first. */
  private int indexOf(long bucket) {
    if (start < end) {
      if (buckets[start] == bucket) {
        return start;
      }
      if (buckets[end - 1] == bucket) {
        return end - 1;
      }
      if (bucket > buckets[end - 1]) {
        return -end - 1;
      }
      if (bucket < buckets[start]) {
        return -start - 1;
      }
    }
    return Arrays.binarySearch(buckets, start, end, bucket);
  }

  /** Opens an empty bucket b at array index i (its insertion point); returns where it ended up. */
  private int insert(int i, long bucket) {
    boolean moveLeftPart = i - start < end - i; // move the shorter side
    if (moveLeftPart ? start == 0 : end == buckets.length) {
      int before = start;
      makeRoom();
      i += start - before;
    }
    if (moveLeftPart) {
      shift(start, i, -1);
      start--;
      i--;
    } else {
      shift(i, end, +1);
      end++;
    }
    buckets[i] = bucket;
    heads[i] = 0;
    tails[i] = 0;
    return i;
  }

  /** Moves entries from .. to-1 by {@code by} places. */
  private void shift(int from, int to, int by) {
    System.arraycopy(buckets, from, buckets, from + by, to - from);
    System.arraycopy(heads, from, heads, from + by, to - from);
    System.arraycopy(tails, from, tails, from + by, to - from);
  }

  /**
   * Centres the live buckets, in arrays at least twice their number: after this, as many buckets
   * again can be added at either end before the next move (amortised constant time per bucket).
   */
  private void makeRoom() {
    int n = end - start;
    int capacity = Math.max(buckets.length, roomFor(n));
    if (capacity == buckets.length) {
      int at = (capacity - n) / 2;
      shift(start, end, at - start);
      start = at;
      end = at + n;
    } else {
      centreInto(this, capacity);
    }
  }

  /** Array length for n buckets with as many again to spare. */
  private static int roomFor(int n) {
    return Math.max(8, 2 * n + 2);
  }

  /** Puts this queue's live buckets, centred, into new arrays of {@code capacity} in {@code into}. */
  private void centreInto(SlotQueues into, int capacity) {
    int n = end - start;
    int at = (capacity - n) / 2;
    long[] b = new long[capacity];
    int[] h = new int[capacity];
    int[] t = new int[capacity];
    System.arraycopy(buckets, start, b, at, n);
    System.arraycopy(heads, start, h, at, n);
    System.arraycopy(tails, start, t, at, n);
    into.buckets = b;
    into.heads = h;
    into.tails = t;
    into.start = at;
    into.end = at + n;
  }
}
