package io.recrawl.wire;

import com.fasterxml.jackson.databind.JsonNode;

/** Reads and writes crawl requests (topic {@code crawl.requests}) as JSON. */
public final class CrawlRequestCodec {

  private CrawlRequestCodec() {}

  /** Writes a crawl request; {@link #parse} reads it back to an equal request. */
  public static String toJson(CrawlRequest r) {
    return WireJson.object(
        g -> {
          g.writeStringField("url", r.url());
          g.writeStringField("host", r.host());
          WireJson.writeMetadata(g, r.metadata());
          g.writeNumberField("time", r.time());
          g.writeNumberField("due", r.due());
          g.writeNumberField("value", r.value());
          g.writeNumberField("threshold", r.threshold());
          g.writeNumberField("lease", r.lease());
        });
  }

  /**
   * Parses a crawl request, as a crawler's spout does. Times must be epoch ms or ISO-8601; no
   * future check, because requests carry lease expiries that lie ahead by design.
   */
  public static Parsed<CrawlRequest> parse(String raw, long now) {
    try {
      JsonNode o = WireJson.readObject(raw, StatusEventCodec.DEFAULT_MAX_CHARS);
      String url = WireJson.text(WireJson.required(o, "url"), "url", DeadLetterReason.BAD_URL);
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
              WireJson.time(WireJson.required(o, "lease"), "lease", now, -1)));
    } catch (Rejection r) {
      return r.toParsed(raw, now);
    }
  }
}
