package io.recrawl.flink.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** The per-host lease slot map against a HashMap under random traffic, and its serializer. */
class LeaseSlotsTest {

  @Test
  void behavesLikeAMapUnderPutsAndRemoves() {
    Random r = new Random(7);
    LeaseSlots slots = new LeaseSlots();
    Map<Long, String> expected = new HashMap<>();
    for (int op = 0; op < 200_000; op++) {
      long key = r.nextInt(300) * 0x40000000L + r.nextInt(8); // clustered keys: long probe runs
      if (r.nextInt(3) == 0) {
        assertThat(slots.remove(key)).isEqualTo(expected.remove(key) != null);
      } else {
        String url = "\u0001/p/" + op;
        slots.put(key, url);
        expected.put(key, url);
      }
      if (op % 1000 == 0) {
        assertThat(slots.size()).isEqualTo(expected.size());
        for (Map.Entry<Long, String> e : expected.entrySet()) {
          assertThat(slots.get(e.getKey())).isEqualTo(e.getValue());
        }
      }
    }
    Map<Long, String> seen = new HashMap<>();
    slots.forEach((url, key) -> seen.put(key, url));
    assertThat(seen).isEqualTo(expected);
  }

  @Test
  void serializerRoundTrips() throws Exception {
    LeaseSlots slots = new LeaseSlots();
    for (int i = 0; i < 100; i++) {
      slots.put(1_000_000L * i + i, "\u0001/page/" + i);
    }
    slots.remove(5_000_005L);
    DataOutputSerializer out = new DataOutputSerializer(64);
    LeaseSlotsSerializer.INSTANCE.serialize(slots, out);
    DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
    LeaseSlots back = LeaseSlotsSerializer.INSTANCE.deserialize(in);
    assertThat(in.available()).isZero();
    assertThat(back.size()).isEqualTo(99);
    assertThat(back.get(5_000_005L)).isNull();
    assertThat(back.get(7_000_007L)).isEqualTo("\u0001/page/7");
    LeaseSlots copy = LeaseSlotsSerializer.INSTANCE.copy(back);
    copy.remove(7_000_007L);
    assertThat(back.get(7_000_007L)).isEqualTo("\u0001/page/7");
  }
}
