package io.recrawl.flink.types;

import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;

/** A status source's output: a {@link StatusEvent} or a dead letter. */
public final class ParsedStatusEventSerializer extends ParsedSerializer<StatusEvent> {

  private static final long serialVersionUID = 1L;
  public static final ParsedStatusEventSerializer INSTANCE = new ParsedStatusEventSerializer();

  @Override
  WireSerializer<StatusEvent> values() {
    return StatusEventSerializer.INSTANCE;
  }

  @Override
  public TypeSerializerSnapshot<Parsed<StatusEvent>> snapshotConfiguration() {
    return new Snapshot();
  }

  /** Restores this serializer from a checkpoint. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<Parsed<StatusEvent>> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}
