package io.recrawl.flink.io.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class JsonRecordDeserializerTest {

  private final JsonRecordDeserializer<StatusEvent> deserializer =
      new JsonRecordDeserializer<>(
          StatusEventCodec.withDefaults()::parse, WireTypes.PARSED_STATUS_EVENT);

  private Parsed<StatusEvent> read(byte[] value) {
    List<Parsed<StatusEvent>> out = new ArrayList<>();
    deserializer.deserialize(
        new ConsumerRecord<>("crawl.status", 3, 41L, null, value),
        new Collector<>() {
          @Override
          public void collect(Parsed<StatusEvent> record) {
            out.add(record);
          }

          @Override
          public void close() {}
        });
    assertThat(out).hasSize(1);
    return out.get(0);
  }

  @Test
  void readsAValidEvent() {
    Parsed<StatusEvent> p =
        read(
            "{\"url\":\"http://a.org/\",\"status\":\"FETCHED\",\"time\":5}"
                .getBytes(StandardCharsets.UTF_8));
    assertThat(p.value().host()).isEqualTo("a.org");
    assertThat(deserializer.getProducedType()).isEqualTo(WireTypes.PARSED_STATUS_EVENT);
  }

  @Test
  void deadLettersNameTopicPartitionAndOffset() {
    Parsed<StatusEvent> p = read("{oops".getBytes(StandardCharsets.UTF_8));
    assertThat(p.deadLetter().reason()).isEqualTo("malformed_json");
    assertThat(p.deadLetter().detail()).startsWith("crawl.status/3@41: ");
    assertThat(p.deadLetter().raw()).isEqualTo("{oops");
  }

  @Test
  void tombstonesAndInvalidUtf8AreDeadLetters() {
    assertThat(read(null).deadLetter().detail()).contains("tombstone");
    Parsed<StatusEvent> bad = read(new byte[] {'{', (byte) 0xC3, (byte) 0x28, '}'});
    assertThat(bad.deadLetter().reason()).isEqualTo("malformed_json");
    assertThat(bad.deadLetter().detail()).endsWith("not UTF-8");
  }
}
