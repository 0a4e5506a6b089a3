package io.recrawl.wire;

/** Writes dead letters (topic {@code crawl.deadletters} or dead-letter files) as JSON. */
public final class DeadLetterCodec {

  private DeadLetterCodec() {}

  /** {@code {"reason":..., "detail":..., "time":..., "raw":...}}. */
  public static String toJson(DeadLetter d) {
    return WireJson.object(
        g -> {
          g.writeStringField("reason", d.reason());
          g.writeStringField("detail", d.detail());
          g.writeNumberField("time", d.time());
          g.writeStringField("raw", d.raw());
        });
  }

  /** Reads a dead letter written by {@link #toJson}, e.g. to replay it after a fix. */
  public static Parsed<DeadLetter> parse(String raw, long now) {
    try {
      var o = WireJson.readObject(raw, Integer.MAX_VALUE);
      return Parsed.ok(
          new DeadLetter(
              WireJson.text(WireJson.required(o, "raw"), "raw", DeadLetterReason.MALFORMED_JSON),
              WireJson.text(
                  WireJson.required(o, "reason"), "reason", DeadLetterReason.MALFORMED_JSON),
              WireJson.text(
                  WireJson.required(o, "detail"), "detail", DeadLetterReason.MALFORMED_JSON),
              WireJson.time(WireJson.required(o, "time"), "time", now, -1)));
    } catch (Rejection r) {
      return r.toParsed(raw, now);
    }
  }
}
