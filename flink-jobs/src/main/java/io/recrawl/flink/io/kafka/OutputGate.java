package io.recrawl.flink.io.kafka;

import io.recrawl.flink.io.deadletters.DeadLetterCounters;
import io.recrawl.flink.io.deadletters.DeadLetters;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.DeadLetterReason;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.flink.api.common.functions.Function;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Stands before a sink and sends on only what the sink can write: a record whose JSON cannot be
 * written, or is larger than the sink takes, becomes a dead letter (side output {@link
 * DeadLetters#TAG}, reasons {@code unwritable} and {@code output_too_large}), counted in {@code
 * recrawl.<stage>_in} and {@code recrawl.reason.<reason>.<stage>_deadletters}.
 *
 * <p>Why here and not in the sink: a Kafka producer refuses a record above its {@code
 * max.request.size} in {@code send}, or later in its callback, and {@code KafkaSink} then fails the
 * task; on restart it replays the same input and fails again, for ever. The check must therefore
 * come before the sink, where a refused record can still go elsewhere. To keep it cheap, a record
 * is written here only if a quick upper bound of its size ({@code estimate}) exceeds the limit;
 * with the default bounds (URLs of at most 8192 characters, {@code metadata.transfer.max-chars})
 * that never happens and the check costs one addition per field.
 *
 * @param <T> the record type
 */
public final class OutputGate<T> extends ProcessFunction<T, T> {

  private static final long serialVersionUID = 1L;

  /** Kafka's default {@code max.request.size}. */
  public static final int KAFKA_DEFAULT_MAX_REQUEST_SIZE = 1_048_576;

  /**
   * Room left in a producer request for what is not the value: the key (counted separately),
   * headers, the record and batch overheads (about 80 bytes in Kafka's format v2).
   */
  public static final int KAFKA_OVERHEAD_BYTES = 1_024;

  /** An upper bound of the bytes of a record's JSON in UTF-8. */
  @FunctionalInterface
  public interface Estimate<T> extends Function {
    long bytesAtMost(T value);
  }

  private final String stage;
  private final JsonRecordSerializer.ToText<T> json;
  private final JsonRecordSerializer.ToText<T> key;
  private final Estimate<T> estimate;
  private final long maxBytes;
  private transient DeadLetterCounters counters;

  /**
   * @param stage the name in metrics, e.g. {@code requests}
   * @param json how the sink writes a record
   * @param key the sink's message key, or null
   * @param estimate an upper bound of the JSON's bytes
   * @param maxBytes the most bytes of key and value that the sink takes
   */
  public OutputGate(
      String stage,
      JsonRecordSerializer.ToText<T> json,
      JsonRecordSerializer.ToText<T> key,
      Estimate<T> estimate,
      long maxBytes) {
    this.stage = stage;
    this.json = json;
    this.key = key;
    this.estimate = estimate;
    this.maxBytes = maxBytes;
  }

  /**
   * The most bytes of key and value that a Kafka sink with these client properties writes: {@code
   * max.request.size} (1 MB by default) less {@link #KAFKA_OVERHEAD_BYTES}.
   */
  public static long kafkaLimit(Map<String, String> kafkaProperties) {
    String v = kafkaProperties.get("max.request.size");
    long size = KAFKA_DEFAULT_MAX_REQUEST_SIZE;
    if (v != null) {
      try {
        size = Long.parseLong(v.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("max.request.size is not a number: " + v);
      }
    }
    return Math.max(size - KAFKA_OVERHEAD_BYTES, 0);
  }

  @Override
  public void open(OpenContext context) {
    counters = new DeadLetterCounters(getRuntimeContext().getMetricGroup(), stage);
  }

  @Override
  public void processElement(T value, Context ctx, Collector<T> out) {
    DeadLetter refused = check(value, ctx.timestamp() == null ? 0 : ctx.timestamp());
    if (refused == null) {
      counters.accepted();
      out.collect(value);
    } else {
      counters.rejected(refused.reason());
      ctx.output(DeadLetters.TAG, refused);
    }
  }

  /** Null if the sink can write the record, or the dead letter it becomes. */
  DeadLetter check(T value, long now) {
    String text;
    long bytes;
    try {
      long k = key == null ? 0 : 3L * key.apply(value).length();
      if (estimate.bytesAtMost(value) + k <= maxBytes) {
        return null;
      }
      text = json.apply(value);
      bytes =
          text.getBytes(StandardCharsets.UTF_8).length
              + (key == null ? 0 : key.apply(value).getBytes(StandardCharsets.UTF_8).length);
    } catch (RuntimeException e) {
      return DeadLetter.of(
          safeText(value), DeadLetterReason.UNWRITABLE, stage + " record not written: " + e, now);
    }
    if (bytes > maxBytes) {
      return DeadLetter.of(
          text,
          DeadLetterReason.OUTPUT_TOO_LARGE,
          stage + " record of " + bytes + " bytes, more than the sink's " + maxBytes,
          now);
    }
    return null;
  }

  private static String safeText(Object value) {
    try {
      return String.valueOf(value);
    } catch (RuntimeException e) {
      return "";
    }
  }

  /** The counters (for tests). */
  DeadLetterCounters counters() {
    return counters;
  }
}
