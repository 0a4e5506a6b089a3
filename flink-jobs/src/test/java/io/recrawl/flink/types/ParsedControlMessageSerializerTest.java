package io.recrawl.flink.types;

import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.Parsed;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

class ParsedControlMessageSerializerTest extends SerializerTestBase<Parsed<ControlMessage>> {

  @Override
  protected TypeSerializer<Parsed<ControlMessage>> createSerializer() {
    return ParsedControlMessageSerializer.INSTANCE;
  }

  @Override
  protected int getLength() {
    return -1;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  protected Class<Parsed<ControlMessage>> getTypeClass() {
    return (Class) Parsed.class;
  }

  @Override
  @SuppressWarnings("unchecked")
  protected Parsed<ControlMessage>[] getTestData() {
    return new Parsed[] {
      Parsed.ok(ControlMessage.lambda(1, 2, 0.5)),
      Parsed.rejected(
          new DeadLetter("{\"type\":\"reboot\"}", "unknown_type", "unknown control type", 9)),
      Parsed.ok(ControlMessage.hostRate(3, "a.org", 60)),
    };
  }
}
