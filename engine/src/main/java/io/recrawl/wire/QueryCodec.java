package io.recrawl.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads and writes {@link StateQuery} (inside a control message of type {@code query}) and {@link
 * QueryAnswer} (topic {@code crawl.answers}) as JSON.
 */
public final class QueryCodec {

  /** An answer is cut to stay under this many characters, well inside a Kafka record. */
  public static final int MAX_ANSWER_CHARS = 500_000;

  private QueryCodec() {}

  /** Writes the query's fields into an open object. */
  static void writeQuery(JsonGenerator g, StateQuery q) throws IOException {
    g.writeStringField("id", q.id());
    g.writeStringField("op", q.op().name().toLowerCase(Locale.ROOT));
    if (q.crawl() != null) {
      g.writeStringField("crawl", q.crawl());
    }
    if (q.host() != null) {
      g.writeStringField("host", q.host());
    }
    if (q.url() != null) {
      g.writeStringField("url", q.url());
    }
    g.writeNumberField("start", q.start());
    g.writeNumberField("size", q.size());
    g.writeBooleanField("include_inactive", q.includeInactive());
    g.writeNumberField("until", q.until());
    if (q.filter() != null) {
      g.writeStringField("filter", q.filter());
    }
    g.writeBooleanField("ignore_case", q.ignoreCase());
    if (q.after() != null) {
      g.writeStringField("after", q.after());
    }
  }

  /** Reads a query from a control message's fields; its host is keyed by {@code keys}. */
  static StateQuery readQuery(JsonNode o, long time, HostKeys keys) throws Rejection {
    String id = WireJson.text(WireJson.required(o, "id"), "id", DeadLetterReason.BAD_QUERY);
    String opName = WireJson.text(WireJson.required(o, "op"), "op", DeadLetterReason.BAD_QUERY);
    StateQuery.Op op;
    try {
      op = StateQuery.Op.valueOf(opName.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new Rejection(DeadLetterReason.BAD_QUERY, "unknown query op '" + opName + "'");
    }
    String crawl = optionalText(o, "crawl");
    if (crawl != null) {
      PageKeys.checked(crawl);
    }
    String host = optionalText(o, "host");
    String url = optionalText(o, "url");
    if (url != null) {
      url = StatusEventCodec.url(url);
      try {
        host = keys.keyOf(url); // the URL's host, whatever queue the asker named
      } catch (IllegalArgumentException e) {
        throw new Rejection(DeadLetterReason.BAD_URL, e.getMessage());
      }
    } else if (host != null) {
      try {
        host = keys.keyOfHost(host);
      } catch (IllegalArgumentException e) {
        throw new Rejection(DeadLetterReason.BAD_HOST, e.getMessage());
      }
    }
    try {
      return new StateQuery(
          id,
          op,
          time,
          crawl,
          host,
          url,
          optionalLong(o, "start"),
          optionalLong(o, "size"),
          optionalBoolean(o, "include_inactive"),
          optionalLong(o, "until"),
          optionalText(o, "filter"),
          optionalBoolean(o, "ignore_case"),
          optionalText(o, "after"));
    } catch (IllegalArgumentException e) {
      throw new Rejection(DeadLetterReason.BAD_QUERY, e.getMessage());
    }
  }

  /** Writes an answer; {@link #parseAnswer} reads it back to an equal answer. */
  public static String toJson(QueryAnswer a) {
    return WireJson.object(
        g -> {
          g.writeStringField("id", a.id());
          g.writeNumberField("part", a.part());
          g.writeNumberField("parts", a.parts());
          g.writeNumberField("as_of", a.asOf());
          g.writeNumberField("count", a.count());
          g.writeNumberField("in_flight", a.inFlight());
          g.writeNumberField("hosts", a.hosts());
          g.writeArrayFieldStart("names");
          for (String n : a.names()) {
            g.writeString(n);
          }
          g.writeEndArray();
          g.writeArrayFieldStart("pages");
          for (QueryAnswer.Page p : a.pages()) {
            g.writeStartObject();
            g.writeStringField("key", p.key());
            g.writeStringField("host", p.host());
            g.writeStringField("status", p.status().name());
            g.writeNumberField("last_fetch", p.lastFetch());
            g.writeNumberField("due", p.due());
            g.writeBooleanField("in_flight", p.inFlight());
            WireJson.writeMetadata(g, p.metadata());
            g.writeEndObject();
          }
          g.writeEndArray();
          g.writeBooleanField("cut", a.cut());
          if (a.error() != null) {
            g.writeStringField("error", a.error());
          }
        });
  }

  /** An upper bound of a page's characters in {@link #toJson}. */
  public static long maxChars(QueryAnswer.Page p) {
    long chars = p.key().length() + p.host().length() + 200;
    if (p.metadata() != null) {
      for (var e : p.metadata().entrySet()) {
        chars += 6L * e.getKey().length() + 6;
        for (String v : e.getValue()) {
          chars += 6L * v.length() + 3;
        }
      }
    }
    return chars;
  }

  /** Parses an answer. */
  public static Parsed<QueryAnswer> parseAnswer(String raw, long now) {
    try {
      JsonNode o = WireJson.readObject(raw, MAX_ANSWER_CHARS * 2);
      List<String> names = new ArrayList<>();
      JsonNode n = WireJson.optional(o, "names");
      if (n != null) {
        for (JsonNode v : n) {
          names.add(WireJson.text(v, "names", DeadLetterReason.BAD_QUERY));
        }
      }
      List<QueryAnswer.Page> pages = new ArrayList<>();
      JsonNode ps = WireJson.optional(o, "pages");
      if (ps != null) {
        for (JsonNode p : ps) {
          pages.add(
              new QueryAnswer.Page(
                  WireJson.text(WireJson.required(p, "key"), "key", DeadLetterReason.BAD_URL),
                  WireJson.text(WireJson.required(p, "host"), "host", DeadLetterReason.BAD_HOST),
                  CrawlStatus.valueOf(
                      WireJson.text(
                          WireJson.required(p, "status"),
                          "status",
                          DeadLetterReason.UNKNOWN_STATUS)),
                  optionalLong(p, "last_fetch"),
                  optionalLong(p, "due"),
                  optionalBoolean(p, "in_flight"),
                  WireJson.metadata(WireJson.optional(p, "metadata"))));
        }
      }
      return Parsed.ok(
          new QueryAnswer(
              WireJson.text(WireJson.required(o, "id"), "id", DeadLetterReason.BAD_QUERY),
              (int) optionalLong(o, "part"),
              (int) optionalLong(o, "parts"),
              optionalLong(o, "as_of"),
              optionalLong(o, "count"),
              optionalLong(o, "in_flight"),
              optionalLong(o, "hosts"),
              names,
              pages,
              optionalBoolean(o, "cut"),
              optionalText(o, "error")));
    } catch (Rejection r) {
      return r.toParsed(raw, now);
    } catch (IllegalArgumentException bad) {
      return new Rejection(DeadLetterReason.BAD_QUERY, bad.getMessage()).toParsed(raw, now);
    }
  }

  private static String optionalText(JsonNode o, String field) throws Rejection {
    JsonNode v = WireJson.optional(o, field);
    return v == null ? null : WireJson.text(v, field, DeadLetterReason.BAD_QUERY);
  }

  private static long optionalLong(JsonNode o, String field) throws Rejection {
    JsonNode v = WireJson.optional(o, field);
    return v == null ? 0 : WireJson.nonNegativeLong(v, field, DeadLetterReason.BAD_NUMBER);
  }

  private static boolean optionalBoolean(JsonNode o, String field) throws Rejection {
    JsonNode v = WireJson.optional(o, field);
    if (v == null) {
      return false;
    }
    if (!v.isBoolean()) {
      throw new Rejection(DeadLetterReason.BAD_QUERY, "'" + field + "' must be a boolean");
    }
    return v.booleanValue();
  }
}
