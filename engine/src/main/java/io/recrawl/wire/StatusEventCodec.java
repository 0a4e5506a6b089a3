package io.recrawl.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.Serializable;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads and writes status events (topic {@code crawl.status}) as JSON, validating every field.
 * Parsing never throws: a bad input becomes a {@link DeadLetter} with a reason.
 */
public final class StatusEventCodec implements Serializable {

  private static final long serialVersionUID = 1L;

  /** Default tolerance for event times ahead of the reader's clock: one hour of clock skew. */
  public static final long DEFAULT_MAX_FUTURE_MS = 3_600_000L;

  /** Default maximum size of one input, in characters. */
  public static final int DEFAULT_MAX_CHARS = 1_048_576;

  /**
   * The metadata key of a page's weight in a seed line ({@code URL\trecrawl.weight=2.5}), and the
   * default key from which recrawl's StormCrawler components read it.
   */
  public static final String WEIGHT_KEY = "recrawl.weight";

  private final HostKeys.Mode mode;
  private final long maxFutureMs;
  private final int maxChars;

  /**
   * @param mode how the host key is computed from the URL
   * @param maxFutureMs how far past the supplied "now" an event time may lie; negative disables the
   *     check
   * @param maxChars the largest accepted input, in characters
   */
  public StatusEventCodec(HostKeys.Mode mode, long maxFutureMs, int maxChars) {
    if (maxChars <= 0) {
      throw new IllegalArgumentException("maxChars must be positive: " + maxChars);
    }
    this.mode = mode;
    this.maxFutureMs = maxFutureMs;
    this.maxChars = maxChars;
  }

  /** byHost keys and the default limits. */
  public static StatusEventCodec withDefaults() {
    return new StatusEventCodec(HostKeys.Mode.BY_HOST, DEFAULT_MAX_FUTURE_MS, DEFAULT_MAX_CHARS);
  }

  /**
   * Parses one status event.
   *
   * @param raw the JSON text
   * @param now the reader's clock or watermark, epoch ms: the reference for {@code time_in_future}
   *     and the time stamped on a dead letter
   */
  public Parsed<StatusEvent> parse(String raw, long now) {
    try {
      JsonNode o = WireJson.readObject(raw, maxChars);
      String url = url(WireJson.text(WireJson.required(o, "url"), "url", DeadLetterReason.BAD_URL));
      String host = hostKey(url);
      url = PageKeys.of(crawl(WireJson.optional(o, "crawl")), url);
      CrawlStatus status = status(WireJson.required(o, "status"));
      long time = WireJson.time(WireJson.required(o, "time"), "time", now, maxFutureMs);
      Map<String, List<String>> metadata = WireJson.metadata(WireJson.optional(o, "metadata"));
      checkMetadata(metadata);
      Boolean changed = changed(WireJson.optional(o, "changed"));
      Double weight = weight(WireJson.optional(o, "weight"));
      Integer httpStatus = httpStatus(WireJson.optional(o, "http_status"));
      return Parsed.ok(
          new StatusEvent(url, host, status, time, metadata, changed, weight, httpStatus));
    } catch (Rejection r) {
      return r.toParsed(raw, now);
    }
  }

  /** A status event checked as the job will read it, and the JSON the job will read. */
  public record Encoded(StatusEvent event, String json) {}

  /**
   * Checks an event built in memory as {@link #parse} checks the JSON {@link #toJson} writes of it,
   * without reading that JSON back: the same refusals, and on acceptance the event {@code parse}
   * would return (its URL in its one spelling, its host key under this codec's mode) with its JSON.
   * The event's {@code host} is not read.
   */
  public Parsed<Encoded> encode(StatusEvent e, long now) {
    try {
      // In parse's order, so that an event wrong twice is refused for the same reason.
      String url = url(PageKeys.url(e.url()));
      String host = hostKey(url);
      String crawl = PageKeys.checked(PageKeys.crawl(e.url()));
      if (e.status() == null) {
        throw new Rejection(DeadLetterReason.UNKNOWN_STATUS, "no status");
      }
      long time = WireJson.checkedTime(e.time(), "time", now, maxFutureMs);
      Map<String, List<String>> metadata = e.metadata() == null ? Map.of() : e.metadata();
      checkMetadata(metadata);
      Double weight = e.weight();
      if (weight != null) {
        if (!Double.isFinite(weight)) {
          throw new Rejection(
              DeadLetterReason.BAD_WEIGHT, "'weight' must be finite, got " + weight);
        }
        checkedWeight(weight, "weight", String.valueOf(weight));
      }
      if (e.httpStatus() != null) {
        httpStatus(e.httpStatus(), String.valueOf(e.httpStatus()));
      }
      StatusEvent checked =
          new StatusEvent(
              PageKeys.of(crawl, url),
              host,
              e.status(),
              time,
              metadata,
              e.changed(),
              weight,
              e.httpStatus());
      String json = toJson(checked);
      if (json.length() > maxChars) {
        throw new Rejection(
            DeadLetterReason.TOO_LARGE, json.length() + " characters, more than " + maxChars);
      }
      return Parsed.ok(new Encoded(checked, json));
    } catch (Rejection r) {
      return r.toParsed(String.valueOf(e), now);
    }
  }

  /** What {@link #parse} refuses in metadata that a map in memory can hold. */
  private static void checkMetadata(Map<String, List<String>> metadata) throws Rejection {
    for (Map.Entry<String, List<String>> m : metadata.entrySet()) {
      // A list that List.of made refuses contains(null): look at each value.
      if (m.getValue() == null || m.getValue().stream().anyMatch(v -> v == null)) {
        throw new Rejection(
            DeadLetterReason.BAD_METADATA,
            "metadata '" + m.getKey() + "' holds a null, not a string");
      }
    }
    checkChangeRate(metadata);
    checkRefetchAt(metadata);
  }

  /**
   * Parses one line of a seed file: a URL, optionally followed by tab-separated {@code key=value}
   * metadata (StormCrawler's seed format). It becomes a DISCOVERED event at {@code time}.
   */
  public Parsed<StatusEvent> parseSeed(String line, long time) {
    try {
      if (line == null || line.length() > maxChars) {
        throw new Rejection(DeadLetterReason.TOO_LARGE, "seed line longer than " + maxChars);
      }
      if (line.indexOf('\uFFFD') >= 0) {
        // What a UTF-8 reader puts where a byte was not UTF-8: a Latin-1 file, not a URL to crawl.
        throw new Rejection(
            DeadLetterReason.BAD_ENCODING, "seed line is not UTF-8 (U+FFFD where a byte was)");
      }
      // A byte order mark, as Windows tools start a UTF-8 file, is not part of the first seed.
      String text = line.startsWith("\uFEFF") ? line.substring(1) : line;
      String[] parts = text.strip().split("\t");
      String url = url(parts[0].strip());
      String host = hostKey(url);
      Map<String, List<String>> md = new java.util.LinkedHashMap<>();
      for (int i = 1; i < parts.length; i++) {
        String[] kv;
        try {
          kv = TabMetadata.pair(parts[i]); // an escaped pair, as export writes it, restored
        } catch (IllegalArgumentException bad) {
          throw new Rejection(DeadLetterReason.BAD_METADATA, "seed " + bad.getMessage());
        }
        md.computeIfAbsent(kv[0], k -> new java.util.ArrayList<>()).add(kv[1]);
      }
      md.replaceAll((k, v) -> List.copyOf(v));
      List<String> weight = md.get(WEIGHT_KEY);
      return Parsed.ok(
          new StatusEvent(
              url,
              host,
              CrawlStatus.DISCOVERED,
              time,
              java.util.Collections.unmodifiableMap(md),
              null,
              weight == null ? null : seedWeight(weight.get(weight.size() - 1)),
              null));
    } catch (Rejection r) {
      return r.toParsed(line, time);
    }
  }

  /** Writes a status event; {@link #parse} reads it back to an equal event. */
  public static String toJson(StatusEvent e) {
    return WireJson.object(
        g -> {
          g.writeStringField("url", PageKeys.url(e.url()));
          String crawl = PageKeys.crawl(e.url());
          if (!PageKeys.isDefault(crawl)) {
            g.writeStringField("crawl", crawl);
          }
          g.writeStringField("status", e.status().name());
          g.writeNumberField("time", e.time());
          WireJson.writeMetadata(g, e.metadata());
          if (e.changed() != null) {
            g.writeBooleanField("changed", e.changed());
          }
          if (e.weight() != null) {
            g.writeNumberField("weight", e.weight());
          }
          if (e.httpStatus() != null) {
            g.writeNumberField("http_status", e.httpStatus());
          }
        });
  }

  /**
   * A known change rate in the metadata must be a positive number of changes per day that a float
   * holds.
   */
  private static void checkChangeRate(Map<String, List<String>> metadata) throws Rejection {
    List<String> v = metadata.get(StatusEvent.CHANGE_RATE_KEY);
    if (v == null) {
      return;
    }
    String s = v.isEmpty() ? "" : v.get(0).trim();
    double rate;
    try {
      rate = Double.parseDouble(s);
    } catch (NumberFormatException e) {
      rate = Double.NaN;
    }
    // The engine keeps a page's change rate as a float: one that rounds to 0 or to infinity there
    // would fail it.
    if (!(rate > 0)
        || Double.isInfinite(rate)
        || (float) rate == 0
        || Float.isInfinite((float) rate)) {
      throw new Rejection(
          DeadLetterReason.BAD_METADATA,
          "metadata '"
              + StatusEvent.CHANGE_RATE_KEY
              + "' must be a positive number of changes per day from "
              + Float.MIN_VALUE
              + " to "
              + Float.MAX_VALUE
              + ", got '"
              + s
              + "'");
    }
  }

  /** A client's refetch date must be a positive integer of epoch ms. */
  private static void checkRefetchAt(Map<String, List<String>> metadata) throws Rejection {
    List<String> v = metadata.get(StatusEvent.REFETCH_AT_KEY);
    if (v == null) {
      return;
    }
    String s = v.isEmpty() ? "" : v.get(0).trim();
    long at;
    try {
      at = Long.parseLong(s);
    } catch (NumberFormatException e) {
      at = 0;
    }
    if (at <= 0) {
      throw new Rejection(
          DeadLetterReason.BAD_METADATA,
          "metadata '"
              + StatusEvent.REFETCH_AT_KEY
              + "' must be a positive integer of epoch ms, got '"
              + s
              + "'");
    }
  }

  /** The URL in its one spelling ({@link Urls#normalise}), or a {@code bad_url} rejection. */
  static String url(String url) throws Rejection {
    try {
      return Urls.normalise(url);
    } catch (IllegalArgumentException e) {
      throw new Rejection(DeadLetterReason.BAD_URL, e.getMessage());
    }
  }

  /** The crawl an event names: null for the default crawl. */
  private static String crawl(JsonNode v) throws Rejection {
    return v == null
        ? null
        : PageKeys.checked(WireJson.text(v, "crawl", DeadLetterReason.BAD_CRAWL));
  }

  /** The host key of a URL under this codec's partition mode, or a {@code bad_url} rejection. */
  String hostKey(String url) throws Rejection {
    try {
      return HostKeys.of(mode).keyOf(url);
    } catch (IllegalArgumentException e) {
      throw new Rejection(DeadLetterReason.BAD_URL, e.getMessage());
    }
  }

  private static CrawlStatus status(JsonNode v) throws Rejection {
    String s = WireJson.text(v, "status", DeadLetterReason.UNKNOWN_STATUS);
    try {
      return CrawlStatus.valueOf(s.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new Rejection(DeadLetterReason.UNKNOWN_STATUS, "unknown status '" + s + "'");
    }
  }

  private static Boolean changed(JsonNode v) throws Rejection {
    if (v == null) {
      return null;
    }
    if (!v.isBoolean()) {
      throw new Rejection(
          DeadLetterReason.BAD_CHANGED, "'changed' must be true or false, got " + v);
    }
    return v.booleanValue();
  }

  private static Double weight(JsonNode v) throws Rejection {
    if (v == null) {
      return null;
    }
    return checkedWeight(
        WireJson.finite(v, "weight", DeadLetterReason.BAD_WEIGHT), "weight", v.toString());
  }

  private static double seedWeight(String v) throws Rejection {
    double w;
    try {
      w = Double.parseDouble(v.strip());
    } catch (NumberFormatException e) {
      w = Double.NaN;
    }
    if (!Double.isFinite(w)) {
      throw new Rejection(
          DeadLetterReason.BAD_WEIGHT, "'" + WEIGHT_KEY + "' must be a number, got '" + v + "'");
    }
    return checkedWeight(w, WEIGHT_KEY, v);
  }

  private static double checkedWeight(double w, String field, String shown) throws Rejection {
    if (w <= 0) {
      throw new Rejection(
          DeadLetterReason.BAD_WEIGHT, "'" + field + "' must be above zero, got " + shown);
    }
    // The engine keeps a page's weight as a float: a weight that rounds to 0 (below 1.4E-45) or to
    // infinity (above 3.4028235E38) there would fail it, or value the page without bound.
    float f = (float) w;
    if (f == 0 || Float.isInfinite(f)) {
      throw new Rejection(
          DeadLetterReason.BAD_WEIGHT,
          "'"
              + field
              + "' must be from "
              + Float.MIN_VALUE
              + " to "
              + Float.MAX_VALUE
              + " (a float), got "
              + shown);
    }
    return w;
  }

  private static Integer httpStatus(JsonNode v) throws Rejection {
    if (v == null) {
      return null;
    }
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      throw badHttpStatus(v.toString());
    }
    return httpStatus(v.intValue(), v.toString());
  }

  private static int httpStatus(int status, String shown) throws Rejection {
    if (status < 100 || status > 599) {
      throw badHttpStatus(shown);
    }
    return status;
  }

  private static Rejection badHttpStatus(String shown) {
    return new Rejection(
        DeadLetterReason.BAD_HTTP_STATUS,
        "'http_status' must be an integer from 100 to 599, got " + shown);
  }
}
