package io.recrawl.flink.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.engine.HostState;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.operators.KeyContext;
import org.junit.jupiter.api.Test;

class HostRecordCacheTest {

  /** Keyed state in a map, and the key context that selects the current key. */
  private static final class FakeKeyedState implements ValueState<HostState>, KeyContext {
    final Map<Object, HostState> stored = new HashMap<>();
    Object current;
    int writes;

    @Override
    public HostState value() {
      return stored.get(current);
    }

    @Override
    public void update(HostState value) {
      writes++;
      stored.put(current, value);
    }

    @Override
    public void clear() {
      writes++;
      stored.remove(current);
    }

    @Override
    public void setCurrentKey(Object key) {
      current = key;
    }

    @Override
    public Object getCurrentKey() {
      return current;
    }
  }

  private static HostState record(int pages) {
    HostState h = new HostState();
    h.pages = pages;
    return h;
  }

  @Test
  void writeBackWritesOnlyOnFlushAndRestoresTheCurrentKey() {
    FakeKeyedState state = new FakeKeyedState();
    HostRecordCache cache = new HostRecordCache(state, 10, Long.MAX_VALUE);
    cache.writeBack(state);
    state.setCurrentKey("a");
    cache.put("a", record(1));
    cache.put("a", record(2));
    state.setCurrentKey("b");
    assertThat(cache.get("b")).isNull();
    cache.put("b", null); // a removal is written back too
    assertThat(state.writes).isZero();
    assertThat(cache.get("a").pages).isEqualTo(2);

    cache.flush();
    assertThat(state.writes).isEqualTo(2);
    assertThat(state.stored.get("a").pages).isEqualTo(2);
    assertThat(state.stored).doesNotContainKey("b");
    assertThat(state.getCurrentKey()).isEqualTo("b");
    cache.flush(); // nothing dirty: nothing written
    assertThat(state.writes).isEqualTo(2);
  }

  @Test
  void aFullCacheWritesBackBeforeItForgets() {
    FakeKeyedState state = new FakeKeyedState();
    HostRecordCache cache = new HostRecordCache(state, 2, Long.MAX_VALUE);
    cache.writeBack(state);
    for (int i = 0; i < 5; i++) {
      state.setCurrentKey("h" + i);
      cache.put("h" + i, record(i));
    }
    assertThat(cache.dirtyCount()).isLessThanOrEqualTo(2);
    for (int i = 0; i < 5; i++) {
      state.setCurrentKey("h" + i);
      assertThat(cache.get("h" + i).pages)
          .isEqualTo(i); // from the heap or written back, never lost
    }
    cache.flush();
    for (int i = 0; i < 5; i++) {
      assertThat(state.stored.get("h" + i).pages).isEqualTo(i);
    }
  }

  @Test
  void withoutAKeyContextEveryPutIsWrittenThrough() {
    FakeKeyedState state = new FakeKeyedState();
    HostRecordCache cache = new HostRecordCache(state, 2, Long.MAX_VALUE);
    state.setCurrentKey("a");
    cache.put("a", record(3));
    assertThat(state.writes).isEqualTo(1);
    assertThat(state.stored.get("a").pages).isEqualTo(3);
    assertThat(cache.dirtyCount()).isZero();
  }

  @Test
  void aCacheOfLargeRecordsIsBoundedInBytesNotOnlyInHosts() {
    FakeKeyedState state = new FakeKeyedState();
    long maxBytes = 4L << 20;
    HostRecordCache cache = new HostRecordCache(state, 1 << 16, maxBytes);
    cache.writeBack(state);
    long recordBytes = 0;
    for (int i = 0; i < 20; i++) {
      HostState h = record(i);
      h.curve = new double[100_000]; // 800 KB: a host far beyond any real curve
      recordBytes = HostRecordCache.bytesOf(h);
      state.setCurrentKey("h" + i);
      cache.put("h" + i, h);
      assertThat(cache.bytes()).isLessThanOrEqualTo(maxBytes + recordBytes);
    }
    assertThat(cache.drops()).isPositive();
    for (int i = 0; i < 20; i++) {
      state.setCurrentKey("h" + i);
      assertThat(cache.get("h" + i).pages).isEqualTo(i); // dropped ones come back from state
    }
  }
}
