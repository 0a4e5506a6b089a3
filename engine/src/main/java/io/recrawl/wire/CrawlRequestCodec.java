package io.recrawl.wire;

import com.fasterxml.jackson.databind.JsonNode;

/** Reads and writes crawl requests (topic {@code crawl.requests}) as JSON. */
public final class CrawlRequestCodec {

  private CrawlRequestCodec() {}

  /** Writes a crawl request; {@link #parse} reads it back to an equal request. */
  public static String toJson(CrawlRequest r) {
    return WireJson.object(
        g -> {
          g.writeStringField("url", PageKeys.url(r.url()));
          String crawl = PageKeys.crawl(r.url());
          if (!PageKeys.isDefault(crawl)) {
            g.writeStringField("crawl", crawl);
          }
          g.writeStringField("host", r.host());
          WireJson.writeMetadata(g, r.metadata());
          g.writeNumberField("time", r.time());
          g.writeNumberField("due", r.due());
          g.writeNumberField("value", r.value());
          g.writeNumberField("threshold", r.threshold());
          g.writeNumberField("lease", r.lease());
          g.writeNumberField("spacing", r.spacing());
        });
  }

  /**
   * An upper bound of the bytes of {@link #toJson}'s UTF-8, cheap to compute: 6 bytes a character
   * of text (a control character escaped as {@code \}{@code u0001}; 3 bytes otherwise), with 6
   * characters of quoting a metadata key and 3 a value, plus 256 for the field names and numbers.
   */
  public static long maxJsonBytes(CrawlRequest r) {
    long chars = 2L * r.url().length() + r.host().length();
    if (r.metadata() != null) {
      for (var e : r.metadata().entrySet()) {
        chars += e.getKey().length() + 6;
        for (String v : e.getValue()) {
          chars += v.length() + 3;
        }
      }
    }
    return 6 * chars + 256;
  }

  /**
   * Parses a crawl request, as a crawler's spout does. Times must be epoch ms or ISO-8601; no
   * future check, because requests carry lease expiries that lie ahead by design.
   */
  public static Parsed<CrawlRequest> parse(String raw, long now) {
    try {
      JsonNode o = WireJson.readObject(raw, StatusEventCodec.DEFAULT_MAX_CHARS);
      String url = WireJson.text(WireJson.required(o, "url"), "url", DeadLetterReason.BAD_URL);
      JsonNode crawl = WireJson.optional(o, "crawl");
      if (crawl != null) {
        url =
            PageKeys.of(
                PageKeys.checked(WireJson.text(crawl, "crawl", DeadLetterReason.BAD_CRAWL)), url);
      }
      String host = WireJson.text(WireJson.required(o, "host"), "host", DeadLetterReason.BAD_HOST);
      if (host.isEmpty()) {
        throw new Rejection(DeadLetterReason.BAD_HOST, "'host' is empty");
      }
      return Parsed.ok(
          new CrawlRequest(
              url,
              host,
              WireJson.metadata(WireJson.optional(o, "metadata")),
              WireJson.time(WireJson.required(o, "time"), "time", now, -1),
              WireJson.time(WireJson.required(o, "due"), "due", now, -1),
              WireJson.finite(WireJson.required(o, "value"), "value", DeadLetterReason.BAD_NUMBER),
              WireJson.finite(
                  WireJson.required(o, "threshold"), "threshold", DeadLetterReason.BAD_NUMBER),
              WireJson.time(WireJson.required(o, "lease"), "lease", now, -1),
              spacing(WireJson.optional(o, "spacing"))));
    } catch (Rejection r) {
      return r.toParsed(raw, now);
    }
  }

  /** A request's {@code spacing}, ms: absent (an older job) is 0, unknown. */
  private static long spacing(JsonNode n) throws Rejection {
    if (n == null) {
      return 0;
    }
    double ms = WireJson.finite(n, "spacing", DeadLetterReason.BAD_NUMBER);
    if (ms < 0) {
      throw new Rejection(DeadLetterReason.BAD_NUMBER, "'spacing' is negative: " + ms);
    }
    return (long) ms;
  }
}
