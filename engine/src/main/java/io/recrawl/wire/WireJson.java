package io.recrawl.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Shared JSON plumbing of the wire codecs: one configured mapper, times, metadata. */
final class WireJson {

  /**
   * Lenient where a producer may legitimately differ (NaN literals are read so that they can be
   * refused with a precise reason), strict where ambiguity could hide an attack (duplicate fields,
   * trailing tokens).
   */
  static final ObjectMapper MAPPER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                  .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                  .build())
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private WireJson() {}

  interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  /** Writes one JSON object with the given body. */
  static String object(Body body) {
    StringWriter out = new StringWriter(256);
    try (JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
      g.writeStartObject();
      body.write(g);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.toString();
  }

  static JsonNode readObject(String raw, int maxChars) throws Rejection {
    if (raw == null) {
      throw new Rejection(DeadLetterReason.MALFORMED_JSON, "no input");
    }
    if (raw.length() > maxChars) {
      throw new Rejection(
          DeadLetterReason.TOO_LARGE, raw.length() + " characters, more than " + maxChars);
    }
    JsonNode node;
    try {
      node = MAPPER.readTree(raw);
    } catch (JsonProcessingException e) {
      throw new Rejection(DeadLetterReason.MALFORMED_JSON, e.getOriginalMessage());
    }
    if (node == null || node.isMissingNode()) {
      throw new Rejection(DeadLetterReason.MALFORMED_JSON, "empty input");
    }
    if (!node.isObject()) {
      throw new Rejection(
          DeadLetterReason.NOT_AN_OBJECT,
          "a JSON " + node.getNodeType().name().toLowerCase() + ", not an object");
    }
    return node;
  }

  static JsonNode required(JsonNode obj, String field) throws Rejection {
    JsonNode v = obj.get(field);
    if (v == null || v.isNull()) {
      throw new Rejection(DeadLetterReason.missingField(field), "'" + field + "' is required");
    }
    return v;
  }

  static JsonNode optional(JsonNode obj, String field) {
    JsonNode v = obj.get(field);
    return v == null || v.isNull() ? null : v;
  }

  /**
   * A time: epoch milliseconds (a JSON integer or a string of digits) or an ISO-8601 instant with a
   * zone or offset. Refuses negative times and, if {@code maxFutureMs >= 0}, times more than that
   * beyond {@code now}.
   */
  static long time(JsonNode v, String field, long now, long maxFutureMs) throws Rejection {
    long t;
    if (v.isIntegralNumber() && v.canConvertToLong()) {
      t = v.longValue();
    } else if (v.isTextual()) {
      t = parseTime(v.textValue(), field);
    } else {
      throw new Rejection(
          DeadLetterReason.BAD_TIME,
          "'" + field + "' must be epoch milliseconds or an ISO-8601 instant, got " + v);
    }
    return checkedTime(t, field, now, maxFutureMs);
  }

  /** A time in epoch ms, checked: not before 1970 nor more than {@code maxFutureMs} after now. */
  static long checkedTime(long t, String field, long now, long maxFutureMs) throws Rejection {
    if (t < 0) {
      throw new Rejection(DeadLetterReason.BAD_TIME, "'" + field + "' is before 1970: " + t);
    }
    if (maxFutureMs >= 0 && t > now + maxFutureMs) {
      throw new Rejection(
          DeadLetterReason.TIME_IN_FUTURE,
          "'"
              + field
              + "' "
              + Instant.ofEpochMilli(t)
              + " is more than "
              + maxFutureMs
              + " ms after "
              + Instant.ofEpochMilli(now));
    }
    return t;
  }

  private static long parseTime(String s, String field) throws Rejection {
    String text = s.strip();
    if (!text.isEmpty() && text.chars().allMatch(Character::isDigit) && text.length() <= 18) {
      return Long.parseLong(text);
    }
    Long t = Dates.parse(text, Dates.ISO_INSTANT);
    if (t == null) {
      throw new Rejection(
          DeadLetterReason.BAD_TIME,
          "'" + field + "' is not an ISO-8601 instant with a zone: '" + s + "'");
    }
    return t;
  }

  /** A finite double, or a rejection with {@code reason}. */
  static double finite(JsonNode v, String field, String reason) throws Rejection {
    if (!v.isNumber()) {
      throw new Rejection(reason, "'" + field + "' must be a number, got " + v);
    }
    double d = v.doubleValue();
    if (!Double.isFinite(d)) {
      throw new Rejection(reason, "'" + field + "' must be finite, got " + v);
    }
    return d;
  }

  /** A non-negative long integer, or a rejection with {@code reason}. */
  static long nonNegativeLong(JsonNode v, String field, String reason) throws Rejection {
    if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 0) {
      throw new Rejection(reason, "'" + field + "' must be a non-negative integer, got " + v);
    }
    return v.longValue();
  }

  static String text(JsonNode v, String field, String reason) throws Rejection {
    if (!v.isTextual()) {
      throw new Rejection(
          reason, "'" + field + "' must be a string, got " + v.getNodeType().name().toLowerCase());
    }
    return v.textValue();
  }

  /**
   * StormCrawler's metadata multimap: each value a string or a list of strings. Numbers and
   * booleans are taken as their text, since many producers write {@code "fetch.statusCode": 200}.
   */
  static Map<String, List<String>> metadata(JsonNode v) throws Rejection {
    if (v == null) {
      return Collections.emptyMap();
    }
    if (!v.isObject()) {
      throw new Rejection(DeadLetterReason.BAD_METADATA, "'metadata' must be an object");
    }
    Map<String, List<String>> md = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> fields = v.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> e = fields.next();
      JsonNode value = e.getValue();
      if (value.isArray()) {
        List<String> values = new ArrayList<>(value.size());
        for (JsonNode item : value) {
          values.add(scalar(e.getKey(), item));
        }
        md.put(e.getKey(), Collections.unmodifiableList(values));
      } else {
        md.put(e.getKey(), List.of(scalar(e.getKey(), value)));
      }
    }
    return Collections.unmodifiableMap(md);
  }

  private static String scalar(String key, JsonNode item) throws Rejection {
    if (item.isTextual()) {
      return item.textValue();
    }
    if (item.isNumber() || item.isBoolean()) {
      return item.asText();
    }
    throw new Rejection(
        DeadLetterReason.BAD_METADATA,
        "metadata '"
            + key
            + "' holds a "
            + item.getNodeType().name().toLowerCase()
            + ", not a string");
  }

  static void writeMetadata(JsonGenerator g, Map<String, List<String>> md) throws IOException {
    g.writeObjectFieldStart("metadata");
    if (md != null) {
      for (Map.Entry<String, List<String>> e : md.entrySet()) {
        g.writeArrayFieldStart(e.getKey());
        for (String s : e.getValue()) {
          g.writeString(s);
        }
        g.writeEndArray();
      }
    }
    g.writeEndObject();
  }
}
