package io.recrawl.flink.scheduler;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/** Binary form of a host's {@link LeaseSlots}: a count, then each slot key and its stored URL. */
public final class LeaseSlotsSerializer extends TypeSerializerSingleton<LeaseSlots> {

  private static final long serialVersionUID = 1L;

  /** The layout this build writes. */
  static final int LAYOUT = 1;

  public static final LeaseSlotsSerializer INSTANCE = new LeaseSlotsSerializer();

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public LeaseSlots createInstance() {
    return new LeaseSlots();
  }

  @Override
  public LeaseSlots copy(LeaseSlots from) {
    LeaseSlots c = new LeaseSlots();
    from.forEach((url, key) -> c.put(key, url));
    return c;
  }

  @Override
  public LeaseSlots copy(LeaseSlots from, LeaseSlots reuse) {
    return copy(from);
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(LeaseSlots slots, DataOutputView out) throws IOException {
    VarInts.writeVarInt(out, slots.size());
    IOException[] failed = new IOException[1];
    slots.forEach(
        (url, key) -> {
          try {
            out.writeLong(key);
            StringValue.writeString(url, out);
          } catch (IOException e) {
            failed[0] = e;
          }
        });
    if (failed[0] != null) {
      throw failed[0];
    }
  }

  @Override
  public LeaseSlots deserialize(DataInputView in) throws IOException {
    int n = VarInts.readVarInt(in);
    LeaseSlots slots = new LeaseSlots();
    for (int i = 0; i < n; i++) {
      long key = in.readLong();
      slots.put(key, StringValue.readString(in));
    }
    return slots;
  }

  @Override
  public LeaseSlots deserialize(LeaseSlots reuse, DataInputView in) throws IOException {
    return deserialize(in);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
  }

  @Override
  public TypeSerializerSnapshot<LeaseSlots> snapshotConfiguration() {
    return new Snapshot();
  }

  /**
   * The serializer's snapshot: its layout ({@link #LAYOUT}, the only one so far). A change of the
   * binary form adds a layout, keeps reading the old ones, and adds a savepoint fixture (see
   * docs/operations.md, "Upgrades").
   */
  public static final class Snapshot extends LayoutSnapshot<LeaseSlots> {
    /** For reading a snapshot back. */
    public Snapshot() {
      super(LAYOUT);
    }

    @Override
    int currentLayout() {
      return LAYOUT;
    }

    @Override
    TypeSerializer<LeaseSlots> serializerOf(int layout) {
      return INSTANCE;
    }
  }
}
