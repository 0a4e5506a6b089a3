package io.recrawl.flink.tools.frontier;

import io.recrawl.engine.HostState;
import io.recrawl.engine.PageState;
import io.recrawl.flink.scheduler.HostStateSerializer;
import io.recrawl.flink.scheduler.PageStateSerializer;
import io.recrawl.flink.scheduler.SchedulerState;
import java.io.IOException;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * One host's records in the scheduler's own serializers, as they travel from the import to the
 * savepoint writer: the host record, its pages and its slots, with URLs in their stored (compact)
 * form.
 */
final class HostRecords {

  private HostRecords() {}

  static byte[] write(String host, RecordingHostStore s) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64 + 48 * s.pages.size());
    HostStateSerializer.INSTANCE.serialize(s.host(), out);
    out.writeInt(s.pages.size());
    for (Map.Entry<String, PageState> e : s.pages.entrySet()) {
      out.writeUTF(SchedulerState.compactUrl(host, e.getKey()));
      PageStateSerializer.INSTANCE.serialize(e.getValue(), out);
    }
    out.writeInt(s.slots.size());
    for (Map.Entry<Long, String> e : s.slots.entrySet()) {
      out.writeLong(e.getKey());
      out.writeUTF(SchedulerState.compactUrl(host, e.getValue()));
    }
    return out.getCopyOfBuffer();
  }

  /** Reads what {@link #write} wrote: the host record, then every page and slot, stored keys. */
  static HostState read(
      byte[] bytes, BiConsumer<String, PageState> pages, BiConsumer<Long, String> slots)
      throws IOException {
    DataInputDeserializer in = new DataInputDeserializer(bytes);
    HostState h = HostStateSerializer.INSTANCE.deserialize(in);
    for (int n = in.readInt(); n > 0; n--) {
      String key = in.readUTF();
      pages.accept(key, PageStateSerializer.INSTANCE.deserialize(in));
    }
    for (int n = in.readInt(); n > 0; n--) {
      long key = in.readLong();
      slots.accept(key, in.readUTF());
    }
    return h;
  }
}
