package io.recrawl.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the status and control codecs with hostile JSON: well-formed documents whose fields hold
 * hostile values (deep nesting, huge strings, NaN and infinities, times of 0, in 1970 and in 9999,
 * numbers at the float limits, lone surrogates, control characters, U+0000, RTL marks, full-width
 * dots in hosts, emoji, combining marks), and raw garbage, truncated and deeply nested text. Every
 * input is either parsed into an event the engine can rely on or refused with a known reason, and
 * never throws. Tries: {@code jqwik.tries.default} (src/test/resources/junit-platform.properties);
 * a long run: {@code -Djqwik.tries.default=N} (docs/wire-format.md, "Fuzzing").
 */
class CodecFuzzITCase {

  /** A clock far from the edges: 2023-11-14. */
  private static final long NOW = 1_700_000_000_000L;

  /** 9999-12-31T23:59:59.999Z. */
  private static final long YEAR_9999_END = 253_402_300_799_999L;

  private static final StatusEventCodec STATUS = StatusEventCodec.withDefaults();
  private static final StatusEventCodec STATUS_NO_FUTURE_CHECK =
      new StatusEventCodec(HostKeys.Mode.BY_DOMAIN, -1, StatusEventCodec.DEFAULT_MAX_CHARS);
  private static final ControlMessageCodec CONTROL =
      new ControlMessageCodec(StatusEventCodec.DEFAULT_MAX_FUTURE_MS);
  private static final ControlMessageCodec CONTROL_BY_DOMAIN =
      new ControlMessageCodec(HostKeys.Mode.BY_DOMAIN, -1);

  /** DeadLetterReason's codes (its public String constants), the missing-field ones aside. */
  private static final Set<String> REASONS = knownReasons();

  private static final String[] EDGE_STRINGS = {
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\u0001",
    "\u0007",
    "\t",
    "\n",
    "\r\n",
    "\u001f",
    "\u007f",
    "\u0085",
    "\u009f",
    "\ud800",
    "\udc00",
    "x\udbff",
    "\udfffx",
    "\ud83d\ude00", // 😀
    "\ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67", // a family: ZWJ sequence
    "\u200e", // LRM
    "\u200f", // RLM
    "\u202e", // RLO
    "\u2066\u2069",
    "\u061c",
    "\ufeff", // BOM
    "\ufffe",
    "\uffff",
    "\u2028",
    "\u2029",
    "\u00a0",
    "\u3000",
    "e\u0301",
    "\u0301",
    "a\u0300\u0301\u0302\u0303\u0304\u0305\u0306\u0307",
    "\uff0e", // full-width full stop
    "\u3002", // ideographic full stop
    "\uff61", // half-width ideographic full stop
    "\ufe52", // small full stop
    "\u2024", // one dot leader
    "\uff21\uff22", // full-width AB
    "\u0130", // dotted capital I (lower-cases to two chars)
    "\u0131",
    "\u00df",
    "\u212a", // Kelvin sign
    "\"",
    "\\",
    "/",
    "%00",
    "%",
    "%zz",
    "..",
    "@",
    "#",
    "?",
    ":",
    "[",
    "]",
    "null",
    "NaN",
    "Infinity",
  };

  private static final String[] STATUSES = {
    "DISCOVERED",
    "FETCHED",
    "FETCH_ERROR",
    "REDIRECTION",
    "ERROR",
    "fetched",
    " Fetched ",
    "FETCHED\u0000",
    "FETCH\u200bED",
    "\u0130GNORED",
    "ＦＥＴＣＨＥＤ",
    "",
  };

  private static final String[] NUMBERS = {
    "NaN",
    "Infinity",
    "-Infinity",
    "0",
    "-0",
    "0.0",
    "-0.0",
    "1",
    "-1",
    "1e309",
    "-1e309",
    "1e-400",
    "4.9e-324",
    "-4.9e-324",
    "2.2250738585072014E-308",
    "1.7976931348623157e308",
    "1.7976931348623158e308",
    "-1.7976931348623157e308",
    "3.4028235e38",
    "3.4028236e38",
    "1.4e-45",
    "1.17549435E-38",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "2147483647",
    "2147483648",
    "99999999999999999999999999999999999999",
    "0.000000000000000000000000000000000000000000001",
    "1.5",
    "100",
    "599",
    "600",
    "99",
    "200.0",
    "2e2",
  };

  /** Numbers that are not JSON: the document is malformed. */
  private static final String[] BAD_NUMBERS = {
    "01", "1.", ".5", "0x10", "1_000", "-NaN", "+Infinity"
  };

  /** Times: 0, in 1970, near the clock, in 9999 and past it, as numbers and as text. */
  private static final String[] TIMES = {
    "0",
    "1",
    "-1",
    "86399999",
    "\"0\"",
    "\"1\"",
    "\"1970-01-01T00:00:00Z\"",
    "\"1970-01-01T00:00:00.001Z\"",
    "\"1969-12-31T23:59:59.999Z\"",
    "\"1970-01-01T00:00:00+14:00\"",
    "\"1970-01-01T00:00:00-18:00\"",
    "\"1970-01-01T00:00:00+25:00\"",
    "\"1970-01-01\"",
    "\"9999-12-31T23:59:59.999Z\"",
    "\"+10000-01-01T00:00:00Z\"",
    "\"-999999999-01-01T00:00:00Z\"",
    "\"+1000000000-12-31T23:59:59.999999999Z\"",
    "\"+999999999-12-31T23:59:59.999999999Z\"",
    "" + YEAR_9999_END,
    "\"" + YEAR_9999_END + "\"",
    "\"999999999999999999\"",
    "\"9999999999999999999\"",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "1.7e12",
    "1700000000000.5",
    "1e400",
    "NaN",
    "Infinity",
    "\"1700000000000\"",
    "\" 1700000000000 \"",
    "\"\u0661\u0667\u0660\u0660\"", // Arabic-Indic digits
    "\"\uff11\uff17\uff10\uff10\"", // full-width digits
    "\"2023-11-14T22:13:20Z\"",
    "\"2023-11-14T22:13:20.000000001Z\"",
    "\"2023-11-14T22:13:20\"",
    "\"2023-02-30T00:00:00Z\"",
    "\"\"",
    "true",
    "[]",
    "{}",
  };

  private static final String[] HOSTS = {
    "example.com",
    "EXAMPLE.COM",
    "www.example.co.uk",
    "example.com.",
    "example.com..",
    "a..b",
    ".",
    "..",
    "",
    "localhost",
    "127.0.0.1",
    "0x7f.1",
    "0177.0.0.1",
    "2130706433",
    "256.1.1.1",
    "4294967296",
    "1.2.3.4.5",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[1:2:3:4:5:6:7:8:9]",
    "[::1",
    "[fe80::1%25eth0]",
    "bücher.example",
    "xn--bcher-kva.example",
    "xn--",
    "xn--zz",
    "example\uff0ecom",
    "example\u3002com",
    "example\uff61com",
    "例え.テスト",
    "\ud83d\ude00.example",
    "e\u0301xample.com",
    "\u202eexample.com",
    "exa\u200fmple.com",
    "exa\u0000mple.com",
    "exa mple.com",
    "exa_mple.com",
    "-example.com",
    "example-.com",
    "a".repeat(63) + ".com",
    "a".repeat(64) + ".com",
    ("a".repeat(60) + ".").repeat(5) + "com",
    "\u0130stanbul.example",
    "\u212aelvin.example",
    "com",
    "co.uk",
  };

  private static final String[] SCHEMES = {
    "http://", "https://", "HTTP://", "HtTpS://", "ftp://", "file://", "javascript:", "http:",
    "http:/", "http:///", "//", "", " http://", "\u0000http://", "\ufeffhttp://", "ｈｔｔｐ://",
  };

  private static final String[] PORTS = {
    "", ":", ":80", ":443", ":8080", ":0", ":65535", ":65536", ":-1", ":99999999999", ":８０", ":a",
  };

  // ---- generators ----------------------------------------------------------------------------

  /** A hostile string: an edge case, a run of any characters, a mix, or a huge one. */
  @Provide
  Arbitrary<String> hostileStrings() {
    Arbitrary<String> edge = Arbitraries.of(EDGE_STRINGS);
    Arbitrary<String> any = Arbitraries.strings().all().ofMaxLength(40);
    Arbitrary<String> mixed =
        Arbitraries.oneOf(edge, any, Arbitraries.strings().alpha().ofMaxLength(8))
            .list()
            .ofMaxSize(6)
            .map(l -> String.join("", l));
    Arbitrary<String> huge =
        Combinators.combine(edge.filter(s -> !s.isEmpty()), Arbitraries.of(100, 9_000, 70_000))
            .as((s, n) -> s.repeat(Math.max(1, n / s.length())));
    return Arbitraries.frequencyOf(Tuple(4, edge), Tuple(3, any), Tuple(4, mixed), Tuple(1, huge));
  }

  private static net.jqwik.api.Tuple.Tuple2<Integer, Arbitrary<? extends String>> Tuple(
      int weight, Arbitrary<? extends String> a) {
    return net.jqwik.api.Tuple.of(weight, a);
  }

  /** A URL: plausible parts with hostile pieces, or a hostile string. */
  @Provide
  Arbitrary<String> urls() {
    Arbitrary<String> host =
        Arbitraries.oneOf(
            Arbitraries.of(HOSTS),
            Arbitraries.of(HOSTS).list().ofMinSize(1).ofMaxSize(3).map(l -> String.join(".", l)),
            hostileStrings());
    Arbitrary<String> rest =
        Arbitraries.oneOf(
            Arbitraries.of("", "/", "/p", "/a/../b", "?q=1", "#f", "/%00", "/?a=b&c#d"),
            hostileStrings().map(s -> "/" + s));
    Arbitrary<String> userInfo = Arbitraries.of("", "user@", "u:p@", "@", "\u0000@", "a@b@");
    Arbitrary<String> built =
        Combinators.combine(Arbitraries.of(SCHEMES), userInfo, host, Arbitraries.of(PORTS), rest)
            .as((s, u, h, p, r) -> s + u + h + p + r);
    return Arbitraries.frequencyOf(
        Tuple(6, built),
        Tuple(1, hostileStrings()),
        Tuple(1, Arbitraries.of("h".repeat(Urls.MAX_URL_CHARS)).map(s -> "http://a.org/" + s)));
  }

  /** URLs that mostly pass: http(s), a hostile-but-possible host, port and path. */
  @Provide
  Arbitrary<String> plausibleUrls() {
    Arbitrary<String> host =
        Arbitraries.oneOf(
            Arbitraries.of(HOSTS),
            Arbitraries.of("a.example", "b.example", "xn--bcher-kva.example", "[::1]", "10.0.0.1"));
    return Combinators.combine(
            Arbitraries.of("http://", "https://", "HTTPS://"),
            host,
            Arbitraries.of("", ":8080", ":443", ":80"),
            Arbitraries.oneOf(
                Arbitraries.of("/", "/p", "", "/a b", "/%00", "/?q#f"),
                hostileStrings().map(p -> "/" + p)))
        .as((s, h, p, r) -> s + h + p + r);
  }

  /** Any JSON value, hostile, nested to at most {@code depth} levels. */
  private Arbitrary<String> values(int depth) {
    Arbitrary<String> scalar =
        Arbitraries.oneOf(
            Arbitraries.of(NUMBERS),
            Arbitraries.of("true", "false", "null"),
            jsonStrings(),
            Arbitraries.doubles().map(d -> Double.toString(d)),
            Arbitraries.longs().map(l -> Long.toString(l)));
    if (depth <= 0) {
      return scalar;
    }
    Arbitrary<String> array =
        values(depth - 1).list().ofMaxSize(4).map(l -> "[" + String.join(",", l) + "]");
    Arbitrary<String> object =
        Combinators.combine(jsonStrings(), values(depth - 1))
            .as((k, v) -> k + ":" + v)
            .list()
            .ofMaxSize(4)
            .map(l -> "{" + String.join(",", l) + "}");
    return Arbitraries.frequencyOf(Tuple(4, scalar), Tuple(1, array), Tuple(1, object));
  }

  /** A JSON string literal of a hostile string, escaped in one of several ways. */
  private Arbitrary<String> jsonStrings() {
    return Combinators.combine(
            hostileStrings(),
            Arbitraries.frequency(
                net.jqwik.api.Tuple.of(4, Escape.WRITER),
                net.jqwik.api.Tuple.of(2, Escape.ESCAPED),
                net.jqwik.api.Tuple.of(1, Escape.RAW)))
        .as((s, e) -> e.quote(s));
  }

  /** A deeply nested value: arrays or objects, 10 to 5,000 levels. */
  private Arbitrary<String> deep() {
    return Combinators.combine(
            Arbitraries.of(10, 100, 999, 1_000, 1_001, 5_000),
            Arbitraries.of("[", "{\"a\":", "{\"metadata\":"),
            Arbitraries.of(true, false))
        .as(
            (n, open, closed) -> {
              String close = open.equals("[") ? "]" : "}";
              return open.repeat(n) + "1" + (closed ? close.repeat(n) : "");
            });
  }

  @Provide
  Arbitrary<String> statusDocuments() {
    Arbitrary<String> plainMetadata =
        Combinators.combine(
                hostileStrings().map(Escape.WRITER::quote),
                hostileStrings().map(Escape.WRITER::quote).list().ofMaxSize(2))
            .as((k, v) -> k + ":[" + String.join(",", v) + "]")
            .list()
            .ofMaxSize(3)
            .uniqueElements(kv -> kv.substring(0, kv.indexOf(":[")))
            .map(l -> "{" + String.join(",", l) + "}");
    Arbitrary<String> metadata =
        Arbitraries.frequencyOf(
            Tuple(8, plainMetadata),
            Tuple(1, values(1)),
            Tuple(2, hostileMetadata()),
            Tuple(1, deep()));
    return documents(metadata);
  }

  private Arbitrary<String> hostileMetadata() {
    return Arbitraries.oneOf(
        Combinators.combine(
                Arbitraries.oneOf(
                    jsonStrings(),
                    Arbitraries.of(
                        "\"" + StatusEvent.CHANGE_RATE_KEY + "\"",
                        "\"protocol.Retry-After\"",
                        "\"signature\"")),
                Arbitraries.oneOf(
                    values(1),
                    Arbitraries.of(NUMBERS).map(n -> "\"" + n + "\""),
                    jsonStrings().list().ofMaxSize(3).map(l -> "[" + String.join(",", l) + "]")))
            .as((k, v) -> k + ":" + v)
            .list()
            .ofMaxSize(4)
            .map(l -> "{" + String.join(",", l) + "}"));
  }

  private Arbitrary<String> documents(Arbitrary<String> metadata) {
    // Mostly values that pass, so that hostile values in one field reach the checks of the others
    // and parsed events are checked too.
    Arbitrary<String> url =
        Arbitraries.frequencyOf(
            Tuple(12, plausibleUrls().map(u -> Escape.WRITER.quote(u))),
            Tuple(
                3,
                Combinators.combine(urls(), Arbitraries.of(Escape.class)).as((u, e) -> e.quote(u))),
            Tuple(1, values(1)));
    Arbitrary<String> status =
        Arbitraries.frequencyOf(
            Tuple(20, Arbitraries.of(STATUSES).map(s -> "\"" + s + "\"")),
            Tuple(1, jsonStrings()),
            Tuple(1, values(1)));
    Arbitrary<String> time =
        Arbitraries.frequencyOf(
            Tuple(12, times()), Tuple(2, Arbitraries.of(TIMES)), Tuple(1, values(1)));
    Arbitrary<String> changed =
        Arbitraries.frequencyOf(Tuple(12, Arbitraries.of("true", "false")), Tuple(1, values(1)));
    Arbitrary<String> weight =
        Arbitraries.frequencyOf(
            Tuple(8, Arbitraries.doubles().between(0.01, 1e6).map(d -> "" + d)),
            Tuple(4, Arbitraries.of(NUMBERS)),
            Tuple(2, Arbitraries.doubles().map(d -> Double.toString(d))),
            Tuple(1, values(1)));
    Arbitrary<String> httpStatus =
        Arbitraries.frequencyOf(
            Tuple(2, Arbitraries.of(NUMBERS)),
            Tuple(12, Arbitraries.integers().between(-1, 1000).map(i -> Integer.toString(i))),
            Tuple(1, values(1)));
    return Combinators.combine(
            List.of(
                field("url", url, 3),
                field("status", status, 3),
                field("time", time, 3),
                field("metadata", metadata, 50),
                field("changed", changed, 50),
                field("weight", weight, 50),
                field("http_status", httpStatus, 50),
                field("extra", values(2), 90),
                field("url", url, 98))) // a duplicate field
        .as(
            parts -> {
              List<String> fields = new ArrayList<>();
              for (String p : parts) {
                if (p != null) {
                  fields.add(p);
                }
              }
              return "{" + String.join(",", fields) + "}";
            });
  }

  /** Times near the clock and at the edges, as epoch ms in a number or a string. */
  private Arbitrary<String> times() {
    return Combinators.combine(
            Arbitraries.oneOf(
                Arbitraries.longs().between(0, 86_400_000L),
                Arbitraries.longs().between(NOW - 86_400_000L, NOW + 7_200_000L),
                Arbitraries.longs().between(NOW - 86_400_000L, NOW),
                Arbitraries.longs().between(NOW - 86_400_000L, NOW),
                Arbitraries.longs().between(YEAR_9999_END - 86_400_000L, YEAR_9999_END + 1000),
                Arbitraries.longs()),
            Arbitraries.of(true, false))
        .as((t, quoted) -> quoted ? "\"" + t + "\"" : Long.toString(t));
  }

  /** A field {@code "name":value}, or null (absent) with {@code absentPercent} chance. */
  private Arbitrary<String> field(String name, Arbitrary<String> value, int absentPercent) {
    return value.map(v -> "\"" + name + "\":" + v).injectNull(absentPercent / 100.0);
  }

  @Provide
  Arbitrary<String> controlDocuments() {
    Arbitrary<String> type =
        Arbitraries.frequencyOf(
            Tuple(8, Arbitraries.of("\"lambda\"", "\"tick\"", "\"host_rate\"", "\"budget\"")),
            Tuple(1, jsonStrings()),
            Tuple(1, values(1)),
            Tuple(
                2,
                Arbitraries.of(
                    "\"lambda\"",
                    "\"tick\"",
                    "\"host_rate\"",
                    "\"budget\"",
                    "\"TICK\"",
                    "\" tick \"",
                    "\"t\u0131ck\"",
                    "\"host-rate\"")));
    Arbitrary<String> time =
        Arbitraries.frequencyOf(
            Tuple(3, times()), Tuple(2, Arbitraries.of(TIMES)), Tuple(1, values(1)));
    Arbitrary<String> number =
        Arbitraries.frequencyOf(
            Tuple(4, Arbitraries.of(NUMBERS)),
            Tuple(2, Arbitraries.doubles().map(d -> Double.toString(d))),
            Tuple(1, values(1)));
    Arbitrary<String> host =
        Arbitraries.oneOf(
            Arbitraries.of(HOSTS).map(h -> "\"" + h + "\""),
            urls().map(Escape.WRITER::quote),
            jsonStrings(),
            values(1));
    return Combinators.combine(
            List.of(
                field("type", type, 3),
                field("time", time, 3),
                field("epoch", number, 50),
                field("lambda0", number, 10),
                field("host", host, 10),
                field("max_rate", number, 10),
                field("budget", number, 10),
                field("extra", values(2), 90)))
        .as(
            parts -> {
              List<String> fields = new ArrayList<>();
              for (String p : parts) {
                if (p != null) {
                  fields.add(p);
                }
              }
              return "{" + String.join(",", fields) + "}";
            });
  }

  /** Raw text: garbage, truncated documents, deep nesting, other JSON values, oversized input. */
  @Provide
  Arbitrary<String> garbage() {
    Arbitrary<String> truncated =
        Combinators.combine(
                Arbitraries.oneOf(statusDocuments(), controlDocuments()),
                Arbitraries.doubles().between(0, 1))
            .as((d, f) -> d.substring(0, (int) (d.length() * f)));
    Arbitrary<String> spliced =
        Combinators.combine(
                statusDocuments(), hostileStrings(), Arbitraries.doubles().between(0, 1))
            .as(
                (d, s, f) -> {
                  int at = (int) (d.length() * f);
                  return d.substring(0, at) + s + d.substring(at);
                });
    Arbitrary<String> trailing =
        Combinators.combine(
                statusDocuments(), Arbitraries.of("", " ", "}", "{}", "x", "\u0000", "// c", "/*"))
            .as((d, t) -> d + t);
    Arbitrary<String> oversized =
        Arbitraries.of(
                StatusEventCodec.DEFAULT_MAX_CHARS - 20, StatusEventCodec.DEFAULT_MAX_CHARS + 1)
            .map(n -> "{\"url\":\"http://a.org/" + "x".repeat(n) + "\"}");
    return Arbitraries.frequencyOf(
        Tuple(3, hostileStrings()),
        Tuple(3, values(3)),
        Tuple(3, truncated),
        Tuple(3, spliced),
        Tuple(2, trailing),
        Tuple(2, deep()),
        Tuple(1, oversized),
        Tuple(1, Arbitraries.of(BAD_NUMBERS).map(n -> "{\"type\":\"tick\",\"time\":" + n + "}")),
        Tuple(1, Arbitraries.of("", " ", "\ufeff{}", "{}", "[]", "null", "{\"url\"}", "{,}")));
  }

  @Provide
  Arbitrary<Long> clocks() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, Arbitraries.just(NOW)),
        net.jqwik.api.Tuple.of(
            1, Arbitraries.of(0L, 1L, YEAR_9999_END, Long.MAX_VALUE, Long.MIN_VALUE, -1L)),
        net.jqwik.api.Tuple.of(1, Arbitraries.longs().between(0, YEAR_9999_END)));
  }

  // ---- properties ----------------------------------------------------------------------------

  @Property(edgeCases = EdgeCasesMode.NONE)
  void statusDocumentsAreParsedOrRefused(
      @ForAll("statusDocuments") String json, @ForAll("clocks") long now) {
    Parsed<StatusEvent> p = checkStatus(STATUS, json, now);
    Statistics.label("status").collect(p.ok() ? "parsed" : p.deadLetter().reason());
    checkStatus(STATUS_NO_FUTURE_CHECK, json, now);
  }

  @Property
  void garbageIsRefused(@ForAll("garbage") String text, @ForAll("clocks") long now) {
    checkStatus(STATUS, text, now);
    checkControl(CONTROL, text, now);
  }

  @Property(edgeCases = EdgeCasesMode.NONE)
  void controlDocumentsAreParsedOrRefused(
      @ForAll("controlDocuments") String json, @ForAll("clocks") long now) {
    Parsed<ControlMessage> p = checkControl(CONTROL, json, now);
    Statistics.label("control").collect(p.ok() ? "parsed" : p.deadLetter().reason());
    checkControl(CONTROL_BY_DOMAIN, json, now);
  }

  @Property
  void seedLinesAreParsedOrRefused(
      @ForAll("urls") String url, @ForAll("hostileStrings") String md) {
    Parsed<StatusEvent> p = STATUS.parseSeed(url + "\t" + md + "=" + md, NOW);
    if (p.ok()) {
      checkEvent(p.value(), -1, NOW);
    } else {
      checkDeadLetter(p.deadLetter(), url + "\t" + md + "=" + md);
    }
  }

  @Property
  void aDeadLetterOfAnyInputIsBounded(
      @ForAll("hostileStrings") String raw,
      @ForAll("hostileStrings") String reason,
      @ForAll("hostileStrings") String detail,
      @ForAll("clocks") long now) {
    String big = raw.repeat(Math.max(1, 40_000 / Math.max(1, raw.length())));
    DeadLetter d = DeadLetter.of(big, reason, detail + detail.repeat(50), now);
    assertThat(d.raw().length()).isLessThanOrEqualTo(DeadLetter.MAX_RAW_CHARS);
    assertThat(d.detail().length()).isLessThanOrEqualTo(DeadLetter.MAX_DETAIL_CHARS);
    assertThat(d.reason().length()).isLessThanOrEqualTo(DeadLetter.MAX_REASON_CHARS);
    assertThat(DeadLetterCodec.toJson(d).getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(DeadLetter.MAX_JSON_BYTES);
    for (long max : new long[] {0, 200, 1_000, 100_000}) {
      assertThat((long) DeadLetterCodec.toJson(d.fit(max)).getBytes(StandardCharsets.UTF_8).length)
          .isLessThanOrEqualTo(Math.max(max, 6L * d.reason().length() + 128));
    }
  }

  /**
   * Found by OperatorFuzzITCase: a weight above zero but below the smallest float (4.9E-324,
   * 1E-300, 2.2250738585072014E-308) was accepted, became 0 in the engine's float and failed the
   * engine (ArrayIndexOutOfBoundsException: Index 2147483647, a rejected_by_engine dead letter);
   * one above the largest float became an infinite weight.
   */
  @Test
  void aWeightOutsideTheFloatRangeIsRefused() {
    for (String w :
        List.of("4.9e-324", "1e-300", "2.2250738585072014E-308", "1e-46", "3.5e38", "1e300")) {
      Parsed<StatusEvent> p =
          STATUS.parse(
              "{\"url\":\"http://a.example/\",\"status\":\"FETCHED\",\"time\":1,\"weight\":"
                  + w
                  + "}",
              NOW);
      assertThat(p.ok()).as("weight %s", w).isFalse();
      assertThat(p.deadLetter().reason()).isEqualTo(DeadLetterReason.BAD_WEIGHT);
    }
    for (String w : List.of("1.4e-45", "1e-30", "1", "3.4028235e38")) {
      Parsed<StatusEvent> p =
          STATUS.parse(
              "{\"url\":\"http://a.example/\",\"status\":\"FETCHED\",\"time\":1,\"weight\":"
                  + w
                  + "}",
              NOW);
      assertThat(p.ok()).as("weight %s", w).isTrue();
      float f = p.value().weight().floatValue();
      assertThat(Float.isFinite(f) && f > 0).as("weight %s as a float", w).isTrue();
    }
  }

  /**
   * Found by OperatorFuzzITCase: a known change rate of 1.7976931348623157e308 (or one below the
   * smallest float) was accepted and failed the engine, which keeps rates as floats
   * (ArrayIndexOutOfBoundsException: Index 2147483647, a rejected_by_engine dead letter).
   */
  @Test
  void aChangeRateOutsideTheFloatRangeIsRefused() {
    for (String r : List.of("1.7976931348623157e308", "1e300", "3.5e38", "4.9e-324", "1e-300")) {
      Parsed<StatusEvent> p = STATUS.parse(withChangeRate(r), NOW);
      assertThat(p.ok()).as("change rate %s", r).isFalse();
      assertThat(p.deadLetter().reason()).isEqualTo(DeadLetterReason.BAD_METADATA);
    }
    for (String r : List.of("1.4e-45", "1e-9", "0.5", "1440", "3.4028235e38")) {
      Parsed<StatusEvent> p = STATUS.parse(withChangeRate(r), NOW);
      assertThat(p.ok()).as("change rate %s", r).isTrue();
    }
  }

  private static String withChangeRate(String rate) {
    return "{\"url\":\"http://a.example/\",\"status\":\"FETCHED\",\"time\":1,\"metadata\":{\""
        + StatusEvent.CHANGE_RATE_KEY
        + "\":\""
        + rate
        + "\"}}";
  }

  // ---- checks --------------------------------------------------------------------------------

  private static Parsed<StatusEvent> checkStatus(StatusEventCodec codec, String raw, long now) {
    Parsed<StatusEvent> p = codec.parse(raw, now); // throws: the property fails
    if (p.ok()) {
      checkEvent(p.value(), codec == STATUS ? StatusEventCodec.DEFAULT_MAX_FUTURE_MS : -1, now);
      HostKeys.Mode mode = codec == STATUS ? HostKeys.Mode.BY_HOST : HostKeys.Mode.BY_DOMAIN;
      assertThat(HostKeys.of(mode).keyOf(p.value().url())).isEqualTo(p.value().host());
      // What the codec accepted, it writes and reads back to the same event.
      Parsed<StatusEvent> again = codec.parse(StatusEventCodec.toJson(p.value()), now);
      assertThat(again.ok()).as("re-read of %s", p.value()).isTrue();
      assertThat(again.value()).isEqualTo(p.value());
    } else {
      checkDeadLetter(p.deadLetter(), raw);
    }
    return p;
  }

  private static Parsed<ControlMessage> checkControl(
      ControlMessageCodec codec, String raw, long now) {
    Parsed<ControlMessage> p = codec.parse(raw, now);
    if (p.ok()) {
      ControlMessage m = p.value();
      assertThat(m.kind()).isNotNull();
      assertThat(m.time()).isNotNegative();
      assertThat(Double.isFinite(m.globalLambda())).isTrue();
      assertThat(m.globalLambda()).isGreaterThanOrEqualTo(0);
      assertThat(Double.isFinite(m.maxRate())).isTrue();
      assertThat(m.epoch()).isNotNegative();
      if (m.kind() == ControlMessage.Kind.HOST_RATE) {
        assertThat(m.host()).isNotEmpty();
        Urls.checkCharacters(m.host());
      }
      if (m.kind() == ControlMessage.Kind.BUDGET) {
        assertThat(m.budget()).isPositive();
      }
    } else {
      checkDeadLetter(p.deadLetter(), raw);
    }
    return p;
  }

  /** What the engine relies on in a parsed event. */
  static void checkEvent(StatusEvent e, long maxFutureMs, long now) {
    assertThat(e.url()).matches("(?s)https?://.+");
    // One spelling: normalising again changes nothing, and the key is the URL's host key.
    assertThat(Urls.normalise(e.url())).isEqualTo(e.url());
    assertThat(e.url().length()).isLessThanOrEqualTo(Urls.MAX_URL_CHARS + 16);
    Urls.checkCharacters(e.url()); // no control character, no lone surrogate
    assertThat(e.host()).isNotEmpty();
    Urls.checkCharacters(e.host());
    assertThat(e.host()).isEqualTo(e.host().strip());
    assertThat(e.status()).isNotNull();
    assertThat(e.time()).isBetween(0L, Long.MAX_VALUE);
    if (maxFutureMs >= 0 && now >= 0 && now < YEAR_9999_END) {
      assertThat(e.time()).isLessThanOrEqualTo(now + maxFutureMs);
    }
    assertThat(e.metadata()).isNotNull();
    for (Map.Entry<String, List<String>> m : e.metadata().entrySet()) {
      assertThat(m.getKey()).isNotNull();
      assertThat(m.getValue()).isNotNull().doesNotContainNull();
    }
    if (e.weight() != null) {
      assertThat(Double.isFinite(e.weight())).isTrue();
      assertThat(e.weight()).isPositive();
      float f = e.weight().floatValue(); // what the engine keeps
      assertThat(Float.isFinite(f) && f > 0).as("weight %s as a float", e.weight()).isTrue();
    }
    if (e.httpStatus() != null) {
      assertThat(e.httpStatus()).isBetween(100, 599);
    }
    if (e.first(StatusEvent.CHANGE_RATE_KEY) != null) {
      float rate = e.knownChangeRate().floatValue(); // what the engine keeps
      assertThat(Float.isFinite(rate) && rate > 0)
          .as("change rate %s", e.knownChangeRate())
          .isTrue();
    }
  }

  private static void checkDeadLetter(DeadLetter d, String raw) {
    assertThat(d.reason()).isNotEmpty();
    assertThat(REASONS.contains(d.reason()) || d.reason().startsWith("missing_field:"))
        .as("unknown reason '%s' (%s)", d.reason(), d.detail())
        .isTrue();
    assertThat(d.detail()).isNotEmpty();
    assertThat(d.raw().length()).isLessThanOrEqualTo(DeadLetter.MAX_RAW_CHARS);
    assertThat(d.detail().length()).isLessThanOrEqualTo(DeadLetter.MAX_DETAIL_CHARS);
    if (raw != null && raw.length() <= DeadLetter.MAX_RAW_CHARS) {
      assertThat(d.raw()).isEqualTo(raw);
    }
    assertThat(DeadLetterCodec.toJson(d).getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(DeadLetter.MAX_JSON_BYTES);
  }

  private static Set<String> knownReasons() {
    Set<String> reasons = new HashSet<>();
    for (Field f : DeadLetterReason.class.getDeclaredFields()) {
      if (Modifier.isPublic(f.getModifiers())
          && Modifier.isStatic(f.getModifiers())
          && f.getType() == String.class) {
        try {
          reasons.add((String) f.get(null));
        } catch (IllegalAccessException e) {
          throw new AssertionError(e);
        }
      }
    }
    return reasons;
  }

  /** Ways of writing a string in JSON. */
  enum Escape {
    /** Only quotes and backslashes escaped; control characters and surrogates as they are. */
    RAW {
      @Override
      String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
      }
    },
    /** Every character outside printable ASCII as a backslash-u escape. */
    ESCAPED {
      @Override
      String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
          char c = s.charAt(i);
          if (c == '"' || c == '\\') {
            b.append('\\').append(c);
          } else if (c < 0x20 || c > 0x7e) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
        return b.append('"').toString();
      }
    },
    /** As a JSON writer would. */
    WRITER {
      @Override
      String quote(String s) {
        return WireJson.object(g -> g.writeStringField("s", s)).substring(5).replaceAll("}$", "");
      }
    };

    abstract String quote(String s);
  }
}
