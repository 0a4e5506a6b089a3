package io.recrawl.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link StatusEventCodec#encode} checks an event in memory as {@link StatusEventCodec#parse}
 * checks its JSON: the URL Frontier service checks each {@code PutURLs} item with it before sending
 * the JSON, and must refuse what the job would refuse and accept what the job would read.
 */
class StatusEventEncodeTest {

  private static final long NOW = 1_767_225_600_000L;

  private final StatusEventCodec codec =
      new StatusEventCodec(HostKeys.Mode.BY_HOST, StatusEventCodec.DEFAULT_MAX_FUTURE_MS, 400);

  /**
   * The job reads the JSON encode writes as encode checked it; what encode refuses, parse refuses
   * for the same reason. Only the size may differ: encode measures the JSON of the URL in its one
   * spelling, which is the JSON sent.
   */
  @Property(tries = 2000)
  void encodeAcceptsWhatParseAcceptsAndRefusesWhatItRefuses(@ForAll("events") StatusEvent e) {
    Parsed<StatusEventCodec.Encoded> encoded = codec.encode(e, NOW);
    Parsed<StatusEvent> parsed = codec.parse(StatusEventCodec.toJson(e), NOW);
    boolean sizeOnly =
        (!parsed.ok() && parsed.deadLetter().reason().equals(DeadLetterReason.TOO_LARGE))
            || (!encoded.ok() && encoded.deadLetter().reason().equals(DeadLetterReason.TOO_LARGE));
    if (encoded.ok()) {
      Parsed<StatusEvent> sent = codec.parse(encoded.value().json(), NOW);
      assertThat(sent.ok()).as("the job reads what encode accepted: %s", e).isTrue();
      assertThat(sent.value()).isEqualTo(encoded.value().event());
    }
    if (!sizeOnly) {
      assertThat(encoded.ok()).as("accepted by encode as by parse: %s", e).isEqualTo(parsed.ok());
      if (parsed.ok()) {
        assertThat(encoded.value().event()).isEqualTo(parsed.value());
      } else {
        assertThat(encoded.deadLetter().reason()).isEqualTo(parsed.deadLetter().reason());
      }
    }
  }

  @Test
  void aWeightThatIsNotANumberIsABadWeight() {
    StatusEvent e =
        new StatusEvent(
            "http://a.example/", "", CrawlStatus.FETCHED, NOW, Map.of(), null, Double.NaN, null);
    assertThat(codec.encode(e, NOW).deadLetter().reason()).isEqualTo(DeadLetterReason.BAD_WEIGHT);
  }

  @Provide
  Arbitrary<StatusEvent> events() {
    Arbitrary<String> urls =
        Arbitraries.of(
            "http://a.example/x",
            "HTTP://A.Example:80/x/../y#frag",
            "https://b.example/?q=1",
            "ftp://c.example/",
            "not a url",
            "http://victim.example\\@a1.example/",
            "http://" + "x".repeat(400) + ".example/");
    Arbitrary<String> crawls =
        Arbitraries.of(null, "", "DEFAULT", "news", "bad\u0001crawl", "c".repeat(300));
    Arbitrary<String> keys = Combinators.combine(crawls, urls).as(PageKeys::of);
    Arbitrary<CrawlStatus> statuses = Arbitraries.of(CrawlStatus.values());
    Arbitrary<Long> times =
        Arbitraries.of(-1L, 0L, NOW, NOW + StatusEventCodec.DEFAULT_MAX_FUTURE_MS, NOW + 4_000_000);
    Arbitrary<Map<String, List<String>>> metadata =
        Arbitraries.<List<String>>of(
                List.of(),
                List.of("last-modified", "Tue, 01 Dec 2026 10:00:00 GMT"),
                List.of(StatusEvent.CHANGE_RATE_KEY, "2.5"),
                List.of(StatusEvent.CHANGE_RATE_KEY, "0"),
                List.of(StatusEvent.CHANGE_RATE_KEY, "1e300"),
                List.of(StatusEvent.REFETCH_AT_KEY, "1767225600000"),
                List.of(StatusEvent.REFETCH_AT_KEY, "-5"),
                List.of("big", "v".repeat(500)))
            .list()
            .ofMaxSize(3)
            .map(StatusEventEncodeTest::metadata);
    Arbitrary<Boolean> changed = Arbitraries.of(null, true, false);
    Arbitrary<Double> weights = Arbitraries.of(null, 1.0, 0.0, -2.0, 1e-50, 1e40, 0.25);
    Arbitrary<Integer> statusesHttp = Arbitraries.of(null, 200, 304, 99, 600, 503);
    return Combinators.combine(keys, statuses, times, metadata, changed, weights, statusesHttp)
        .as((k, s, t, md, c, w, h) -> new StatusEvent(k, "", s, t, md, c, w, h));
  }

  private static Map<String, List<String>> metadata(List<List<String>> pairs) {
    Map<String, List<String>> md = new LinkedHashMap<>();
    for (List<String> p : pairs) {
      if (p.isEmpty()) {
        continue;
      }
      md.computeIfAbsent(p.get(0), k -> new ArrayList<>()).add(p.get(1));
    }
    md.replaceAll((k, v) -> List.copyOf(v));
    return md;
  }
}
