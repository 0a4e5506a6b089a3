package io.recrawl.flink.scheduler;

import static io.recrawl.flink.scheduler.SchedulerHarness.DAY;
import static io.recrawl.flink.scheduler.SchedulerHarness.T0;
import static io.recrawl.flink.scheduler.SchedulerHarness.settings;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.ControlMessageCodec;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.HostKeys;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * The scheduler operator on RocksDB fed random sequences of hostile status events and control
 * messages, decoded from hostile JSON by the real codecs as in the job, so that only what passes
 * their validation reaches the operator: URLs with emoji, combining marks, RTL marks, IDN,
 * full-width and trailing dots, IPv6; times of 0, in 1970 and in 9999 (the future check off);
 * weights, change rates and lambdas at the float limits; hostile Retry-After and metadata. Checked:
 * nothing throws out of the operator, every refusal is a dead letter with a reason, and every
 * request is well-formed. Tries: {@code jqwik.tries.default}
 * (src/test/resources/junit-platform.properties); a long run: {@code -Djqwik.tries.default=N}
 * (docs/wire-format.md, "Fuzzing").
 */
class OperatorFuzzITCase {

  /** 9999-12-31T23:59:59.999Z. */
  private static final long YEAR_9999_END = 253_402_300_799_999L;

  /** As in the job, but with the future check off: times in 9999 reach the operator. */
  private static final StatusEventCodec STATUS =
      new StatusEventCodec(HostKeys.Mode.BY_HOST, -1, StatusEventCodec.DEFAULT_MAX_CHARS);

  private static final ControlMessageCodec CONTROL = new ControlMessageCodec(-1);

  private static final String[] HOSTS = {
    "a.example",
    "A.EXAMPLE.",
    "b\uff0eexample", // full-width dot
    "b\u3002example", // ideographic dot
    "bücher.example",
    "xn--bcher-kva.example",
    "\ud83d\ude00.example",
    "e\u0301.example",
    "[::1]",
    "[0:0:0:0:0:0:0:1]",
    "127.0.0.1",
    "0x7f.1",
    "a.example:8080",
  };

  private static final String[] PATHS = {
    "/",
    "",
    "/p",
    "/\ud83d\ude00",
    "/e\u0301",
    "/\u200f\u202e",
    "/%00",
    "/\u0000",
    "/\ud800",
    "/\ufeff",
    "/a b",
    "/?q=\uff0e#\u3002",
    "/" + "x".repeat(8_000),
    "/" + "y".repeat(9_000),
  };

  private static final String[] NUMBERS = {
    "0",
    "-0",
    "1",
    "-1",
    "NaN",
    "Infinity",
    "-Infinity",
    "4.9e-324",
    "2.2250738585072014E-308",
    "1e-300",
    "1.4e-45",
    "3.4028235e38",
    "1.7976931348623157e308",
    "1e309",
    "9223372036854775807",
    "0.5",
    "1440",
  };

  private static final String[] TIMES = {
    "0",
    "1",
    "\"1970-01-01T00:00:00Z\"",
    "86399999",
    "\"9999-12-31T23:59:59.999Z\"",
    "" + YEAR_9999_END,
    "\"2023-11-14T22:13:20Z\"",
    "-1",
    "NaN",
  };

  private static final String[] RETRY_AFTER = {
    "0",
    "-1",
    "1",
    "120",
    "NaN",
    "Infinity",
    "1e309",
    "99999999999999999999",
    "9223372036854775807",
    "Wed, 21 Oct 2015 07:28:00 GMT",
    "Fri, 31 Dec 9999 23:59:59 GMT",
    "\u0000",
    "\ud800",
    "",
  };

  record Step(int kind, String json, long jumpMs) {}

  @Provide
  Arbitrary<List<Step>> sequences() {
    Arbitrary<Step> status =
        Combinators.combine(statusJson(), Arbitraries.just(0L)).as((j, x) -> new Step(0, j, x));
    Arbitrary<Step> control =
        Combinators.combine(controlJson(), Arbitraries.just(0L)).as((j, x) -> new Step(1, j, x));
    Arbitrary<Step> advance =
        Arbitraries.oneOf(
                Arbitraries.longs().between(1, 1000),
                Arbitraries.longs().between(1000, 3_600_000L),
                Arbitraries.longs().between(3_600_000L, 2 * DAY))
            .map(j -> new Step(2, null, j));
    return Arbitraries.frequencyOf(Tuple.of(6, status), Tuple.of(2, control), Tuple.of(3, advance))
        .list()
        .ofMinSize(1)
        .ofMaxSize(40);
  }

  private Arbitrary<String> statusJson() {
    Arbitrary<String> url =
        Combinators.combine(
                Arbitraries.of("http://", "https://", "HTTP://"),
                Arbitraries.of(HOSTS),
                Arbitraries.of(PATHS))
            .as((s, h, p) -> quote(s + h + p));
    Arbitrary<String> time =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.longs().between(T0 - DAY, T0 + 3 * DAY).map(t -> "" + t)),
            Tuple.of(2, Arbitraries.of(TIMES)));
    Arbitrary<String> md =
        Combinators.combine(
                Arbitraries.of(
                    "protocol.Retry-After",
                    "protocol.retry-after",
                    StatusEvent.CHANGE_RATE_KEY,
                    "signature",
                    "fetch.statusCode",
                    "\u0000",
                    "\ud800",
                    "\u202e",
                    ""),
                Arbitraries.oneOf(Arbitraries.of(RETRY_AFTER), Arbitraries.of(NUMBERS)))
            .as((k, v) -> quote(k) + ":" + quote(v))
            .list()
            .ofMaxSize(3)
            .uniqueElements(kv -> kv.substring(0, kv.indexOf("\":") + 1))
            .map(l -> "{" + String.join(",", l) + "}");
    return Combinators.combine(
            url,
            Arbitraries.of(
                "DISCOVERED", "FETCHED", "FETCHED", "FETCH_ERROR", "REDIRECTION", "ERROR"),
            time,
            md,
            Arbitraries.of("", ",\"changed\":true", ",\"changed\":false"),
            Arbitraries.oneOf(
                Arbitraries.just(""), Arbitraries.of(NUMBERS).map(w -> ",\"weight\":" + w)),
            Arbitraries.of(
                "",
                ",\"http_status\":200",
                ",\"http_status\":304",
                ",\"http_status\":404",
                ",\"http_status\":429",
                ",\"http_status\":503",
                ",\"http_status\":100",
                ",\"http_status\":599"))
        .as(
            (u, s, t, m, c, w, h) ->
                "{\"url\":"
                    + u
                    + ",\"status\":\""
                    + s
                    + "\",\"time\":"
                    + t
                    + ",\"metadata\":"
                    + m
                    + c
                    + w
                    + h
                    + "}");
  }

  private Arbitrary<String> controlJson() {
    Arbitrary<String> time =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.longs().between(T0 - DAY, T0 + 3 * DAY).map(t -> "" + t)),
            Tuple.of(1, Arbitraries.of(TIMES)));
    Arbitrary<String> number = Arbitraries.of(NUMBERS);
    return Arbitraries.oneOf(
        time.map(t -> "{\"type\":\"tick\",\"time\":" + t + "}"),
        Combinators.combine(time, number, Arbitraries.longs().between(0, 5))
            .as(
                (t, l, e) ->
                    "{\"type\":\"lambda\",\"time\":"
                        + t
                        + ",\"epoch\":"
                        + e
                        + ",\"lambda0\":"
                        + l
                        + "}"),
        Combinators.combine(time, Arbitraries.of(HOSTS), number)
            .as(
                (t, h, r) ->
                    "{\"type\":\"host_rate\",\"time\":"
                        + t
                        + ",\"host\":"
                        + quote(h)
                        + ",\"max_rate\":"
                        + r
                        + "}"),
        Combinators.combine(time, number)
            .as((t, b) -> "{\"type\":\"budget\",\"time\":" + t + ",\"budget\":" + b + "}"));
  }

  /** A JSON string literal; non-ASCII and control characters as backslash-u escapes. */
  private static String quote(String s) {
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

  @Property
  void hostileInputNeverThrowsOutOfTheOperator(@ForAll("sequences") List<Step> steps)
      throws Exception {
    Map<String, Object> config =
        settings("host.max-rate", 1440.0, "lease", "10 min", "politeness.retry-after.max", "6 h");
    long now = T0;
    int refusedByCodec = 0;
    int fed = 0;
    Set<String> urls = new HashSet<>();
    try (SchedulerHarness s = new SchedulerHarness(config)) {
      s.advance(now);
      for (Step step : steps) {
        switch (step.kind()) {
          case 0 -> {
            Parsed<StatusEvent> p = STATUS.parse(step.json(), now);
            if (p.ok()) {
              urls.add(p.value().url());
              s.status(p.value()); // throws: the property fails
              fed++;
            } else {
              refusedByCodec++;
              checkDeadLetter(p.deadLetter());
            }
          }
          case 1 -> {
            Parsed<ControlMessage> p = CONTROL.parse(step.json(), now);
            if (p.ok()) {
              s.control(p.value());
              fed++;
            } else {
              refusedByCodec++;
              checkDeadLetter(p.deadLetter());
            }
          }
          default -> {
            now += step.jumpMs();
            s.advance(now);
          }
        }
        for (CrawlRequest r : s.newRequests()) {
          checkRequest(r, urls);
        }
      }
      List<DeadLetter> dead = s.deadLetters();
      for (DeadLetter d : dead) {
        checkDeadLetter(d);
        // What passed the codec, the engine digests: a rejected_by_engine dead letter is a hole in
        // the codec's validation (a weight of 4.9E-324 was one: 0 as the engine's float).
        assertThat(d.reason())
            .as("the engine refused what the codec passed: %s (%s)", d.raw(), d.detail())
            .isNotEqualTo(SchedulerOutputs.REJECTED_BY_ENGINE);
      }
      assertThat(dead.size()).as("dead letters of the operator").isLessThanOrEqualTo(fed);
      Statistics.label("refused by the codec").collect(refusedByCodec > 0);
      Statistics.label("refused by the operator").collect(!dead.isEmpty());
    }
  }

  private static void checkRequest(CrawlRequest r, Set<String> urls) {
    assertThat(r.url()).isNotNull();
    assertThat(urls).as("a request for a URL never fed").contains(r.url());
    assertThat(r.host()).isEqualTo(HostKeys.of(HostKeys.Mode.BY_HOST).keyOf(r.url()));
    assertThat(Double.isFinite(r.value())).as("value of %s", r).isTrue();
    assertThat(Double.isFinite(r.threshold())).as("threshold of %s", r).isTrue();
    assertThat(r.lease()).as("lease of %s", r).isGreaterThan(r.time());
    assertThat(r.metadata()).isNotNull();
  }

  private static void checkDeadLetter(DeadLetter d) {
    assertThat(d.reason()).isNotEmpty();
    assertThat(d.detail()).isNotEmpty();
    assertThat(d.raw()).isNotEmpty();
  }
}
