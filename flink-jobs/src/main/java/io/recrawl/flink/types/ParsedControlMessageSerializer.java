package io.recrawl.flink.types;

import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.Parsed;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;

/** A control source's output: a {@link ControlMessage} or a dead letter. */
public final class ParsedControlMessageSerializer extends ParsedSerializer<ControlMessage> {

  private static final long serialVersionUID = 1L;
  public static final ParsedControlMessageSerializer INSTANCE =
      new ParsedControlMessageSerializer();

  @Override
  WireSerializer<ControlMessage> values() {
    return ControlMessageSerializer.INSTANCE;
  }

  @Override
  public TypeSerializerSnapshot<Parsed<ControlMessage>> snapshotConfiguration() {
    return new Snapshot();
  }

  /** Restores this serializer from a checkpoint. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<Parsed<ControlMessage>> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}
