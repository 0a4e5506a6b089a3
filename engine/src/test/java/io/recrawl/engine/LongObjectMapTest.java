package io.recrawl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LongObjectMapTest {

  @Test
  void behavesLikeAHashMapUnderRandomPutsAndRemoves() {
    Random r = new Random(42);
    LongObjectMap<String> map = new LongObjectMap<>();
    Map<Long, String> reference = new HashMap<>();
    for (int op = 0; op < 200_000; op++) {
      // Few distinct keys, slot-like (bucket << 30 | seq), so probe runs collide and wrap.
      long key = ((long) r.nextInt(64) << 30) | r.nextInt(64);
      if (r.nextInt(3) == 0) {
        map.remove(key);
        reference.remove(key);
      } else {
        String v = Integer.toString(op);
        map.put(key, v);
        reference.put(key, v);
      }
      long probe = ((long) r.nextInt(64) << 30) | r.nextInt(64);
      assertThat(map.get(probe)).isEqualTo(reference.get(probe));
      assertThat(map.size()).isEqualTo(reference.size());
    }
    for (Map.Entry<Long, String> e : reference.entrySet()) {
      assertThat(map.get(e.getKey())).isEqualTo(e.getValue());
    }
  }
}
