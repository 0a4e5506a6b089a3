package io.recrawl.flink.tools.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.HostKeys;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A row checked by the job's own codec and turned into the events that bring its page in. */
class PageImportTest {

  static final long NOW = java.time.Instant.parse("2026-11-26T05:00:00Z").toEpochMilli();
  static final long DAY = 86_400_000L;

  static PageImport importer(HostKeys.Mode mode) {
    return new PageImport(
        new ImportSettings(
            mode,
            ImportSettings.DEFAULT_WEIGHT_KEY,
            ImportSettings.DEFAULT_LAST_FETCH_KEYS,
            ImportSettings.DEFAULT_FETCH_INTERVAL_MS,
            NOW),
        3);
  }

  private static FrontierRow row(
      String url, CrawlStatus s, long next, Map<String, List<String>> md) {
    return new FrontierRow(1, url, s, next, md, "raw");
  }

  private static String reason(FrontierRow r) {
    try {
      importer(HostKeys.Mode.BY_HOST).page(r);
      return "ok";
    } catch (RowRejection e) {
      return e.reason;
    }
  }

  @Test
  void urlAndHostKeyAsTheJobComputesThem() throws Exception {
    ImportedPage p =
        importer(HostKeys.Mode.BY_HOST)
            .page(row("HTTP://WWW.Example.COM:80", CrawlStatus.DISCOVERED, NOW, Map.of()));
    assertThat(p.url()).isEqualTo("http://www.example.com/");
    assertThat(p.host()).isEqualTo("www.example.com");
    ImportedPage d =
        importer(HostKeys.Mode.BY_DOMAIN)
            .page(row("https://a.b.example.co.uk/x", CrawlStatus.DISCOVERED, NOW, Map.of()));
    assertThat(d.host()).isEqualTo("example.co.uk");
  }

  @Test
  void fetchedKeepsItsEvidenceWeightAndLastFetch() throws Exception {
    ImportedPage p =
        importer(HostKeys.Mode.BY_HOST)
            .page(
                row(
                    "http://a.example/",
                    CrawlStatus.FETCHED,
                    NOW + DAY,
                    Map.of(
                        "signature", List.of("abc"),
                        "protocol.etag", List.of("\"e\""),
                        "recrawl.weight", List.of("2.5"),
                        "recrawl.lastFetch", List.of("2026-11-25T04:00:00Z"))));
    assertThat(p.events()).hasSize(1);
    assertThat(p.events().get(0).status()).isEqualTo(CrawlStatus.FETCHED);
    assertThat(p.events().get(0).time()).isEqualTo(NOW - DAY - 3_600_000L);
    assertThat(p.events().get(0).weight()).isEqualTo(2.5);
    assertThat(p.events().get(0).first("signature")).isEqualTo("abc");
    assertThat(p.nextFetch()).isEqualTo(NOW + DAY);
  }

  @Test
  void withoutALastFetchKeyTheFetchIsOneIntervalBeforeTheNextFetch() throws Exception {
    ImportedPage p =
        importer(HostKeys.Mode.BY_HOST)
            .page(row("http://a.example/", CrawlStatus.FETCHED, NOW + 3_600_000L, Map.of()));
    assertThat(p.events().get(0).time()).isEqualTo(NOW + 3_600_000L - DAY);
    ImportedPage http =
        importer(HostKeys.Mode.BY_HOST)
            .page(
                row(
                    "http://a.example/",
                    CrawlStatus.FETCHED,
                    NOW,
                    Map.of("protocol.date", List.of("Wed, 25 Nov 2026 05:00:00 GMT"))));
    assertThat(http.events().get(0).time()).isEqualTo(NOW - DAY);
  }

  @Test
  void fetchErrorsKeepTheirCountBelowTheMaximum() throws Exception {
    ImportedPage two =
        importer(HostKeys.Mode.BY_HOST)
            .page(
                row(
                    "http://a.example/",
                    CrawlStatus.FETCH_ERROR,
                    NOW,
                    Map.of("fetch.error.count", List.of("2"))));
    assertThat(two.events()).hasSize(2);
    // Two errors, not one delivered twice: the last at the row's time, the other just before it.
    assertThat(two.events().get(0).time()).isLessThan(two.events().get(1).time());
    ImportedPage many =
        importer(HostKeys.Mode.BY_HOST)
            .page(
                row(
                    "http://a.example/",
                    CrawlStatus.FETCH_ERROR,
                    NOW,
                    Map.of("fetch.error.count", List.of("9"))));
    assertThat(many.events()).hasSize(2); // fetch-error.max 3 would make it ERROR
  }

  @Test
  void everyReasonARowIsRefused() {
    assertThat(reason(row("ftp://a.example/", CrawlStatus.FETCHED, NOW, Map.of())))
        .isEqualTo("bad_url");
    assertThat(reason(row("not a url", CrawlStatus.DISCOVERED, NOW, Map.of())))
        .isEqualTo("bad_url");
    assertThat(
            reason(
                row(
                    "http://a.example/",
                    CrawlStatus.FETCHED,
                    NOW,
                    Map.of("recrawl.weight", List.of("heavy")))))
        .isEqualTo("bad_weight");
    assertThat(
            reason(
                row(
                    "http://a.example/",
                    CrawlStatus.FETCHED,
                    NOW,
                    Map.of("recrawl.weight", List.of("-1")))))
        .isEqualTo("bad_weight");
    assertThat(
            reason(
                row(
                    "http://a.example/",
                    CrawlStatus.FETCHED,
                    NOW,
                    Map.of("recrawl.lastFetch", List.of("last week")))))
        .isEqualTo("bad_time");
    assertThat(
            reason(
                row(
                    "http://a.example/",
                    CrawlStatus.FETCHED,
                    NOW,
                    Map.of("recrawl.change-rate", List.of("often")))))
        .isEqualTo("bad_metadata");
    assertThat(
            reason(
                row(
                    "http://a.example/",
                    CrawlStatus.FETCHED,
                    NOW,
                    Map.of("recrawl.signature-hash", List.of("x")))))
        .isEqualTo("bad_metadata");
    assertThat(reason(row("http://a.example/", CrawlStatus.FETCHED, NOW, Map.of())))
        .isEqualTo("ok");
  }

  @Test
  void theJobsOwnHashesComeBack() throws Exception {
    ImportedPage p =
        importer(HostKeys.Mode.BY_HOST)
            .page(
                row(
                    "http://a.example/",
                    CrawlStatus.FETCHED,
                    NOW,
                    Map.of(
                        "recrawl.signature-hash", List.of("-42"),
                        "recrawl.etag-hash", List.of("7"))));
    assertThat(p.signatureHash()).isEqualTo(-42);
    assertThat(p.etagHash()).isEqualTo(7);
    assertThat(p.events().get(0).metadata()).doesNotContainKey("recrawl.signature-hash");
    assertThatThrownBy(() -> FrontierFormat.of("xml")).hasMessageContaining("--format");
  }
}
