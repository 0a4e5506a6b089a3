package io.recrawl.sim;

import java.util.Arrays;

/**
 * A binary min-heap over ids 0..n-1 with one key per id, supporting key updates and removal. Keys
 * are also kept by heap position, so sifting compares neighbouring entries instead of reading each
 * id's key from wherever the id's slot lies.
 */
public final class IndexedHeap {

  private final int[] heap;
  private final double[] heapKey;
  private final int[] pos;
  private final double[] key;
  private int size;

  public IndexedHeap(int n) {
    heap = new int[n];
    heapKey = new double[n];
    pos = new int[n];
    key = new double[n];
    Arrays.fill(pos, -1);
  }

  public boolean contains(int id) {
    return pos[id] >= 0;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  public double minKey() {
    return size == 0 ? Double.POSITIVE_INFINITY : heapKey[0];
  }

  public int minId() {
    return heap[0];
  }

  public double key(int id) {
    return key[id];
  }

  /** Inserts the id, or moves it to the new key. */
  public void set(int id, double k) {
    key[id] = k;
    if (pos[id] < 0) {
      place(id, k, size++);
      up(pos[id]);
    } else {
      int i = pos[id];
      double old = heapKey[i];
      heapKey[i] = k;
      if (k < old) {
        up(i);
      } else {
        down(i);
      }
    }
  }

  public int pop() {
    int top = heap[0];
    remove(top);
    return top;
  }

  public void remove(int id) {
    int i = pos[id];
    if (i < 0) {
      return;
    }
    int last = heap[--size];
    pos[id] = -1;
    if (i < size) {
      place(last, heapKey[size], i);
      up(i);
      down(pos[last]);
    }
  }

  private void up(int i) {
    int id = heap[i];
    double k = heapKey[i];
    while (i > 0) {
      int p = (i - 1) >>> 1;
      if (heapKey[p] <= k) {
        break;
      }
      place(heap[p], heapKey[p], i);
      i = p;
    }
    place(id, k, i);
  }

  private void down(int i) {
    int id = heap[i];
    double k = heapKey[i];
    while (true) {
      int c = 2 * i + 1;
      if (c >= size) {
        break;
      }
      if (c + 1 < size && heapKey[c + 1] < heapKey[c]) {
        c++;
      }
      if (heapKey[c] >= k) {
        break;
      }
      place(heap[c], heapKey[c], i);
      i = c;
    }
    place(id, k, i);
  }

  private void place(int id, double k, int i) {
    heap[i] = id;
    heapKey[i] = k;
    pos[id] = i;
  }
}
