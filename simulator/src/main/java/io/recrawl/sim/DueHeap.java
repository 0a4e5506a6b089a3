package io.recrawl.sim;

import java.util.Arrays;

/** A binary min-heap of (time, page) pairs in primitive arrays; duplicates allowed. */
public final class DueHeap {

  private double[] time;
  private int[] item;
  private int size;

  public DueHeap(int capacity) {
    time = new double[Math.max(16, capacity)];
    item = new int[time.length];
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The earliest time, +infinity when empty. */
  public double peekTime() {
    return size == 0 ? Double.POSITIVE_INFINITY : time[0];
  }

  public int peekItem() {
    return item[0];
  }

  public void clear() {
    size = 0;
  }

  public void push(double t, int it) {
    if (size == time.length) {
      time = Arrays.copyOf(time, size * 2);
      item = Arrays.copyOf(item, size * 2);
    }
    int i = size++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (time[parent] <= t) {
        break;
      }
      time[i] = time[parent];
      item[i] = item[parent];
      i = parent;
    }
    time[i] = t;
    item[i] = it;
  }

  /** Removes the earliest pair and returns its item. */
  public int pop() {
    int top = item[0];
    size--;
    if (size > 0) {
      double t = time[size];
      int it = item[size];
      int i = 0;
      while (true) {
        int c = 2 * i + 1;
        if (c >= size) {
          break;
        }
        if (c + 1 < size && time[c + 1] < time[c]) {
          c++;
        }
        if (time[c] >= t) {
          break;
        }
        time[i] = time[c];
        item[i] = item[c];
        i = c;
      }
      time[i] = t;
      item[i] = it;
    }
    return top;
  }
}
