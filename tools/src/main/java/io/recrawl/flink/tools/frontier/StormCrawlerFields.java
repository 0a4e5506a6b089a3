package io.recrawl.flink.tools.frontier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.Dates;
import io.recrawl.wire.TabMetadata;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * StormCrawler 2.4's stored forms of a URL's fields: status names, metadata as the OpenSearch/ES
 * module writes it (keys with {@code .} as {@code %2E}, values as arrays) and as the SQL module and
 * a seed list write it ({@code \tkey=value} per value), and next fetch dates as the stores print
 * them.
 */
final class StormCrawlerFields {

  /** The OpenSearch/ES module's escape of a dot in a metadata key. */
  static final String ES_DOT = "%2E";

  private StormCrawlerFields() {}

  static CrawlStatus status(String s) throws RowRejection {
    if (s == null || s.isBlank()) {
      throw new RowRejection("missing_field:status", "no status");
    }
    try {
      return CrawlStatus.valueOf(s.strip());
    } catch (IllegalArgumentException e) {
      throw new RowRejection("unknown_status", "status '" + s + "' is not one of StormCrawler's");
    }
  }

  /** Metadata of an OpenSearch/ES document: an object of arrays (or single values) of text. */
  static Map<String, List<String>> fromOpenSearch(JsonNode md) throws RowRejection {
    Map<String, List<String>> m = new LinkedHashMap<>();
    if (md == null || md.isNull()) {
      return m;
    }
    if (!md.isObject()) {
      throw new RowRejection("bad_metadata", "metadata is not an object");
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = md.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      List<String> values = new ArrayList<>();
      JsonNode v = e.getValue();
      if (v.isArray()) {
        for (JsonNode x : v) {
          if (!x.isNull()) { // StormCrawler 4.0 writes a null value so: no value, as a null key
            values.add(scalar(e.getKey(), x));
          }
        }
      } else if (!v.isNull()) {
        values.add(scalar(e.getKey(), v));
      }
      m.put(e.getKey().replace(ES_DOT, "."), List.copyOf(values));
    }
    return m;
  }

  private static String scalar(String key, JsonNode v) throws RowRejection {
    if (v.isValueNode() && !v.isNull()) {
      return v.asText();
    }
    throw new RowRejection("bad_metadata", "metadata '" + key + "' holds a " + v.getNodeType());
  }

  static ObjectNode toOpenSearch(Map<String, List<String>> md) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    md.forEach(
        (k, vs) -> {
          ArrayNode a = o.putArray(k.replace(".", ES_DOT));
          vs.forEach(a::add);
        });
    return o;
  }

  /** Metadata as the SQL module keeps it: {@code \tkey=value} for every value. */
  static Map<String, List<String>> fromSqlText(String text) throws RowRejection {
    Map<String, List<String>> m = new LinkedHashMap<>();
    if (text == null) {
      return m;
    }
    for (String part : text.split("\t")) {
      if (!part.isEmpty()) {
        addTabPair(m, part);
      }
    }
    m.replaceAll((k, v) -> List.copyOf(v));
    return m;
  }

  /**
   * Adds one {@code key=value} of tab-separated metadata to {@code m} (its values in a mutable
   * list), restoring a pair written under {@link TabMetadata#ESCAPED_KEY}.
   */
  static void addTabPair(Map<String, List<String>> m, String pair) throws RowRejection {
    String[] kv;
    try {
      kv = TabMetadata.pair(pair);
    } catch (IllegalArgumentException bad) {
      throw new RowRejection("bad_metadata", bad.getMessage());
    }
    m.computeIfAbsent(kv[0], k -> new ArrayList<>()).add(kv[1]);
  }

  /** Metadata as the SQL module writes it (see {@link #toTabText}). */
  static String toSqlText(Map<String, List<String>> md) {
    return toTabText(md, false);
  }

  /**
   * Metadata as StormCrawler 2.4 writes it in the SQL table and a seed list: {@code \tkey=value}
   * for every value. Its reader of both (StringTabScheme, behind SQLSpout and FileSpout) splits on
   * tabs and each pair at its first {@code =}, and undoes no escape. A pair it cannot read back as
   * it is (a key that is empty or holds {@code =}, a tab or a line end; a value that holds a tab or
   * a carriage return or, on a line of its own, a line feed, or ends in space the seed reader
   * trims) goes under {@link TabMetadata#ESCAPED_KEY}, URL-encoded: StormCrawler keeps it as a key
   * of its own and the import restores it. So does a pair of that key itself. Every other pair is
   * written as it is.
   *
   * @param oneLine whether the text is on a line of its own (a seed list), not in a quoted field
   */
  static String toTabText(Map<String, List<String>> md, boolean oneLine) {
    StringBuilder b = new StringBuilder();
    md.forEach(
        (k, vs) ->
            vs.forEach(
                v -> {
                  b.append('\t');
                  if (plain(k, v, oneLine)) {
                    b.append(k).append('=').append(v);
                  } else {
                    b.append(TabMetadata.ESCAPED_KEY)
                        .append('=')
                        .append(URLEncoder.encode(k, StandardCharsets.UTF_8))
                        .append('=')
                        .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
                  }
                }));
    return b.toString();
  }

  private static boolean plain(String key, String value, boolean oneLine) {
    if (key.isEmpty() || key.equals(TabMetadata.ESCAPED_KEY) || indexOfAny(key, "=\t\r\n") >= 0) {
      return false;
    }
    if (oneLine) {
      return indexOfAny(value, "\t\r\n") < 0
          && (value.isEmpty() || !isTrimmed(value.charAt(value.length() - 1)));
    }
    // A carriage return in a CSV field is read back as a line end ("\n").
    return indexOfAny(value, "\t\r") < 0;
  }

  /** Whether a line's reader trims {@code c} off its end (String.trim and String.strip). */
  private static boolean isTrimmed(char c) {
    return c <= ' ' || Character.isWhitespace(c);
  }

  private static int indexOfAny(String s, String chars) {
    for (int i = 0; i < s.length(); i++) {
      if (chars.indexOf(s.charAt(i)) >= 0) {
        return i;
      }
    }
    return -1;
  }

  private static final DateTimeFormatter SQL_TIME =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .appendLiteral(' ')
          .append(DateTimeFormatter.ISO_LOCAL_TIME)
          .optionalStart()
          .appendOffset("+HH:mm", "Z")
          .optionalEnd()
          .optionalStart()
          .appendOffset("+HH", "Z")
          .optionalEnd()
          .toFormatter();

  /** SQL's {@code yyyy-MM-dd HH:mm:ss[.fff][+hh[:mm]]}, UTC without an offset. */
  private static final Dates.Form SQL_FORM =
      t -> {
        var parsed = SQL_TIME.parse(t);
        int offset =
            parsed.isSupported(ChronoField.OFFSET_SECONDS)
                ? parsed.get(ChronoField.OFFSET_SECONDS)
                : 0;
        return LocalDateTime.from(parsed).toInstant(ZoneOffset.ofTotalSeconds(offset));
      };

  private static final List<Dates.Form> TIME_FORMS =
      Stream.concat(Dates.ISO_INSTANT.stream(), Stream.of(Dates.ISO_LOCAL_UTC, SQL_FORM)).toList();

  /**
   * A next fetch date: epoch ms, an ISO-8601 instant or date-time with offset, or SQL's {@code
   * yyyy-MM-dd HH:mm:ss[.fff][+hh[:mm]]}; a time without an offset is UTC. A year beyond 9999 is
   * not a date ({@link Dates}).
   */
  static long time(String s) throws RowRejection {
    Long t = Dates.parse(s, TIME_FORMS);
    if (t == null) {
      throw new RowRejection("bad_time", "next fetch date '" + s + "' is not a date");
    }
    return t;
  }

  /**
   * A next fetch date as the OpenSearch/ES module writes it: an ISO-8601 instant, at most {@link
   * Dates#MAX_MILLIS} (a due time beyond year 9999 is no date a store holds, nor {@link #time}
   * reads; it is never in practice).
   */
  static String isoTime(long ms) {
    return Instant.ofEpochMilli(Math.min(ms, Dates.MAX_MILLIS)).toString();
  }

  /** A next fetch date as SQL prints a UTC timestamp, at most {@link Dates#MAX_MILLIS}. */
  static String sqlTime(long ms) {
    return LocalDateTime.ofInstant(
            Instant.ofEpochMilli(Math.min(ms, Dates.MAX_MILLIS)), ZoneOffset.UTC)
        .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS"));
  }
}
