package io.recrawl.flink.types;

import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

class ParsedStatusEventSerializerTest extends SerializerTestBase<Parsed<StatusEvent>> {

  @Override
  protected TypeSerializer<Parsed<StatusEvent>> createSerializer() {
    return ParsedStatusEventSerializer.INSTANCE;
  }

  @Override
  protected int getLength() {
    return -1;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  protected Class<Parsed<StatusEvent>> getTypeClass() {
    return (Class) Parsed.class;
  }

  @Override
  @SuppressWarnings("unchecked")
  protected Parsed<StatusEvent>[] getTestData() {
    return new Parsed[] {
      Parsed.ok(
          new StatusEvent(
              "http://a.org/",
              "a.org",
              CrawlStatus.FETCHED,
              3,
              Map.of("k", List.of("v")),
              true,
              1.5,
              200)),
      Parsed.rejected(new DeadLetter("nope", "malformed_json", "Unrecognized token", 9)),
      Parsed.ok(
          new StatusEvent(
              "http://b.org/", "b.org", CrawlStatus.DISCOVERED, 0, Map.of(), null, null, null)),
    };
  }
}
