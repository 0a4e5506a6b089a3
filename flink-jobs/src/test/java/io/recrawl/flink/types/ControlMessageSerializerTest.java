package io.recrawl.flink.types;

import io.recrawl.wire.ControlMessage;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

class ControlMessageSerializerTest extends SerializerTestBase<ControlMessage> {

  @Override
  protected TypeSerializer<ControlMessage> createSerializer() {
    return ControlMessageSerializer.INSTANCE;
  }

  @Override
  protected int getLength() {
    return -1;
  }

  @Override
  protected Class<ControlMessage> getTypeClass() {
    return ControlMessage.class;
  }

  @Override
  protected ControlMessage[] getTestData() {
    return new ControlMessage[] {
      ControlMessage.tick(0),
      ControlMessage.tick(1_800_000_000_000L),
      ControlMessage.lambda(5, 42, 0.125),
      ControlMessage.hostRate(7, "example.com:8080", 1440),
      ControlMessage.hostRate(8, "a.org", 0),
    };
  }
}
