package io.recrawl.flink.types;

import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.ControlMessageCodec;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/** Binary form of a {@link ControlMessage}; no Kryo. */
public final class ControlMessageSerializer extends WireSerializer<ControlMessage> {

  private static final long serialVersionUID = 1L;
  public static final ControlMessageSerializer INSTANCE = new ControlMessageSerializer();
  private static final ControlMessage.Kind[] KINDS = ControlMessage.Kind.values();

  /** Reads back a query's JSON; its host is already a key, which every partition mode keeps. */
  private static final ControlMessageCodec QUERIES = new ControlMessageCodec(-1);

  @Override
  public ControlMessage createInstance() {
    return ControlMessage.tick(0);
  }

  @Override
  public void serialize(ControlMessage m, DataOutputView out) throws IOException {
    out.writeByte(m.kind().ordinal());
    out.writeLong(m.time());
    out.writeLong(m.epoch());
    out.writeDouble(m.globalLambda());
    Fields.writeString(m.host(), out);
    out.writeDouble(m.maxRate());
    if (m.kind()
        == ControlMessage.Kind.QUERY) { // only the new kind has it: older bytes read as before
      Fields.writeString(ControlMessageCodec.toJson(m), out);
    }
  }

  @Override
  public ControlMessage deserialize(DataInputView in) throws IOException {
    ControlMessage m =
        new ControlMessage(
            KINDS[in.readByte()],
            in.readLong(),
            in.readLong(),
            in.readDouble(),
            Fields.readString(in),
            in.readDouble(),
            null);
    if (m.kind() != ControlMessage.Kind.QUERY) {
      return m;
    }
    // Written by this serializer from a checked query: it parses.
    return QUERIES.parse(Fields.readString(in), Long.MAX_VALUE).value();
  }

  @Override
  public TypeSerializerSnapshot<ControlMessage> snapshotConfiguration() {
    return new Snapshot();
  }

  /** Restores this serializer from a checkpoint. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<ControlMessage> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}
