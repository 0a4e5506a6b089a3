package io.recrawl.flink.types;

import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.Parsed;
import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The envelope a source emits: a parsed value or a dead letter, behind a one-byte tag.
 *
 * @param <T> the parsed type
 */
abstract class ParsedSerializer<T> extends WireSerializer<Parsed<T>> {

  private static final long serialVersionUID = 1L;
  private static final byte OK = 1;
  private static final byte REJECTED = 0;

  /** The serializer of the valid values. */
  abstract WireSerializer<T> values();

  @Override
  public Parsed<T> createInstance() {
    return Parsed.ok(values().createInstance());
  }

  @Override
  public void serialize(Parsed<T> p, DataOutputView out) throws IOException {
    if (p.ok()) {
      out.writeByte(OK);
      values().serialize(p.value(), out);
    } else {
      out.writeByte(REJECTED);
      DeadLetterSerializer.INSTANCE.serialize(p.deadLetter(), out);
    }
  }

  @Override
  public Parsed<T> deserialize(DataInputView in) throws IOException {
    byte tag = in.readByte();
    if (tag == OK) {
      return Parsed.ok(values().deserialize(in));
    }
    DeadLetter d = DeadLetterSerializer.INSTANCE.deserialize(in);
    return Parsed.rejected(d);
  }
}
