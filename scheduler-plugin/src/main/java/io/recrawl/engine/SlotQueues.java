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

  /** Bucket ids, ascending. Public for serializers. */
  public long[] buckets = new long[0];
  public int[] heads = new int[0];
  public int[] tails = new int[0];

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
    return buckets.length == 0;
  }

  /** Number of slots, stale ones included; derived, so serializers need not store it. */
  private transient long size = -1;

  /** Number of slots, stale ones included. */
  public long size() {
    if (size < 0) {
      long n = 0;
      for (int i = 0; i < buckets.length; i++) {
        n += tails[i] - heads[i];
      }
      size = n;
    }
    return size;
  }

  public long firstBucket() {
    return buckets[0];
  }

  public long lastBucket() {
    return buckets[buckets.length - 1];
  }

  /** Appends a slot to bucket b and returns its store key. */
  public long push(int queue, long bucket) {
    int i = Arrays.binarySearch(buckets, bucket);
    if (i < 0) {
      i = -i - 1;
      buckets = insert(buckets, i, bucket);
      heads = insert(heads, i, 0);
      tails = insert(tails, i, 0);
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
    // Queues are drained from an end (the first due bucket, the last ready one): look there first.
    int last = buckets.length - 1;
    int i = buckets[0] == bucket ? 0 : buckets[last] == bucket ? last : Arrays.binarySearch(buckets, bucket);
    long k = key(queue, bucket, heads[i]++);
    if (size > 0) {
      size--;
    }
    if (heads[i] == tails[i]) {
      buckets = remove(buckets, i);
      heads = remove(heads, i);
      tails = remove(tails, i);
    }
    return k;
  }

  private static long[] insert(long[] a, int i, long v) {
    long[] b = new long[a.length + 1];
    System.arraycopy(a, 0, b, 0, i);
    b[i] = v;
    System.arraycopy(a, i, b, i + 1, a.length - i);
    return b;
  }

  private static int[] insert(int[] a, int i, int v) {
    int[] b = new int[a.length + 1];
    System.arraycopy(a, 0, b, 0, i);
    b[i] = v;
    System.arraycopy(a, i, b, i + 1, a.length - i);
    return b;
  }

  private static long[] remove(long[] a, int i) {
    long[] b = new long[a.length - 1];
    System.arraycopy(a, 0, b, 0, i);
    System.arraycopy(a, i + 1, b, i, a.length - i - 1);
    return b;
  }

  private static int[] remove(int[] a, int i) {
    int[] b = new int[a.length - 1];
    System.arraycopy(a, 0, b, 0, i);
    System.arraycopy(a, i + 1, b, i, a.length - i - 1);
    return b;
  }
}
