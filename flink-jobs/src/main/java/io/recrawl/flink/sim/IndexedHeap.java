package io.recrawl.flink.sim;

import java.util.Arrays;

/** A binary min-heap over ids 0..n-1 with one key per id, supporting key updates and removal. */
public final class IndexedHeap {

  private final int[] heap;
  private final int[] pos;
  private final double[] key;
  private int size;

  public IndexedHeap(int n) {
    heap = new int[n];
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
    return size == 0 ? Double.POSITIVE_INFINITY : key[heap[0]];
  }

  public int minId() {
    return heap[0];
  }

  public double key(int id) {
    return key[id];
  }

  /** Inserts the id, or moves it to the new key. */
  public void set(int id, double k) {
    if (pos[id] < 0) {
      heap[size] = id;
      pos[id] = size++;
      key[id] = k;
      up(pos[id]);
    } else {
      double old = key[id];
      key[id] = k;
      if (k < old) {
        up(pos[id]);
      } else {
        down(pos[id]);
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
      heap[i] = last;
      pos[last] = i;
      up(i);
      down(pos[last]);
    }
  }

  private void up(int i) {
    int id = heap[i];
    double k = key[id];
    while (i > 0) {
      int p = (i - 1) >>> 1;
      if (key[heap[p]] <= k) {
        break;
      }
      heap[i] = heap[p];
      pos[heap[i]] = i;
      i = p;
    }
    heap[i] = id;
    pos[id] = i;
  }

  private void down(int i) {
    int id = heap[i];
    double k = key[id];
    while (true) {
      int c = 2 * i + 1;
      if (c >= size) {
        break;
      }
      if (c + 1 < size && key[heap[c + 1]] < key[heap[c]]) {
        c++;
      }
      if (key[heap[c]] >= k) {
        break;
      }
      heap[i] = heap[c];
      pos[heap[i]] = i;
      i = c;
    }
    heap[i] = id;
    pos[id] = i;
  }
}
