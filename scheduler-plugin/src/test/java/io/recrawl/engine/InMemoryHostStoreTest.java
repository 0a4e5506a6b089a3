package io.recrawl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class InMemoryHostStoreTest {

  @Test
  void slotsBehaveLikeAMapUnderQueueTraffic() {
    // Keys come from two SlotQueues as the engine uses them: pushes at a bucket's tail, pops at its
    // head, and removals of any slot (a page indexed again elsewhere).
    Random r = new Random(11);
    InMemoryHostStore store = new InMemoryHostStore();
    SlotQueues[] queues = {new SlotQueues(), new SlotQueues()};
    Map<Long, String> reference = new HashMap<>();
    List<Long> pushed = new ArrayList<>();
    for (int op = 0; op < 200_000; op++) {
      int q = r.nextInt(2);
      int what = r.nextInt(10);
      if (what < 5) {
        long key = queues[q].push(q, r.nextInt(8));
        store.putSlot(key, "u" + op);
        reference.put(key, "u" + op);
        pushed.add(key);
      } else if (what < 8 && !queues[q].isEmpty()) {
        long key = queues[q].pop(q, queues[q].firstBucket());
        assertThat(store.slot(key)).isEqualTo(reference.get(key));
        store.removeSlot(key);
        reference.remove(key);
      } else if (!pushed.isEmpty()) {
        long key = pushed.get(r.nextInt(pushed.size()));
        store.removeSlot(key);
        reference.remove(key);
      }
      if (!pushed.isEmpty()) {
        long probe = pushed.get(r.nextInt(pushed.size()));
        assertThat(store.slot(probe)).isEqualTo(reference.get(probe));
      }
    }
  }
}
