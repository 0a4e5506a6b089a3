package io.recrawl.flink.types;

import io.recrawl.wire.DeadLetter;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/** Binary form of a {@link DeadLetter}; no Kryo. */
public final class DeadLetterSerializer extends WireSerializer<DeadLetter> {

  private static final long serialVersionUID = 1L;
  public static final DeadLetterSerializer INSTANCE = new DeadLetterSerializer();

  @Override
  public DeadLetter createInstance() {
    return new DeadLetter("", "", "", 0);
  }

  @Override
  public void serialize(DeadLetter d, DataOutputView out) throws IOException {
    Fields.writeString(d.raw(), out);
    Fields.writeString(d.reason(), out);
    Fields.writeString(d.detail(), out);
    out.writeLong(d.time());
  }

  @Override
  public DeadLetter deserialize(DataInputView in) throws IOException {
    return new DeadLetter(
        Fields.readString(in), Fields.readString(in), Fields.readString(in), in.readLong());
  }

  @Override
  public TypeSerializerSnapshot<DeadLetter> snapshotConfiguration() {
    return new Snapshot();
  }

  /** Restores this serializer from a checkpoint. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<DeadLetter> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}
