package io.recrawl.flink.types;

import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Flink's own serializer contract tests (copy, sequences, snapshot/restore, duplicate). */
class StatusEventSerializerTest extends SerializerTestBase<StatusEvent> {

  @Override
  protected TypeSerializer<StatusEvent> createSerializer() {
    return StatusEventSerializer.INSTANCE;
  }

  @Override
  protected int getLength() {
    return -1;
  }

  @Override
  protected Class<StatusEvent> getTypeClass() {
    return StatusEvent.class;
  }

  @Override
  protected StatusEvent[] getTestData() {
    return new StatusEvent[] {
      new StatusEvent(
          "http://a.org/", "a.org", CrawlStatus.DISCOVERED, 0, Map.of(), null, null, null),
      new StatusEvent(
          "http://b.org:81/x",
          "b.org:81",
          CrawlStatus.FETCHED,
          1_700_000_000_000L,
          Map.of("signature", List.of("abc"), "outlinks", List.of("x", "y", "")),
          true,
          2.5,
          200),
      new StatusEvent("http://c.org/", "c.org", CrawlStatus.FETCHED, 5, Map.of(), false, null, 304),
      new StatusEvent(
          "http://d.org/" + "é".repeat(40_000),
          "d.org",
          CrawlStatus.ERROR,
          Long.MAX_VALUE,
          Map.of("k", List.of()),
          null,
          Double.MIN_VALUE,
          null),
      new StatusEvent(
          "http://e.org/", "e.org", CrawlStatus.REDIRECTION, 7, Map.of(), null, null, 599),
      new StatusEvent(
          "http://f.org/", "f.org", CrawlStatus.FETCH_ERROR, 8, Map.of(), true, 1.0, 100),
    };
  }
}
