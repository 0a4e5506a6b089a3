package io.recrawl.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StatusEventCodecTest {

  private static final long NOW = Instant.parse("2026-11-21T08:00:00Z").toEpochMilli();
  private final StatusEventCodec codec = StatusEventCodec.withDefaults();

  private StatusEvent ok(String json) {
    Parsed<StatusEvent> p = codec.parse(json, NOW);
    assertThat(p.ok()).as("%s", p).isTrue();
    return p.value();
  }

  private DeadLetter rejected(String json) {
    Parsed<StatusEvent> p = codec.parse(json, NOW);
    assertThat(p.ok()).as("%s", p).isFalse();
    assertThat(p.deadLetter().raw()).isEqualTo(json);
    assertThat(p.deadLetter().time()).isEqualTo(NOW);
    assertThat(p.deadLetter().detail()).isNotBlank();
    return p.deadLetter();
  }

  @Test
  void parsesAFullEvent() {
    StatusEvent e =
        ok(
            """
        {"url":"https://Example.com:443/a","status":"FETCHED","time":"2026-11-21T07:59:00Z",
         "metadata":{"signature":"abc","outlinks":["x","y"],"fetch.statusCode":200},
         "changed":true,"weight":2.5,"http_status":200,"extra":"ignored"}""");
    assertThat(e.url()).isEqualTo("https://example.com/a");
    assertThat(e.host()).isEqualTo("example.com");
    assertThat(e.status()).isEqualTo(CrawlStatus.FETCHED);
    assertThat(e.time()).isEqualTo(NOW - 60_000);
    assertThat(e.metadata())
        .containsExactly(
            Map.entry("signature", List.of("abc")),
            Map.entry("outlinks", List.of("x", "y")),
            Map.entry("fetch.statusCode", List.of("200")));
    assertThat(e.changed()).isTrue();
    assertThat(e.weight()).isEqualTo(2.5);
    assertThat(e.httpStatus()).isEqualTo(200);
  }

  @Test
  void optionalFieldsMayBeAbsentOrNull() {
    StatusEvent e =
        ok("{\"url\":\"http://a.org/\",\"status\":\"discovered\",\"time\":1000,\"weight\":null}");
    assertThat(e.status()).isEqualTo(CrawlStatus.DISCOVERED);
    assertThat(e.time()).isEqualTo(1000);
    assertThat(e.metadata()).isEmpty();
    assertThat(e.changed()).isNull();
    assertThat(e.weight()).isNull();
    assertThat(e.httpStatus()).isNull();
  }

  @Test
  void timeMayBeEpochMillisAnIsoInstantOrAnOffset() {
    assertThat(
            ok("{\"url\":\"http://a.org/\",\"status\":\"FETCHED\",\"time\":\"1700000000000\"}")
                .time())
        .isEqualTo(1_700_000_000_000L);
    assertThat(
            ok("{\"url\":\"http://a.org/\",\"status\":\"FETCHED\",\"time\":\"2026-11-21T09:00:00+02:00\"}")
                .time())
        .isEqualTo(NOW - 3_600_000);
  }

  @Test
  void roundTripsEveryField() {
    for (StatusEvent e :
        List.of(
            new StatusEvent(
                "http://a.org/x",
                "a.org",
                CrawlStatus.FETCH_ERROR,
                5,
                Map.of("k", List.of("v1", "v2")),
                false,
                0.25,
                503),
            new StatusEvent(
                "http://b.org:81/",
                "b.org:81",
                CrawlStatus.REDIRECTION,
                NOW,
                Map.of(),
                null,
                null,
                null),
            new StatusEvent(
                "http://b.org/é?q=\"x\"",
                "b.org",
                CrawlStatus.ERROR,
                0,
                Map.of("ü", List.of("\n\t")),
                true,
                1e-9,
                404))) {
      String json = StatusEventCodec.toJson(e);
      assertThat(ok(json)).isEqualTo(e);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      malformed_json           | {"url":"http://a.org/","status":"FETCHED","time":1
      malformed_json           | {"url":"http://a.org/","status":"FETCHED","time":1} trailing
      malformed_json           | {"url":"http://a.org/","url":"http://b.org/","status":"FETCHED","time":1}
      malformed_json           | ''
      not_an_object            | ["http://a.org/"]
      missing_field:url        | {"status":"FETCHED","time":1}
      missing_field:url        | {"url":null,"status":"FETCHED","time":1}
      missing_field:status     | {"url":"http://a.org/","time":1}
      missing_field:time       | {"url":"http://a.org/","status":"FETCHED"}
      bad_url                  | {"url":"no scheme","status":"FETCHED","time":1}
      bad_url                  | {"url":"ftp://a.org/","status":"FETCHED","time":1}
      bad_url                  | {"url":42,"status":"FETCHED","time":1}
      unknown_status           | {"url":"http://a.org/","status":"DELETED","time":1}
      unknown_status           | {"url":"http://a.org/","status":3,"time":1}
      bad_time                 | {"url":"http://a.org/","status":"FETCHED","time":"yesterday"}
      bad_time                 | {"url":"http://a.org/","status":"FETCHED","time":-5}
      bad_time                 | {"url":"http://a.org/","status":"FETCHED","time":1.5}
      bad_time                 | {"url":"http://a.org/","status":"FETCHED","time":"2026-11-21T07:00:00"}
      time_in_future           | {"url":"http://a.org/","status":"FETCHED","time":"2026-11-21T09:00:01Z"}
      time_in_future           | {"url":"http://a.org/","status":"FETCHED","time":99999999999999}
      bad_metadata             | {"url":"http://a.org/","status":"FETCHED","time":1,"metadata":["a"]}
      bad_metadata             | {"url":"http://a.org/","status":"FETCHED","time":1,"metadata":{"a":{"b":"c"}}}
      bad_metadata             | {"url":"http://a.org/","status":"FETCHED","time":1,"metadata":{"a":null}}
      bad_metadata             | {"url":"http://a.org/","status":"FETCHED","time":1,"metadata":{"a":["x",null]}}
      bad_metadata             | {"url":"http://a.org/","status":"FETCHED","time":1,"metadata":{"recrawl.change-rate":"often"}}
      bad_metadata             | {"url":"http://a.org/","status":"FETCHED","time":1,"metadata":{"recrawl.change-rate":"0"}}
      bad_metadata             | {"url":"http://a.org/","status":"FETCHED","time":1,"metadata":{"recrawl.change-rate":"-1"}}
      bad_metadata             | {"url":"http://a.org/","status":"FETCHED","time":1,"metadata":{"recrawl.change-rate":"Infinity"}}
      bad_weight               | {"url":"http://a.org/","status":"FETCHED","time":1,"weight":NaN}
      bad_weight               | {"url":"http://a.org/","status":"FETCHED","time":1,"weight":0}
      bad_weight               | {"url":"http://a.org/","status":"FETCHED","time":1,"weight":-1}
      bad_weight               | {"url":"http://a.org/","status":"FETCHED","time":1,"weight":1e400}
      bad_weight               | {"url":"http://a.org/","status":"FETCHED","time":1,"weight":Infinity}
      bad_weight               | {"url":"http://a.org/","status":"FETCHED","time":1,"weight":"2"}
      bad_changed              | {"url":"http://a.org/","status":"FETCHED","time":1,"changed":"yes"}
      bad_http_status          | {"url":"http://a.org/","status":"FETCHED","time":1,"http_status":99}
      bad_http_status          | {"url":"http://a.org/","status":"FETCHED","time":1,"http_status":200.5}
      """)
  void refusesWithAReason(String reason, String json) {
    assertThat(rejected(json).reason()).isEqualTo(reason);
  }

  @Test
  void tooLargeInputIsRefusedAndItsRawCopyIsCut() {
    StatusEventCodec small = new StatusEventCodec(HostKeys.Mode.BY_HOST, -1, 100);
    String big =
        "{\"url\":\"http://a.org/" + "x".repeat(40_000) + "\",\"status\":\"FETCHED\",\"time\":1}";
    DeadLetter d = small.parse(big, NOW).deadLetter();
    assertThat(d.reason()).isEqualTo(DeadLetterReason.TOO_LARGE);
    assertThat(d.raw()).hasSize(DeadLetter.MAX_RAW_CHARS);
  }

  @Test
  void futureToleranceIsConfigurableAndCanBeOff() {
    String json =
        "{\"url\":\"http://a.org/\",\"status\":\"FETCHED\",\"time\":" + (NOW + 10_000) + "}";
    assertThat(
            new StatusEventCodec(HostKeys.Mode.BY_HOST, 5_000, 1000)
                .parse(json, NOW)
                .deadLetter()
                .reason())
        .isEqualTo("time_in_future");
    assertThat(new StatusEventCodec(HostKeys.Mode.BY_HOST, 10_000, 1000).parse(json, NOW).ok())
        .isTrue();
    assertThat(new StatusEventCodec(HostKeys.Mode.BY_HOST, -1, 1000).parse(json, NOW).ok())
        .isTrue();
  }

  @Test
  void byDomainCodecKeysByRegisteredDomain() {
    StatusEventCodec domains = new StatusEventCodec(HostKeys.Mode.BY_DOMAIN, -1, 10_000);
    assertThat(
            domains
                .parse(
                    "{\"url\":\"http://news.bbc.co.uk/\",\"status\":\"FETCHED\",\"time\":1}", NOW)
                .value()
                .host())
        .isEqualTo("bbc.co.uk");
  }

  @Test
  void seedLinesBecomeDiscoveredEventsWithTabSeparatedMetadata() {
    StatusEvent s =
        codec.parseSeed("  http://Seed.org/start\tdepth=0\ttag=a\ttag=b=c ", 77).value();
    assertThat(s)
        .isEqualTo(
            new StatusEvent(
                "http://seed.org/start",
                "seed.org",
                CrawlStatus.DISCOVERED,
                77,
                Map.of("depth", List.of("0"), "tag", List.of("a", "b=c")),
                null,
                null,
                null));
    assertThat(codec.parseSeed("not a url", 77).deadLetter().reason()).isEqualTo("bad_url");
    assertThat(codec.parseSeed("http://a.org/\tnovalue", 77).deadLetter().reason())
        .isEqualTo("bad_metadata");
  }

  @Test
  void aSeedsWeightInItsMetadataIsThePagesWeight() {
    // StormCrawler's seed format carries a page's weight as metadata; the job values pages by the
    // event's weight, so a weight left in the metadata alone was never used.
    StatusEvent s = codec.parseSeed("http://a.org/p\trecrawl.weight=2.5\tdepth=0", 1).value();
    assertThat(s.weight()).isEqualTo(2.5);
    assertThat(s.metadata()).containsEntry("recrawl.weight", List.of("2.5"));
    assertThat(codec.parseSeed("http://a.org/p", 1).value().weight()).isNull();
    for (String bad : List.of("heavy", "0", "-1", "NaN", "Infinity", "1e39", "")) {
      assertThat(codec.parseSeed("http://a.org/p\trecrawl.weight=" + bad, 1).deadLetter())
          .as(bad)
          .satisfies(d -> assertThat(d.reason()).isEqualTo("bad_weight"))
          .satisfies(d -> assertThat(d.detail()).contains("recrawl.weight"));
    }
  }

  @Test
  void aSeedFileWrittenWithAByteOrderMarkKeepsItsFirstSeedAndALineNotInUtf8IsRefused() {
    // Windows tools start a UTF-8 file with U+FEFF; the file reader hands it over as a character.
    assertThat(codec.parseSeed("\uFEFFhttp://a.org/first\tdepth=0", 77).value().url())
        .isEqualTo("http://a.org/first");
    // A Latin-1 "café" read as UTF-8: the reader replaces the bad byte with U+FFFD.
    assertThat(codec.parseSeed("http://a.org/caf\uFFFD", 77).deadLetter().reason())
        .isEqualTo("bad_encoding");
    assertThat(codec.parseSeed("http://a.org/\tcity=M\uFFFDnchen", 77).deadLetter().reason())
        .isEqualTo("bad_encoding");
  }

  /**
   * java.net.URL skips leading characters up to U+0020, so this URL was accepted with the key of
   * example.com; stored as it came, its U+0001 was then read back by {@code
   * SchedulerState.expandUrl} as the https marker, and the page was never indexed again.
   */
  @Test
  void aStatusWhoseUrlStartsWithU0001IsABadUrlNotAPageThatIsNeverIndexedAgain() {
    for (String url : List.of("\u0001http://example.com/a", "\u0002https://example.com/a")) {
      String json =
          StatusEventCodec.toJson(
              new StatusEvent(
                  url, "example.com", CrawlStatus.FETCHED, 1, Map.of(), null, null, null));
      assertThat(rejected(json).reason()).as("%s", url).isEqualTo(DeadLetterReason.BAD_URL);
      assertThat(codec.parseSeed(url, 1).ok()).as("seed %s", url).isFalse();
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      http://example.com/        | http://example.com/
      http://example.com         | http://example.com/
      HTTP://EXAMPLE.COM         | http://example.com/
      http://Example.Com:80/     | http://example.com/
      http://example.com.:80     | http://example.com/
      https://example.com:443    | https://example.com/
      https://example.com:80/    | https://example.com:80/
      http://example.com?q=A     | http://example.com/?q=A
      http://example.com#top     | http://example.com/#top
      http://example.com/A/%7e/  | http://example.com/A/%7e/
      http://u:p@example.com:8080| http://u:p@example.com:8080/
      http://0x7f.1/             | http://127.0.0.1/
      http://[0:0::1]:80/x       | http://[::1]/x
      http://bücher.de/b         | http://xn--bcher-kva.de/b
      """)
  void aPageHasOneUrlHoweverTheSchemeHostPortAndEmptyPathAreSpelled(String in, String out) {
    String json = "{\"url\":\"" + in + "\",\"status\":\"FETCHED\",\"time\":1}";
    assertThat(ok(json).url()).isEqualTo(out);
    assertThat(codec.parseSeed(in, 1).value().url()).isEqualTo(out);
    assertThat(Urls.normalise(out)).isEqualTo(out);
  }

  @Test
  void controlCharactersLoneSurrogatesAndOverlongUrlsAreBadUrls() {
    List<String> bad = new java.util.ArrayList<>();
    for (char c : new char[] {0, 1, 2, 9, 10, 13, 0x1f, 0x7f, 0x85, 0x9f}) {
      bad.add(c + "http://example.com/");
      bad.add("http://example.com/a" + c + "b");
      bad.add("http://exa" + c + "mple.com/");
    }
    bad.add("http://example.com/\uD800");
    bad.add("http://example.com/\uDC00x");
    bad.add("http://example.com/\uDE00\uD83D");
    bad.add("http://example.com/" + "a".repeat(Urls.MAX_URL_CHARS));
    for (String url : bad) {
      String json =
          StatusEventCodec.toJson(
              new StatusEvent(url, "x", CrawlStatus.FETCHED, 1, Map.of(), null, null, null));
      assertThat(rejected(json).reason()).as("%s", url).isEqualTo(DeadLetterReason.BAD_URL);
    }
    // A pair of surrogates is one character, and welcome.
    assertThat(
            ok("{\"url\":\"http://a.org/\uD83D\uDE00\",\"status\":\"FETCHED\",\"time\":1}").url())
        .isEqualTo("http://a.org/\uD83D\uDE00");
  }
}
