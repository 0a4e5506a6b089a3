package io.recrawl.flink.io.kafka;

import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.DeadLetterReason;
import io.recrawl.wire.Parsed;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.functions.Function;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads one JSON Kafka message into a parsed value or a dead letter; never throws, so a bad message
 * cannot fail (and restart-loop) the job. A dead letter's detail names the topic, partition and
 * offset of the message.
 *
 * @param <T> the parsed type
 */
public final class JsonRecordDeserializer<T>
    implements KafkaRecordDeserializationSchema<Parsed<T>> {

  private static final long serialVersionUID = 1L;

  /** A serializable parser: JSON text and the reader's clock to a parsed value. */
  @FunctionalInterface
  public interface Parser<T> extends Function {
    Parsed<T> parse(String json, long now);
  }

  private final Parser<T> parser;
  private final TypeInformation<Parsed<T>> type;

  public JsonRecordDeserializer(Parser<T> parser, TypeInformation<Parsed<T>> type) {
    this.parser = parser;
    this.type = type;
  }

  @Override
  public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<Parsed<T>> out) {
    long now = System.currentTimeMillis();
    String where = record.topic() + "/" + record.partition() + "@" + record.offset();
    if (record.value() == null) {
      out.collect(
          Parsed.rejected(
              DeadLetter.of(
                  "",
                  DeadLetterReason.MALFORMED_JSON,
                  where + ": empty message (tombstone)",
                  now)));
      return;
    }
    String text;
    try {
      // Strict decoding: invalid UTF-8 is refused rather than silently replaced.
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(record.value()))
              .toString();
    } catch (CharacterCodingException e) {
      String lossy = new String(record.value(), StandardCharsets.UTF_8);
      out.collect(
          Parsed.rejected(
              DeadLetter.of(lossy, DeadLetterReason.MALFORMED_JSON, where + ": not UTF-8", now)));
      return;
    }
    Parsed<T> parsed = parser.parse(text, now);
    if (!parsed.ok()) {
      DeadLetter d = parsed.deadLetter();
      parsed =
          Parsed.rejected(new DeadLetter(d.raw(), d.reason(), where + ": " + d.detail(), d.time()));
    }
    out.collect(parsed);
  }

  @Override
  public TypeInformation<Parsed<T>> getProducedType() {
    return type;
  }
}
