package io.recrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import com.digitalpebble.stormcrawler.Metadata;
import io.recrawl.estimate.ChangeEvidence;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatusEventsTest {

  private static final long NOW = 1_795_334_400_000L;

  private static CrawlerSettings settings(Object... kv) {
    Map<String, Object> m = new HashMap<>();
    m.put(CrawlerSettings.BOOTSTRAP_SERVERS, "broker:9092");
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return CrawlerSettings.fromConf(m);
  }

  private static Map<String, String[]> md(String... kv) {
    Map<String, String[]> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], new String[] {kv[i + 1]});
    }
    return m;
  }

  @Test
  void aFetchedPageCarriesItsChangeEvidenceUnderTheNamesTheJobReads() {
    StatusEvents events =
        new StatusEvents(settings("protocol.md.prefix", "http."), List.of("depth"));
    StatusEvent e =
        events.toEvent(
            "http://example.com/a",
            "FETCHED",
            md(
                "signature",
                "abc",
                "fetch.statusCode",
                "200",
                "http.etag",
                "\"v1\"",
                "http.last-modified",
                "Sat, 21 Nov 2026 07:00:00 GMT",
                "http.date",
                "Sat, 21 Nov 2026 08:00:00 GMT",
                "depth",
                "2",
                "parse.title",
                "A page",
                "http.content-type",
                "text/html"),
            "example.com",
            NOW);
    assertThat(e.status()).isEqualTo(CrawlStatus.FETCHED);
    assertThat(e.time()).isEqualTo(NOW);
    assertThat(e.httpStatus()).isEqualTo(200);
    assertThat(e.changed()).as("the job judges change with its own state").isNull();
    assertThat(e.metadata())
        .containsOnly(
            Map.entry("signature", List.of("abc")),
            Map.entry("fetch.statusCode", List.of("200")),
            Map.entry("protocol.etag", List.of("\"v1\"")),
            Map.entry("protocol.last-modified", List.of("Sat, 21 Nov 2026 07:00:00 GMT")),
            Map.entry("protocol.date", List.of("Sat, 21 Nov 2026 08:00:00 GMT")),
            Map.entry("last-modified", List.of("2026-11-21T07:00:00Z")),
            Map.entry("depth", List.of("2")));
  }

  @Test
  void a304IsUnchangedEvidenceOnceDecoded() {
    StatusEvents events = new StatusEvents(settings(), List.of());
    StatusEvent e =
        events.toEvent(
            "http://example.com/a", "FETCHED", md("fetch.statusCode", "304"), "example.com", NOW);
    Parsed<StatusEvent> back =
        StatusEventCodec.withDefaults().parse(StatusEventCodec.toJson(e), NOW);
    assertThat(back.ok()).isTrue();
    StatusEvent r = back.value();
    assertThat(r.httpStatus()).isEqualTo(304);
    assertThat(
            ChangeEvidence.assess(
                r.changed(),
                r.httpStatus(),
                r.first("signature"),
                "old",
                null,
                null,
                null,
                NOW - 1))
        .isEqualTo(ChangeEvidence.Verdict.UNCHANGED);
  }

  /**
   * RFC 9110 lets a 304 leave out Last-Modified (Python's http.server does). Each round here is one
   * recrawl: the request carries the last event's {@code last-modified}, as the job sends it back;
   * the tuple's metadata is the request's with the response's headers put over it, as StormCrawler
   * 2.4's FetcherBolt merges them; the server answers 304 to every conditional request, without
   * Last-Modified or ETag. Every recrawl after the first must be conditional.
   */
  @Test
  void aValidatorSurvivesA304ThatDoesNotRepeatItOverManyRecrawls() {
    StatusEvents events = new StatusEvents(settings(), List.of());
    Map<String, List<String>> request = Map.of();
    for (int round = 0; round < 6; round++) {
      Map<String, String[]> tuple = new HashMap<>();
      request.forEach((k, v) -> tuple.put(k, v.toArray(String[]::new)));
      boolean conditional = request.containsKey("last-modified");
      if (conditional) {
        tuple.put("fetch.statusCode", new String[] {"304"});
      } else {
        tuple.put("fetch.statusCode", new String[] {"200"});
        tuple.put("protocol.last-modified", new String[] {"Sat, 21 Nov 2026 07:00:00 GMT"});
        tuple.put("protocol.etag", new String[] {"\"v1\""});
      }
      assertThat(conditional).as("recrawl %d is conditional", round).isEqualTo(round > 0);
      StatusEvent e =
          events.toEvent("http://example.com/a", "FETCHED", tuple, "example.com", NOW + round);
      assertThat(e.first("last-modified")).as("round %d", round).isEqualTo("2026-11-21T07:00:00Z");
      // What the job transfers (recrawl.metadata.transfer: [last-modified]) is the next request.
      request = Map.of("last-modified", e.metadata().get("last-modified"));
    }
  }

  @Test
  void onlyA304SendsTheRequestsOwnLastModifiedBack() {
    StatusEvents events = new StatusEvents(settings(), List.of());
    // A 200 without Last-Modified: the page the request validated is gone, and so is its date.
    StatusEvent full =
        events.toEvent(
            "http://example.com/a",
            "FETCHED",
            md("fetch.statusCode", "200", "last-modified", "2026-11-21T07:00:00Z"),
            "example.com",
            NOW);
    assertThat(full.metadata()).doesNotContainKey("last-modified");
    // A 304 that names a date of its own: that one.
    StatusEvent renamed =
        events.toEvent(
            "http://example.com/a",
            "FETCHED",
            md(
                "fetch.statusCode",
                "304",
                "last-modified",
                "2026-11-21T07:00:00Z",
                "protocol.last-modified",
                "Sun, 22 Nov 2026 07:00:00 GMT"),
            "example.com",
            NOW);
    assertThat(renamed.first("last-modified")).isEqualTo("2026-11-22T07:00:00Z");
    // Not a date: nothing (StormCrawler would send an empty If-Modified-Since).
    StatusEvent garbage =
        events.toEvent(
            "http://example.com/a",
            "FETCHED",
            md("fetch.statusCode", "304", "last-modified", "soon"),
            "example.com",
            NOW);
    assertThat(garbage.metadata()).doesNotContainKey("last-modified");
  }

  @Test
  void aDiscoveredOutlinkDoesNotCarryItsParentsFetchEvidence() {
    StatusEvents events = new StatusEvents(settings(), List.of("fetch.statusCode"));
    StatusEvent e =
        events.toEvent(
            "http://example.com/b",
            "DISCOVERED",
            md(
                "signature",
                "parent",
                "protocol.etag",
                "\"p\"",
                "url.path",
                "http://example.com/a",
                "depth",
                "1",
                "anchors",
                "b",
                "recrawl.weight",
                "2.5",
                "recrawl.change-rate",
                "0.5",
                "fetch.statusCode",
                "200"),
            "example.com",
            NOW);
    assertThat(e.httpStatus()).isNull();
    assertThat(e.weight()).isEqualTo(2.5);
    // fetch.statusCode is in metadata.transfer here, so it is carried as plain metadata, not as
    // http_status
    assertThat(e.metadata())
        .containsOnlyKeys("url.path", "depth", "recrawl.change-rate", "fetch.statusCode");
  }

  @Test
  void configuredKeysAreCarriedAndBadNumbersLeftOut() {
    StatusEvents events =
        new StatusEvents(
            settings(
                "recrawl.status.metadata.keys",
                List.of("lang"),
                "recrawl.status.weight.key",
                "w",
                "recrawl.status.set-last-modified",
                false),
            List.of());
    StatusEvent e =
        events.toEvent(
            "http://example.com/a",
            "FETCH_ERROR",
            md(
                "lang",
                "fr",
                "w",
                "-1",
                "fetch.statusCode",
                "999",
                "protocol.last-modified",
                "yesterday"),
            "example.com",
            NOW);
    assertThat(e.weight()).isNull();
    assertThat(e.httpStatus()).as("outside 100-599: kept only as metadata").isNull();
    assertThat(e.metadata()).containsOnlyKeys("lang", "fetch.statusCode", "protocol.last-modified");
  }

  @Test
  void multipleValuesAreKept() {
    StatusEvents events =
        new StatusEvents(settings("recrawl.status.metadata.keys", "tags"), List.of());
    Map<String, String[]> md = new HashMap<>();
    md.put("tags", new String[] {"a", null, "b"});
    StatusEvent e = events.toEvent("http://example.com/a", "REDIRECTION", md, "example.com", NOW);
    assertThat(e.metadata()).containsEntry("tags", List.of("a", "b"));
  }

  private static StatusEvent sentAndReadBack(StatusEvent e) {
    Parsed<StatusEvent> p = StatusEventCodec.withDefaults().parse(StatusEventCodec.toJson(e), NOW);
    assertThat(p.ok()).as(() -> String.valueOf(p.deadLetter())).isTrue();
    return p.value();
  }

  @Test
  void aTooManyRequestsCarriesTheServersSignals() {
    // As StormCrawler 2.4's FetcherBolt leaves it: response headers lower-cased under
    // protocol.md.prefix, the status code in fetch.statusCode, 429 turned into FETCH_ERROR.
    Metadata md = new Metadata();
    md.setValue("fetch.statusCode", "429");
    md.setValue("protocol.retry-after", "5");
    md.setValue("protocol.content-type", "text/plain");
    md.setValue("robots.crawl.delay", "2");
    StatusEvent e =
        sentAndReadBack(
            new StatusEvents(settings(), List.of())
                .toEvent("http://example.com/a", "FETCH_ERROR", md.asMap(), "example.com", NOW));
    assertThat(e.httpStatus()).isEqualTo(429);
    assertThat(e.metadata())
        .containsEntry("protocol.retry-after", List.of("5"))
        .containsEntry("robots.crawl.delay", List.of("2"))
        .containsEntry("fetch.statusCode", List.of("429"))
        .doesNotContainKey("protocol.content-type");
  }

  @Test
  void retryAfterIsFoundWhateverTheCaseOfItsNameAndThePrefix() {
    Metadata md = new Metadata();
    md.setValue("fetch.statusCode", "503");
    md.setValue("http.Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT");
    StatusEvent e =
        sentAndReadBack(
            new StatusEvents(settings("protocol.md.prefix", "http."), List.of())
                .toEvent("http://example.com/a", "FETCH_ERROR", md.asMap(), "example.com", NOW));
    assertThat(e.httpStatus()).isEqualTo(503);
    assertThat(e.metadata())
        .containsEntry("protocol.retry-after", List.of("Sun, 06 Nov 1994 08:49:37 GMT"));
    assertThat(e.firstIgnoreCase("PROTOCOL.Retry-After"))
        .isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
  }

  @Test
  void robotsCrawlDelayComesFromTheRulesTheProtocolCached() {
    Map<String, Double> cached = Map.of("http://example.com/a", 2.5, "http://example.com/b", 3.0);
    StatusEvents events = new StatusEvents(settings(), List.of(), cached::get);
    Metadata md = new Metadata();
    md.setValue("fetch.statusCode", "200");
    StatusEvent fetched =
        events.toEvent("http://example.com/a", "FETCHED", md.asMap(), "example.com", NOW);
    assertThat(fetched.metadata()).containsEntry("robots.crawl.delay", List.of("2.5"));
    // A value the crawler put in the metadata itself wins.
    md.setValue("robots.crawl.delay", "7");
    assertThat(
            events
                .toEvent("http://example.com/b", "FETCHED", md.asMap(), "example.com", NOW)
                .metadata())
        .containsEntry("robots.crawl.delay", List.of("7"));
    // No rules cached, or an outlink (the rules are its parent's): nothing is sent.
    assertThat(
            events
                .toEvent("http://example.com/c", "FETCHED", new HashMap<>(), "example.com", NOW)
                .metadata())
        .doesNotContainKey("robots.crawl.delay");
    assertThat(
            events
                .toEvent("http://example.com/a", "DISCOVERED", new HashMap<>(), "example.com", NOW)
                .metadata())
        .doesNotContainKey("robots.crawl.delay");
  }

  @Test
  void aLastModifiedBeyondWhatAnInstantHoldsIsNotADate() {
    StatusEvents events = new StatusEvents(settings(), List.of());
    for (String hostile :
        List.of(
            "+999999999-12-31",
            "+300000000-01-01T00:00:00Z",
            "+300000000-01-01T00:00:00",
            "10000-01-01",
            "99999999999999999")) {
      StatusEvent e =
          events.toEvent(
              "http://example.com/a",
              "FETCHED",
              md("fetch.statusCode", "200", "protocol.last-modified", hostile),
              "example.com",
              NOW);
      assertThat(e.metadata()).as(hostile).doesNotContainKey("last-modified");
      assertThat(e.metadata().get("protocol.last-modified")).isEqualTo(List.of(hostile));
    }
  }
}
