package io.recrawl.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.Serializable;
import java.util.Locale;

/**
 * Reads and writes control messages (topic {@code crawl.control}) as JSON: {@code lambda} (a new
 * global lambda with its epoch), {@code tick} (the clock), {@code host_rate} (a host's maximum
 * crawl rate per day), {@code budget} and {@code query} (see {@link StateQuery}).
 *
 * <p>A {@code host_rate}'s {@code host} (a host, {@code host:port}, or an http(s) URL) is turned
 * into the partition key its status events get under the job's partition mode; one that names no
 * host is a {@code bad_host} dead letter.
 */
public final class ControlMessageCodec implements Serializable {

  private static final long serialVersionUID = 1L;

  private final HostKeys.Mode mode;
  private final long maxFutureMs;

  /**
   * @param mode the job's partition mode: a {@code host_rate} override is keyed by the same
   *     function as the status events ({@link HostKeys#keyOfHost}), so that it reaches them
   * @param maxFutureMs how far past the reader's clock a control time may lie; negative disables
   *     the check. A control time far ahead would drag event time, and every due page, forward.
   */
  public ControlMessageCodec(HostKeys.Mode mode, long maxFutureMs) {
    this.mode = java.util.Objects.requireNonNull(mode, "mode");
    this.maxFutureMs = maxFutureMs;
  }

  /** A codec for a job that keys by host ({@link HostKeys.Mode#BY_HOST}). */
  public ControlMessageCodec(long maxFutureMs) {
    this(HostKeys.Mode.BY_HOST, maxFutureMs);
  }

  /** Writes a control message with only the fields of its kind. */
  public static String toJson(ControlMessage m) {
    return WireJson.object(
        g -> {
          g.writeStringField("type", typeName(m.kind()));
          g.writeNumberField("time", m.time());
          switch (m.kind()) {
            case LAMBDA -> {
              g.writeNumberField("epoch", m.epoch());
              g.writeNumberField("lambda0", m.globalLambda());
            }
            case HOST_RATE -> {
              g.writeStringField("host", m.host());
              g.writeNumberField("max_rate", m.maxRate());
            }
            case BUDGET -> g.writeNumberField("budget", m.budget());
            case HOST_LIMIT -> {
              g.writeStringField("host", m.host());
              g.writeNumberField("max_pages", m.maxPages());
            }
            case QUERY -> QueryCodec.writeQuery(g, m.query());
            case TICK -> {}
          }
        });
  }

  /** The wire name of a kind: {@code lambda}, {@code tick}, {@code host_rate}. */
  public static String typeName(ControlMessage.Kind kind) {
    return kind.name().toLowerCase(Locale.ROOT);
  }

  /** Parses one control message; see {@link StatusEventCodec#parse} for {@code now}. */
  public Parsed<ControlMessage> parse(String raw, long now) {
    try {
      JsonNode o = WireJson.readObject(raw, StatusEventCodec.DEFAULT_MAX_CHARS);
      String type =
          WireJson.text(WireJson.required(o, "type"), "type", DeadLetterReason.UNKNOWN_TYPE);
      ControlMessage.Kind kind;
      try {
        kind = ControlMessage.Kind.valueOf(type.strip().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new Rejection(
            DeadLetterReason.UNKNOWN_TYPE,
            "unknown control type '"
                + type
                + "' (lambda, tick, host_rate, host_limit, budget or query)");
      }
      long time = WireJson.time(WireJson.required(o, "time"), "time", now, maxFutureMs);
      return Parsed.ok(
          switch (kind) {
            case TICK -> ControlMessage.tick(time);
            case LAMBDA -> lambda(o, time);
            case HOST_RATE -> hostRate(o, time);
            case HOST_LIMIT ->
                ControlMessage.hostLimit(
                    time,
                    key(o),
                    WireJson.nonNegativeLong(
                        WireJson.required(o, "max_pages"),
                        "max_pages",
                        DeadLetterReason.BAD_NUMBER));
            case BUDGET -> budget(o, time);
            case QUERY -> ControlMessage.query(QueryCodec.readQuery(o, time, HostKeys.of(mode)));
          });
    } catch (Rejection r) {
      return r.toParsed(raw, now);
    }
  }

  private static ControlMessage lambda(JsonNode o, long time) throws Rejection {
    JsonNode e = WireJson.optional(o, "epoch");
    long epoch = e == null ? 0 : WireJson.nonNegativeLong(e, "epoch", DeadLetterReason.BAD_NUMBER);
    double lambda0 =
        WireJson.finite(WireJson.required(o, "lambda0"), "lambda0", DeadLetterReason.BAD_NUMBER);
    if (lambda0 < 0) {
      throw new Rejection(
          DeadLetterReason.BAD_NUMBER, "'lambda0' must be zero or more, got " + lambda0);
    }
    return ControlMessage.lambda(time, epoch, lambda0);
  }

  private static ControlMessage budget(JsonNode o, long time) throws Rejection {
    double budget =
        WireJson.finite(WireJson.required(o, "budget"), "budget", DeadLetterReason.BAD_NUMBER);
    if (!(budget > 0)) {
      throw new Rejection(
          DeadLetterReason.BAD_NUMBER, "'budget' must be above 0 crawls a day, got " + budget);
    }
    return ControlMessage.budget(time, budget);
  }

  /** The message's host as the status events' key, or a {@code bad_host} rejection. */
  private String key(JsonNode o) throws Rejection {
    String host = WireJson.text(WireJson.required(o, "host"), "host", DeadLetterReason.BAD_HOST);
    try {
      // The status events' key function: example.com:80 is example.com, and under byDomain
      // www.example.com is example.com. A host it cannot key would never match: a dead letter.
      return HostKeys.of(mode).keyOfHost(host);
    } catch (IllegalArgumentException e) {
      throw new Rejection(DeadLetterReason.BAD_HOST, e.getMessage());
    }
  }

  private ControlMessage hostRate(JsonNode o, long time) throws Rejection {
    String key = key(o);
    // 0 or less removes the override (ControlMessage's contract).
    double maxRate =
        WireJson.finite(WireJson.required(o, "max_rate"), "max_rate", DeadLetterReason.BAD_NUMBER);
    return ControlMessage.hostRate(time, key, maxRate);
  }
}
