package io.recrawl.engine;

import java.util.Arrays;

/**
 * The heads of a set of FIFO buckets kept in a key-value store: bucket b holds slots {@code key(b,
 * head) .. key(b, tail - 1)}. Only these few numbers live in the host record; the slots themselves
 * are single keys in the store, so adding a page is one put and reading a bucket is point look-ups:
 * nothing depends on the store's iteration order, and nothing scans a host.
 *
 * <p>Removal is lazy: a page records the one slot that is current for it ({@link PageState#slot});
 * any other slot that names it is stale and is skipped when its bucket is drained.
 */
public final class SlotQueues {

  private static final int SEQ_BITS = 30;
  private static final long SEQ_MASK = (1L << SEQ_BITS) - 1;

  // Bucket i (start <= i < end, ascending) is entries[2i] = its id and entries[2i+1] = its head
  // (high 32 bits) and tail (low 32 bits). One array rather than three parallel ones: a bucket read
  // is one cache line, and the Flink job's working copy of a host record, made on every call,
  // copies
  // one array. Queues are drained from an end (the first due bucket, the last ready one) and mostly
  // filled near one, so the array keeps room at both ends: dropping or adding an end bucket moves
  // nothing (copying whole arrays for it was a tenth of the simulator's time).
  private long[] entries = new long[0];
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

  /** About how many bytes of heap the queue takes: its object and its array. */
  public long heapBytes() {
    return 48 + 8L * entries.length;
  }

  /** Number of slots, stale ones included; derived, so serializers need not store it. */
  private transient long size = -1;

  /** Number of slots, stale ones included. */
  public long size() {
    if (size < 0) {
      long n = 0;
      for (int i = start; i < end; i++) {
        n += tailAt(i) - headAt(i);
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
    return idAt(start + i);
  }

  /** The sequence number of the i-th bucket's oldest slot. */
  public int head(int i) {
    return headAt(start + i);
  }

  /** One past the sequence number of the i-th bucket's newest slot. */
  public int tail(int i) {
    return tailAt(start + i);
  }

  /**
   * Appends bucket b with slots head .. tail-1 after the last one (for serializers: ids ascend).
   */
  public void append(long b, int head, int tail) {
    if (!isEmpty() && b <= idAt(end - 1)) {
      throw new IllegalArgumentException("bucket " + b + " after " + idAt(end - 1));
    }
    if (end == capacity()) {
      makeRoom();
    }
    entries[2 * end] = b;
    setSlots(end, head, tail);
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
    return Arrays.equals(entries, 2 * start, 2 * end, q.entries, 2 * q.start, 2 * q.end);
  }

  @Override
  public int hashCode() {
    int h = 1;
    for (int i = start; i < end; i++) {
      h = 31 * h + Long.hashCode(entries[2 * i]) + 7 * Long.hashCode(entries[2 * i + 1]);
    }
    return h;
  }

  public long firstBucket() {
    return idAt(start);
  }

  public long lastBucket() {
    return idAt(end - 1);
  }

  /** Appends a slot to bucket b and returns its store key. */
  public long push(int queue, long bucket) {
    int i = indexOf(bucket);
    if (i < 0) {
      i = insert(-i - 1, bucket);
    }
    int tail = tailAt(i);
    if (tail >= SEQ_MASK) {
      // A bucket with a billion slots: spill into the next one rather than wrap.
      return push(queue, bucket + 1);
    }
    if (size >= 0) {
      size++;
    }
    setSlots(i, headAt(i), tail + 1);
    return key(queue, bucket, tail);
  }

  /** Removes and returns the oldest slot key of bucket b (which must be present and non-empty). */
  public long pop(int queue, long bucket) {
    int i = indexOf(bucket);
    int head = headAt(i);
    int tail = tailAt(i);
    long k = key(queue, bucket, head++);
    setSlots(i, head, tail);
    if (size > 0) {
      size--;
    }
    if (head == tail) {
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
        if (capacity() > 64) {
          entries = new long[0];
        }
        start = capacity() / 2;
        end = start;
      }
    }
    return k;
  }

  /** The array index of bucket b, or -(insertion point) - 1; the ends are looked at first. */
  private int indexOf(long bucket) {
    if (start == end) {
      return -start - 1;
    }
    if (idAt(start) == bucket) {
      return start;
    }
    if (idAt(end - 1) == bucket) {
      return end - 1;
    }
    if (bucket > idAt(end - 1)) {
      return -end - 1;
    }
    int lo = start;
    int hi = end - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long id = idAt(mid);
      if (id < bucket) {
        lo = mid + 1;
      } else if (id > bucket) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -lo - 1;
  }

  private long idAt(int i) {
    return entries[2 * i];
  }

  private int headAt(int i) {
    return (int) (entries[2 * i + 1] >>> 32);
  }

  private int tailAt(int i) {
    return (int) entries[2 * i + 1];
  }

  private void setSlots(int i, int head, int tail) {
    entries[2 * i + 1] = ((long) head << 32) | (tail & 0xFFFFFFFFL);
  }

  /** Buckets the array has room for. */
  private int capacity() {
    return entries.length / 2;
  }

  /** Opens an empty bucket b at array index i (its insertion point); returns where it ended up. */
  private int insert(int i, long bucket) {
    boolean moveLeftPart = i - start < end - i; // move the shorter side
    if (moveLeftPart ? start == 0 : end == capacity()) {
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
    entries[2 * i] = bucket;
    entries[2 * i + 1] = 0;
    return i;
  }

  /** Moves entries from .. to-1 by {@code by} places. */
  private void shift(int from, int to, int by) {
    System.arraycopy(entries, 2 * from, entries, 2 * (from + by), 2 * (to - from));
  }

  /**
   * Centres the live buckets, in arrays at least twice their number: after this, as many buckets
   * again can be added at either end before the next move (amortised constant time per bucket).
   */
  private void makeRoom() {
    int n = end - start;
    int capacity = Math.max(capacity(), roomFor(n));
    if (capacity == capacity()) {
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

  /**
   * Puts this queue's live buckets, centred, into new arrays of {@code capacity} in {@code into}.
   */
  private void centreInto(SlotQueues into, int capacity) {
    int n = end - start;
    int at = (capacity - n) / 2;
    long[] e = new long[2 * capacity];
    System.arraycopy(entries, 2 * start, e, 2 * at, 2 * n);
    into.entries = e;
    into.start = at;
    into.end = at + n;
  }
}
