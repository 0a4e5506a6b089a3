package io.recrawl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SlotQueuesTest {

  /** What the queues must hold: bucket -> {head, tail}. */
  private static void assertSame(SlotQueues q, TreeMap<Long, int[]> model) {
    assertThat(q.bucketCount()).isEqualTo(model.size());
    assertThat(q.isEmpty()).isEqualTo(model.isEmpty());
    int i = 0;
    long size = 0;
    for (Map.Entry<Long, int[]> e : model.entrySet()) {
      assertThat(q.bucket(i)).isEqualTo(e.getKey());
      assertThat(q.head(i)).isEqualTo(e.getValue()[0]);
      assertThat(q.tail(i)).isEqualTo(e.getValue()[1]);
      size += e.getValue()[1] - e.getValue()[0];
      i++;
    }
    assertThat(q.size()).isEqualTo(size);
    if (!model.isEmpty()) {
      assertThat(q.firstBucket()).isEqualTo(model.firstKey());
      assertThat(q.lastBucket()).isEqualTo(model.lastKey());
    }
  }

  @Test
  void pushesAndPopsAtTheEndsAndInTheMiddleKeepBucketsInOrderAndSlotsInSequence() {
    Random r = new Random(7);
    SlotQueues q = new SlotQueues();
    TreeMap<Long, int[]> model = new TreeMap<>();
    for (int step = 0; step < 200_000; step++) {
      int op = r.nextInt(10);
      if (op < 5 || model.isEmpty()) {
        // Mostly near the ends, as the engine's queues are filled; sometimes anywhere.
        long b =
            switch (r.nextInt(3)) {
              case 0 -> (model.isEmpty() ? 1000 : model.lastKey()) + r.nextInt(3);
              case 1 -> (model.isEmpty() ? 1000 : model.firstKey()) - r.nextInt(3);
              default -> 900 + r.nextInt(300);
            };
        long key = q.push(r.nextInt(2), b);
        int[] ht = model.computeIfAbsent(b, k -> new int[2]);
        assertThat(SlotQueues.bucketOf(key) & 0xFFFFFFFFL).isEqualTo(b);
        assertThat(SlotQueues.seqOf(key)).isEqualTo(ht[1]);
        ht[1]++;
      } else {
        Long middle = model.ceilingKey(900L + r.nextInt(300));
        long b =
            switch (op) {
              case 5, 6 -> model.firstKey();
              case 7, 8 -> model.lastKey();
              default -> middle == null ? model.lastKey() : middle;
            };
        int[] ht = model.get(b);
        long key = q.pop(0, b);
        assertThat(SlotQueues.seqOf(key)).isEqualTo(ht[0]);
        ht[0]++;
        if (ht[0] == ht[1]) {
          model.remove(b);
        }
      }
      if (step % 97 == 0) {
        assertSame(q, model);
      }
      if (step % 1013 == 0) {
        q = q.copy(); // the job works on a copy of the host record in every call
      }
    }
    assertSame(q, model);
  }

  @Test
  void aCopySharesNothingAndAppendRebuildsTheSameQueues() {
    SlotQueues q = new SlotQueues();
    for (long b = 50; b > 0; b -= 5) {
      q.push(0, b);
      q.push(0, b);
    }
    q.pop(0, q.firstBucket());
    SlotQueues copy = q.copy();
    SlotQueues rebuilt = new SlotQueues();
    for (int i = 0; i < q.bucketCount(); i++) {
      rebuilt.append(q.bucket(i), q.head(i), q.tail(i));
    }
    q.push(0, 1000);
    q.pop(0, q.firstBucket());
    assertThat(copy.bucketCount()).isEqualTo(10);
    assertThat(copy.firstBucket()).isEqualTo(5);
    assertThat(copy.head(0)).isEqualTo(1);
    assertThat(copy.size()).isEqualTo(19);
    assertThat(rebuilt.bucketCount()).isEqualTo(10);
    assertThat(rebuilt.size()).isEqualTo(19);
    assertThat(rebuilt.push(0, 5)).isEqualTo(SlotQueues.key(0, 5, 2));
    assertThatThrownBy(() -> rebuilt.append(3, 0, 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
