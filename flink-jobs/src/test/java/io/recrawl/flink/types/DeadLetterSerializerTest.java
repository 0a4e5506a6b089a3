package io.recrawl.flink.types;

import io.recrawl.wire.DeadLetter;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

class DeadLetterSerializerTest extends SerializerTestBase<DeadLetter> {

  @Override
  protected TypeSerializer<DeadLetter> createSerializer() {
    return DeadLetterSerializer.INSTANCE;
  }

  @Override
  protected int getLength() {
    return -1;
  }

  @Override
  protected Class<DeadLetter> getTypeClass() {
    return DeadLetter.class;
  }

  @Override
  protected DeadLetter[] getTestData() {
    return new DeadLetter[] {
      new DeadLetter("", "malformed_json", "", 0),
      new DeadLetter("{\"url\":\u0000", "malformed_json", "Unexpected character", 123),
      new DeadLetter("x".repeat(70_000), "too_large", "70000 characters", Long.MAX_VALUE),
    };
  }
}
