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
        long key =
            queues[q].pop(q, r.nextBoolean() ? queues[q].firstBucket() : queues[q].lastBucket());
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

  @Test
  void aSlotsPageIsTheRecordHeldUnderItsUrlWhateverWasReplaced() {
    // The store keeps records with their slots and skips re-puts of a record it holds: page
    // look-ups
    // through a slot must still answer like a map when records are replaced, removed, re-put.
    Random r = new Random(5);
    InMemoryHostStore store = new InMemoryHostStore();
    SlotQueues queue = new SlotQueues();
    Map<String, PageState> reference = new HashMap<>();
    Map<Long, String> slotUrls = new HashMap<>();
    for (int op = 0; op < 100_000; op++) {
      String url = "u" + r.nextInt(50);
      int what = r.nextInt(10);
      if (what < 3) {
        PageState p =
            r.nextBoolean() && reference.containsKey(url) ? reference.get(url) : new PageState();
        store.putPage(url, p);
        reference.put(url, p);
      } else if (what < 4) {
        store.removePage(url);
        reference.remove(url);
      } else if (what < 7) {
        long key = queue.push(0, r.nextInt(4));
        PageState p = r.nextBoolean() ? reference.get(url) : new PageState();
        p = p == null ? new PageState() : p;
        store.putSlot(key, url, p);
        slotUrls.put(key, url);
      } else if (!queue.isEmpty()) {
        long key = queue.pop(0, queue.firstBucket());
        String at = store.slot(key);
        assertThat(at).isEqualTo(slotUrls.remove(key));
        assertThat(store.slotPage(key, at)).isSameAs(reference.get(at));
        store.removeSlot(key);
      }
      assertThat(store.page(url)).isSameAs(reference.get(url));
    }
  }
}
