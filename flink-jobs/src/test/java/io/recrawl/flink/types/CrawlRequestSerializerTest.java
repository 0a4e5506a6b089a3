package io.recrawl.flink.types;

import io.recrawl.wire.CrawlRequest;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

class CrawlRequestSerializerTest extends SerializerTestBase<CrawlRequest> {

  @Override
  protected TypeSerializer<CrawlRequest> createSerializer() {
    return CrawlRequestSerializer.INSTANCE;
  }

  @Override
  protected int getLength() {
    return -1;
  }

  @Override
  protected Class<CrawlRequest> getTypeClass() {
    return CrawlRequest.class;
  }

  @Override
  protected CrawlRequest[] getTestData() {
    return new CrawlRequest[] {
      new CrawlRequest("http://a.org/", "a.org", Map.of(), 0, 0, 0, 0, 0),
      new CrawlRequest(
          "http://b.org/x",
          "b.org",
          Map.of("depth", List.of("2"), "t", List.of("a", "b")),
          10,
          5,
          0.75,
          0.5,
          3_600_010),
      new CrawlRequest(
          "http://c.org/",
          "c.org",
          Map.of(),
          Long.MAX_VALUE,
          Long.MIN_VALUE,
          Double.MAX_VALUE,
          1e-300,
          -1),
    };
  }
}
