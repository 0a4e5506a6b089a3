package io.recrawl.flink.tools.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.EngineContext;
import io.recrawl.engine.EngineOutcome;
import io.recrawl.engine.HostEngine;
import io.recrawl.engine.HostState;
import io.recrawl.engine.PageState;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.HostKeys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A host built by the import, then woken by the engine as the restored job would wake it: the
 * import releases nothing, and the wakes send the pages at the host's pace, overdue ones in value
 * order, the others in their dates' order.
 */
class HostImporterTest {

  static final long NOW = 1_795_582_800_000L;
  static final long MIN = 60_000L;
  static final String HOST = "a.example";

  final EngineConfig cfg = EngineConfig.fromMap(Map.of(), "recrawl.engine.");
  final HostEngine engine = new HostEngine(cfg);
  final PageImport rows =
      new PageImport(
          new ImportSettings(
              HostKeys.Mode.BY_HOST,
              ImportSettings.DEFAULT_WEIGHT_KEY,
              ImportSettings.DEFAULT_LAST_FETCH_KEYS,
              ImportSettings.DEFAULT_FETCH_INTERVAL_MS,
              NOW),
          cfg.maxFetchErrors);

  private ImportedPage page(String path, CrawlStatus s, long next, long lastFetch)
      throws Exception {
    Map<String, List<String>> md = new HashMap<>();
    if (lastFetch > 0) {
      md.put("recrawl.lastFetch", List.of(java.time.Instant.ofEpochMilli(lastFetch).toString()));
      md.put("signature", List.of("s" + path));
    }
    return rows.page(new FrontierRow(1, "http://" + HOST + path, s, next, md, ""));
  }

  @Test
  void wakesSendTheImportedPagesAtTheHostsPaceInOrder() throws Exception {
    List<ImportedPage> pages = new ArrayList<>();
    Map<String, Long> nextFetch = new HashMap<>();
    Map<String, Long> lastFetch = new HashMap<>();
    for (int i = 0; i < 20; i++) { // overdue, never fetched: unbounded value, first
      pages.add(page("/new" + i, CrawlStatus.DISCOVERED, NOW - i * MIN, 0));
    }
    for (int i = 0; i < 40; i++) { // overdue, fetched: the longer ago, the higher the value
      long lf = NOW - (i * 37 % 40 + 1) * 3_600_000L;
      pages.add(page("/old" + i, CrawlStatus.FETCHED, NOW - MIN, lf));
      lastFetch.put("http://" + HOST + "/old" + i, lf);
    }
    for (int i = 0; i < 200; i++) { // future, 100 due in the same minute: more than 60 a minute
      long next = NOW + (i < 100 ? 2 * MIN : (i % 30 + 3) * MIN + i * 97 % MIN);
      pages.add(page("/f" + i, CrawlStatus.FETCHED, next, NOW - 3_600_000L));
      nextFetch.put("http://" + HOST + "/f" + i, next);
    }
    List<BadRow> refused = new ArrayList<>();
    RecordingHostStore store =
        new HostImporter(engine, NOW, 0, ImportSettings.FirstDue.NEXT_FETCH)
            .build(HOST, pages, refused::add);
    assertThat(refused).isEmpty();
    HostState h = store.host();
    assertThat(h.pages).isEqualTo(pages.size());
    assertThat(h.inFlight).isZero();
    assertThat(h.wakeAt).isGreaterThan(NOW).isLessThan(NOW + 2 * MIN);
    for (PageState p : store.pages.values()) {
      assertThat(p.forced).isTrue();
      assertThat(p.signatureHash != 0).isEqualTo(!p.neverFetched());
    }

    // The engine wakes the host as the job does, at each wake-up it asks for.
    List<CrawlRequest> sent = new ArrayList<>();
    while (sent.size() < pages.size() && h.wakeAt < NOW + 60 * MIN) {
      wake(store, h.wakeAt, sent);
      h = store.host();
    }
    assertThat(sent).hasSize(pages.size());
    for (int i = 1; i < sent.size(); i++) {
      assertThat(sent.get(i).time() - sent.get(i - 1).time())
          .as("pacing at request %d", i)
          .isGreaterThanOrEqualTo(1_000);
    }
    List<String> order = sent.stream().map(CrawlRequest::url).toList();
    for (int i = 0; i < 20; i++) {
      assertThat(order.get(i)).contains("/new");
    }
    for (int i = 21; i < 60; i++) {
      assertThat(lastFetch.get(order.get(i)))
          .isGreaterThanOrEqualTo(lastFetch.get(order.get(i - 1)));
    }
    long lastDate = 0;
    for (CrawlRequest r : sent.subList(60, sent.size())) {
      long date = nextFetch.get(r.url());
      assertThat(r.time()).isGreaterThanOrEqualTo(date);
      // in date order, up to pages of one due bucket, which go best first
      assertThat(date / MIN).isGreaterThanOrEqualTo(lastDate / MIN);
      lastDate = Math.max(lastDate, date);
    }
  }

  /**
   * {@code --first-due value}: the old crawl's next fetch dates are not plans; each fetched page
   * goes when the engine's own plan from its last fetch says.
   */
  @Test
  void withFirstDueValueTheEnginesPlanDecidesNotTheOldDates() throws Exception {
    List<ImportedPage> pages = new ArrayList<>();
    pages.add(page("/new", CrawlStatus.DISCOVERED, NOW - MIN, 0));
    for (int i = 0; i < 30; i++) { // fetched an hour ago, next in the old crawl in two minutes
      pages.add(page("/f" + i, CrawlStatus.FETCHED, NOW + 2 * MIN, NOW - 3_600_000L));
    }
    for (ImportSettings.FirstDue mode : ImportSettings.FirstDue.values()) {
      List<BadRow> refused = new ArrayList<>();
      // A global price at which a page fetched an hour ago is worth nothing yet.
      RecordingHostStore store =
          new HostImporter(engine, NOW, 50, mode).build(HOST, pages, refused::add);
      assertThat(refused).isEmpty();
      HostState h = store.host();
      List<CrawlRequest> sent = new ArrayList<>();
      while (h.wakeAt < NOW + 60 * MIN) {
        wake(store, h.wakeAt, sent);
        h = store.host();
      }
      // Nothing answers, so a lease that runs out sends a URL again: count each once.
      List<String> urls = sent.stream().map(CrawlRequest::url).distinct().toList();
      if (mode == ImportSettings.FirstDue.NEXT_FETCH) {
        assertThat(urls).hasSize(31).startsWith("http://" + HOST + "/new");
      } else {
        assertThat(urls).containsExactly("http://" + HOST + "/new");
        assertThat(store.pages.values()).noneMatch(p -> p.forced);
      }
    }
  }

  /** What the engine refuses or removes is a bad row with the engine's reason, not lost. */
  @Test
  void refusedAndRemovedPagesAreBadRows() throws Exception {
    HostEngine small =
        new HostEngine(
            EngineConfig.fromMap(
                Map.of("host.max-pages", 5, "error.remove", true), "recrawl.engine."));
    List<ImportedPage> pages = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      pages.add(page("/p" + i, CrawlStatus.FETCHED, NOW + i * MIN, NOW - 3_600_000L));
    }
    pages.add(page("/gone", CrawlStatus.ERROR, FrontierRow.NEVER, NOW - 3_600_000L));
    List<BadRow> refused = new ArrayList<>();
    RecordingHostStore store =
        new HostImporter(small, NOW, 0, ImportSettings.FirstDue.NEXT_FETCH)
            .build(HOST, pages, refused::add);
    assertThat(store.pages).hasSize(5);
    assertThat(refused.stream().map(BadRow::reason))
        .containsExactlyInAnyOrder("host_full", "host_full", "host_full");
    assertThat(refused.get(0).detail()).contains("recrawl.engine.host.max-pages = 5");

    List<BadRow> removed = new ArrayList<>();
    new HostImporter(small, NOW, 0, ImportSettings.FirstDue.NEXT_FETCH)
        .build(HOST, pages.subList(5, 8), removed::add);
    assertThat(removed).extracting(BadRow::reason).containsExactly("error_removed");
  }

  /** Wakes the host at {@code t} as the job does, keeping what it releases. */
  private void wake(RecordingHostStore store, long t, List<CrawlRequest> sent) {
    EngineOutcome outcome = new EngineOutcome();
    engine.onWake(store, new EngineContext().begin(HOST, t, 0), outcome);
    sent.addAll(outcome.releases());
  }

  @Test
  void theBuiltHostsDemandPricesTheBudgetAsTheControllerWould() throws Exception {
    HostImporter importer = new HostImporter(engine, NOW, 0, ImportSettings.FirstDue.VALUE);
    for (String host : List.of("a.example", "b.example")) {
      List<ImportedPage> pages = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        Map<String, List<String>> md = new HashMap<>();
        md.put(
            "recrawl.lastFetch",
            List.of(java.time.Instant.ofEpochMilli(NOW - (i + 1) * 3_600_000L).toString()));
        md.put("recrawl.change-rate", List.of(Double.toString(0.05 * (i + 1))));
        pages.add(
            rows.page(
                new FrontierRow(
                    i + 1, "http://" + host + "/p" + i, CrawlStatus.FETCHED, NOW, md, "")));
      }
      importer.build(host, pages, b -> {});
    }
    double[] demand = importer.demand();
    // The budget these hosts would spend at a lambda of 1: the import must price it at about 1.
    double budget = cfg.grid.demandAt(demand, 1.0);
    assertThat(budget).isPositive();

    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    double price =
        FrontierImport.advisePrice(
            options(ImportSettings.FirstDue.VALUE, 0, budget),
            cfg,
            demand,
            new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
    assertThat(price).isCloseTo(1.0, org.assertj.core.data.Percentage.withPercentage(5));
    assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8))
        .contains(
            "set recrawl.global-lambda: " + String.format(java.util.Locale.ROOT, "%.4g", price));
    // Twice the budget buys more crawls: a lower price.
    double cheaper =
        FrontierImport.advisePrice(
            options(ImportSettings.FirstDue.NEXT_FETCH, price, 2 * budget),
            cfg,
            demand,
            new java.io.PrintStream(new java.io.ByteArrayOutputStream()));
    assertThat(cheaper).isLessThan(price);
  }

  private static FrontierImport.Options options(
      ImportSettings.FirstDue firstDue, double lambda0, double budget) {
    return new FrontierImport.Options(
        java.nio.file.Path.of("in"),
        FrontierFormat.SEEDS,
        "sp",
        java.nio.file.Path.of("rejects"),
        0.01,
        new ImportSettings(
            HostKeys.Mode.BY_HOST,
            ImportSettings.DEFAULT_WEIGHT_KEY,
            ImportSettings.DEFAULT_LAST_FETCH_KEYS,
            ImportSettings.DEFAULT_FETCH_INTERVAL_MS,
            NOW,
            firstDue),
        Map.of(),
        lambda0,
        128,
        1,
        1000,
        1 << 20,
        budget,
        null);
  }
}
