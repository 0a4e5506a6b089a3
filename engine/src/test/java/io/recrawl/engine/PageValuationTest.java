package io.recrawl.engine;

import static io.recrawl.engine.EngineTestSupport.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.engine.local.LocalFrontier;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PageValuationTest {

  /** The Gamma posterior updated in place, for the tests that check its arithmetic. */
  private static final Map<String, Object> GAMMA = Map.of("estimator.posterior", "gamma");

  private static EngineConfig config(Map<String, Object> overrides) {
    return EngineConfig.with(overrides);
  }

  @Test
  void aPageWithLittleEvidenceIsPutOffButNeverWrittenOff() {
    // Seen unchanged once, over a short gap: the posterior mean is 1 / (1 + 0.1) changes a day and
    // the posterior shape stays 1. At threshold 2 > w / mean, the value at the mean never gets
    // there;
    // averaged over the posterior it does, later.
    for (boolean expected : new boolean[] {true, false}) {
      EngineConfig cfg =
          config(Map.of("estimator.expected-value", expected, "estimator.optimism", 0.0));
      LocalFrontier f = new LocalFrontier(cfg);
      Sink sink = new Sink();
      f.onStatus(fetched("http://a.example/x", T0, true), sink);
      long second = T0 + DAY / 10;
      f.onStatus(fetched("http://a.example/x", second, false), sink);
      HostState h = f.store("a.example").host();
      PageState p = f.store("a.example").page("http://a.example/x");
      long due = f.engine().valuation().dueTime(h, p, 2.0, second);
      if (expected) {
        assertThat(due).isGreaterThan(second + 2 * DAY).isLessThan(Long.MAX_VALUE);
        assertThat(f.engine().valuation().crawlValue(h, p, due))
            .isCloseTo(2.0, org.assertj.core.data.Percentage.withPercentage(0.01));
      } else {
        assertThat(due).isEqualTo(Long.MAX_VALUE);
      }
    }
  }

  @Test
  void aPageWithLittleEvidenceTakesItsPriorFromTheOtherPagesOfItsHost() {
    EngineConfig cfg = config(GAMMA);
    LocalFrontier f = new LocalFrontier(cfg);
    Sink sink = new Sink();
    // Twenty pages of slow.example stay unchanged over 20 days; one page of fresh.example is alike.
    for (int i = 0; i < 20; i++) {
      f.onStatus(fetched("http://slow.example/p" + i, T0, true), sink);
      f.onStatus(fetched("http://slow.example/p" + i, T0 + 20 * DAY, false), sink);
    }
    f.onStatus(fetched("http://slow.example/new", T0 + 20 * DAY, true), sink);
    f.onStatus(fetched("http://fresh.example/new", T0 + 20 * DAY, true), sink);

    HostState slow = f.store("slow.example").host();
    PageState p = f.store("slow.example").page("http://slow.example/new");
    double learned = cfg.estimator.rate(cfg.estimator.observe(cfg.estimator.prior(), 20, false));
    // The prior mean is the others' mean learned rate, with the configured prior counted as one
    // page.
    assertThat(slow.learnedPages).isEqualTo(20);
    assertThat(f.engine().valuation().hostPriorRate(slow, p))
        .isCloseTo((20 * learned + 1.0) / 21, org.assertj.core.data.Offset.offset(1e-6));
    HostState fresh = f.store("fresh.example").host();
    PageState q = f.store("fresh.example").page("http://fresh.example/new");
    assertThat(f.engine().valuation().hostPriorRate(fresh, q)).isEqualTo(1.0);
    assertThat(f.engine().valuation().changeRate(slow, p))
        .isLessThan(0.2 * f.engine().valuation().changeRate(fresh, q));
    // A page's own evidence is not counted in its own prior.
    PageState old = f.store("slow.example").page("http://slow.example/p0");
    assertThat(f.engine().valuation().hostPriorRate(slow, old))
        .isCloseTo((19 * learned + 1.0) / 20, org.assertj.core.data.Offset.offset(1e-6));

    // Off, every page starts from estimator.prior-rate.
    LocalFrontier off =
        new LocalFrontier(
            config(Map.of("estimator.host-prior", false, "estimator.posterior", "gamma")));
    for (int i = 0; i < 20; i++) {
      off.onStatus(fetched("http://slow.example/p" + i, T0, true), sink);
      off.onStatus(fetched("http://slow.example/p" + i, T0 + 20 * DAY, false), sink);
    }
    off.onStatus(fetched("http://slow.example/new", T0 + 20 * DAY, true), sink);
    off.onStatus(fetched("http://fresh.example/new", T0 + 20 * DAY, true), sink);
    assertThat(
            off.engine()
                .valuation()
                .changeRate(
                    off.store("slow.example").host(),
                    off.store("slow.example").page("http://slow.example/new")))
        .isEqualTo(
            off.engine()
                .valuation()
                .changeRate(
                    off.store("fresh.example").host(),
                    off.store("fresh.example").page("http://fresh.example/new")));
  }

  @Test
  void aHostWhoseSumsAreUnknownPlansFromTheConfiguredPriorAndLeavesThemAlone() {
    LocalFrontier f = new LocalFrontier(config(Map.of()));
    Sink sink = new Sink();
    f.onStatus(fetched("http://a.example/p", T0, true), sink);
    HostState h = f.store("a.example").host();
    h.learnedPages = HostState.LEARNED_UNKNOWN; // as restored from a build before the host prior
    for (int i = 1; i <= 3; i++) {
      f.onStatus(fetched("http://a.example/p", T0 + i * DAY, false), sink);
    }
    PageState p = f.store("a.example").page("http://a.example/p");
    assertThat(h.learnedPages).isEqualTo(HostState.LEARNED_UNKNOWN);
    assertThat(h.learnedRateSum).isZero();
    assertThat(f.engine().valuation().hostPriorRate(h, p)).isEqualTo(1.0);
  }

  @Test
  void removedPagesTakeTheirEvidenceOutOfTheHostPrior() {
    LocalFrontier f = new LocalFrontier(config(Map.of("error.remove", true)));
    Sink sink = new Sink();
    for (int i = 0; i < 3; i++) {
      f.onStatus(fetched("http://a.example/p" + i, T0, true), sink);
      f.onStatus(fetched("http://a.example/p" + i, T0 + DAY, i == 0), sink);
    }
    f.onStatus(discovered("http://a.example/keep", T0), sink);
    assertThat(f.store("a.example").host().learnedPages).isEqualTo(3);
    for (int i = 0; i < 3; i++) {
      f.onStatus(event("http://a.example/p" + i, CrawlStatus.ERROR, T0 + 2 * DAY, null), sink);
    }
    HostState h = f.store("a.example").host();
    assertThat(h.learnedPages).isZero();
    assertThat(h.learnedRateSum).isZero();
    assertThat(
            f.engine()
                .valuation()
                .hostPriorRate(h, f.store("a.example").page("http://a.example/keep")))
        .isEqualTo(1.0);
  }

  @Test
  void aTrustworthyLastModifiedTellsTheEngineWhenThePageChanged() {
    EngineConfig cfg = config(Map.of("estimator.optimism", 0, "estimator.posterior", "gamma"));
    LocalFrontier f = new LocalFrontier(cfg);
    Sink sink = new Sink();
    f.onStatus(fetched("http://a.example/x", T0, true), sink);
    long second = T0 + 10 * DAY;
    String modified =
        java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
            java.time.Instant.ofEpochMilli(second - HOUR).atZone(java.time.ZoneOffset.UTC));
    f.onStatus(
        new io.recrawl.wire.StatusEvent(
            "http://a.example/x",
            "a.example",
            CrawlStatus.FETCHED,
            second,
            Map.of("protocol.last-modified", List.of(modified)),
            true,
            null,
            null),
        sink);
    PageState p = f.store("a.example").page("http://a.example/x");
    io.recrawl.estimate.ChangeStats prior = cfg.estimator.prior();
    double withTiming = cfg.estimator.rate(cfg.estimator.observeChangeAt(prior, 10, 1.0 / 24));
    double without = cfg.estimator.rate(cfg.estimator.observe(prior, 10, true));
    assertThat(f.engine().valuation().changeRate(f.store("a.example").host(), p))
        .isCloseTo(withTiming, org.assertj.core.data.Percentage.withPercentage(0.01));
    assertThat(withTiming)
        .isNotCloseTo(without, org.assertj.core.data.Percentage.withPercentage(5));
  }

  @Test
  void withoutTheExpectedValueAPageWithLittleEvidenceIsPlannedAsTheSlowerChangingPageItMayBe() {
    EngineConfig cfg = config(Map.of("estimator.expected-value", false));
    LocalFrontier f = new LocalFrontier(cfg);
    Sink sink = new Sink();
    f.onStatus(fetched("http://a.example/x", T0, true), sink);
    PageState p = f.store("a.example").page("http://a.example/x");
    double mean =
        cfg.estimator.rate(new io.recrawl.estimate.ChangeStats(p.changeShape, p.changeRate));
    double planned = f.engine().valuation().changeRate(f.store("a.example").host(), p);
    assertThat(planned).isLessThan(0.5 * mean); // one prior observation: well below the mean
    // Much evidence later, the planned rate meets the estimate.
    long t = T0;
    for (int i = 0; i < 150; i++) {
      t += DAY / 2;
      f.onStatus(fetched("http://a.example/x", t, i % 2 == 0), sink);
    }
    p = f.store("a.example").page("http://a.example/x");
    mean = cfg.estimator.rate(new io.recrawl.estimate.ChangeStats(p.changeShape, p.changeRate));
    assertThat(f.engine().valuation().changeRate(f.store("a.example").host(), p))
        .isCloseTo(mean, org.assertj.core.data.Percentage.withPercentage(20));
  }

  @Test
  void aKnownChangeRateInTheMetadataSetsTheEstimateAndLearningGoesOnFromThere() {
    LocalFrontier f = new LocalFrontier(config(Map.of()));
    Sink sink = new Sink();
    String url = "http://a.example/x";
    f.onStatus(
        new io.recrawl.wire.StatusEvent(
            url,
            "a.example",
            CrawlStatus.DISCOVERED,
            T0,
            Map.of(io.recrawl.wire.StatusEvent.CHANGE_RATE_KEY, List.of("0.25")),
            null,
            1.0,
            null),
        sink);
    PageState p = f.store("a.example").page(url);
    assertThat(f.engine().valuation().changeRate(f.store("a.example").host(), p))
        .isCloseTo(0.25, org.assertj.core.data.Percentage.withPercentage(0.5));
    // Fetches that state no rate learn from the known one, with the evidence capped at
    // estimator.max-shape: a day unchanged moves the planned rate by a few per cent, not more.
    f.onStatus(fetched(url, T0 + HOUR, true), sink);
    f.onStatus(fetched(url, T0 + DAY, false), sink);
    assertThat(
            f.engine()
                .valuation()
                .changeRate(f.store("a.example").host(), f.store("a.example").page(url)))
        .isCloseTo(0.25, org.assertj.core.data.Percentage.withPercentage(5));
  }

  private static StatusEvent withSignal(
      String url, CrawlStatus status, long time, Boolean changed, long lastmod) {
    String host = url.replaceFirst("^https?://", "").replaceFirst("/.*$", "");
    return new StatusEvent(
        url,
        host,
        status,
        time,
        Map.of(io.recrawl.wire.StatusEvent.SIGNAL_KEY, List.of(Long.toString(lastmod))),
        changed,
        null,
        null);
  }

  /**
   * Forty pages of one host fetched at T0 and at T0 + 10 days; every third changed. A liar's signal
   * says "changed now" at every fetch; a truthful one dates the change (or says unchanged).
   */
  private static void train(LocalFrontier f, String host, boolean liar, boolean signals) {
    Sink sink = new Sink();
    for (int i = 0; i < 40; i++) {
      String url = "http://" + host + "/p" + i;
      f.onStatus(fetched(url, T0, true), sink);
      boolean changed = i % 3 == 0;
      long second = T0 + 10 * DAY;
      long lastmod = liar ? second : changed ? T0 + 4 * DAY : T0 - DAY;
      f.onStatus(
          signals
              ? withSignal(url, CrawlStatus.FETCHED, second, changed, lastmod)
              : fetched(url, second, changed),
          sink);
    }
  }

  @Test
  void aLyingHostsSignalsAreIgnored() {
    EngineConfig cfg = config(Map.of());
    LocalFrontier lied = new LocalFrontier(cfg);
    LocalFrontier plain = new LocalFrontier(cfg);
    train(lied, "liar.example", true, true);
    train(plain, "liar.example", true, false);
    HostState h = lied.store("liar.example").host();
    assertThat(h.signalChangedMade).isEqualTo(40f);
    assertThat(h.signalChangedHeld).isEqualTo(14f); // only the pages that did change
    assertThat(lied.engine().changeLearning().signals().trusted(h, true)).isFalse();
    // Between fetches the liar says "changed" of every page: nothing moves.
    long later = T0 + 12 * DAY;
    Sink sink = new Sink();
    for (int i = 0; i < 40; i++) {
      String url = "http://liar.example/p" + i;
      lied.onStatus(withSignal(url, CrawlStatus.DISCOVERED, later, null, later), sink);
    }
    for (int i = 0; i < 40; i++) {
      String url = "http://liar.example/p" + i;
      PageState a = lied.store("liar.example").page(url);
      PageState b = plain.store("liar.example").page(url);
      assertThat(a.changeShape).isEqualTo(b.changeShape);
      assertThat(a.changeRate).isEqualTo(b.changeRate);
      assertThat(a.ageStart()).isEqualTo(b.ageStart());
      HostState ha = lied.store("liar.example").host();
      HostState hb = plain.store("liar.example").host();
      assertThat(lied.engine().valuation().crawlValue(ha, a, later + DAY))
          .isEqualTo(plain.engine().valuation().crawlValue(hb, b, later + DAY));
    }
  }

  @Test
  void aTruthfulHostsSignalsAreUsedOnceTrusted() {
    EngineConfig cfg = config(GAMMA);
    LocalFrontier f = new LocalFrontier(cfg);
    train(f, "true.example", false, true);
    HostState h = f.store("true.example").host();
    PageValuation v = f.engine().valuation();
    assertThat(h.signalChangedMade).isEqualTo(14f);
    assertThat(h.signalChangedHeld).isEqualTo(14f);
    assertThat(h.signalUnchangedMade).isEqualTo(26f);
    assertThat(f.engine().changeLearning().signals().trusted(h, true))
        .isFalse(); // 15/16 < 0.95: not yet
    assertThat(f.engine().changeLearning().signals().trusted(h, false))
        .isFalse(); // 27/28 < 0.99: not yet
    long second = T0 + 10 * DAY;
    Sink sink = new Sink();
    // Untrusted, neither kind of claim changes anything.
    String url = "http://true.example/p1";
    long age = f.store("true.example").page(url).ageStart();
    f.onStatus(withSignal(url, CrawlStatus.DISCOVERED, second + DAY, null, T0 - DAY), sink);
    assertThat(f.store("true.example").page(url).ageStart()).isEqualTo(age);
    String q = "http://true.example/p2";
    f.onStatus(withSignal(q, CrawlStatus.DISCOVERED, second + DAY, null, second + DAY / 2), sink);
    assertThat(f.store("true.example").page(q).ageFrom).isZero();
    // Once trusted, an "unchanged" signal two days after the fetch restarts the page's age there.
    for (int k = 0; k < 80; k++) {
      ChangeSignals.checkSignal(h, false, false);
    }
    assertThat(f.engine().changeLearning().signals().trusted(h, false)).isTrue(); // 107/108
    PageState p = f.store("true.example").page(url);
    double before = v.crawlValue(h, p, second + 5 * DAY);
    f.onStatus(withSignal(url, CrawlStatus.DISCOVERED, second + 2 * DAY, null, T0 - DAY), sink);
    p = f.store("true.example").page(url);
    assertThat(p.ageStart()).isEqualTo(second + 2 * DAY);
    assertThat(v.crawlValue(h, p, second + 5 * DAY)).isLessThan(before);
    // The next fetch learns "unchanged until the signal" and its verdict over the rest.
    var s0 = new io.recrawl.estimate.ChangeStats(p.changeShape, p.changeRate);
    f.onStatus(fetched(url, second + 4 * DAY, true), sink);
    p = f.store("true.example").page(url);
    var expected = cfg.estimator.observe(cfg.estimator.observe(s0, 2, false), 2, true);
    assertThat(p.changeShape).isEqualTo((float) expected.shape());
    assertThat(p.changeRate).isEqualTo((float) expected.rate());
    // A "changed" claim between fetches changes nothing, trusted or not.
    for (int k = 0; k < 10; k++) {
      ChangeSignals.checkSignal(h, true, true);
    }
    assertThat(f.engine().changeLearning().signals().trusted(h, true)).isTrue();
    f.onStatus(withSignal(q, CrawlStatus.DISCOVERED, second + DAY, null, second + DAY / 2), sink);
    assertThat(f.store("true.example").page(q).ageFrom).isZero();
    // With both kinds trusted, a fetch's signal dates the change: "a change then, none since".
    PageState pq = f.store("true.example").page(q);
    var q0 = new io.recrawl.estimate.ChangeStats(pq.changeShape, pq.changeRate);
    f.onStatus(withSignal(q, CrawlStatus.FETCHED, second + 6 * DAY, true, second + 5 * DAY), sink);
    pq = f.store("true.example").page(q);
    var dated = cfg.estimator.observeChangeAt(q0, 6, 1);
    assertThat(pq.changeShape).isEqualTo((float) dated.shape());
    assertThat(pq.changeRate).isEqualTo((float) dated.rate());
  }

  @Test
  void theGridPosteriorKeepsThePagesEvidenceAndPlansWithItsMoments() {
    EngineConfig cfg = config(Map.of());
    assertThat(cfg.gridPosterior).isTrue(); // the default
    LocalFrontier f = new LocalFrontier(cfg);
    Sink sink = new Sink();
    String url = "http://g.example/x";
    f.onStatus(fetched(url, T0, true), sink);
    f.onStatus(fetched(url, T0 + 20 * DAY, true), sink);
    f.onStatus(fetched(url, T0 + 25 * DAY, false), sink);
    PageState p = f.store("g.example").page(url);
    assertThat(p.evidenceChanged).isEqualTo(1f);
    assertThat(p.evidenceUnchanged).isEqualTo(5f);
    assertThat(p.evidenceLnGap).isEqualTo((float) Math.log(20));
    // A change seen across 20 days, then 5 quiet ones: the Gamma planned with has the posterior's
    // mean, finite, between the grid's ends, and a shape that says "little evidence".
    double mean = p.changeShape / (double) p.changeRate;
    assertThat(mean).isBetween(0.005, 1.0);
    assertThat(p.changeShape).isBetween(1f, 5f);
  }

  @Test
  void aPageLearnedBeforeTheGridKeepsItsEvidenceAtItsFirstGridFetch() {
    // Seen unchanged for 30 days under the Gamma (shape 1, rate 31): under the grid its next
    // verdict builds on 30 days of quiet, not on nothing.
    LocalFrontier gamma = new LocalFrontier(config(GAMMA));
    Sink sink = new Sink();
    String url = "http://old.example/x";
    gamma.onStatus(fetched(url, T0, true), sink);
    gamma.onStatus(fetched(url, T0 + 30 * DAY, false), sink);
    PageState learned = gamma.store("old.example").page(url);
    LocalFrontier grid = new LocalFrontier(config(Map.of()));
    grid.onStatus(fetched(url, T0 + 30 * DAY, true), sink); // a page of the same host, fetched
    PageState p = grid.store("old.example").page(url);
    p.changeShape = learned.changeShape; // as restored from the earlier state
    p.changeRate = learned.changeRate;
    grid.onStatus(fetched(url, T0 + 31 * DAY, false), sink);
    p = grid.store("old.example").page(url);
    assertThat(p.evidenceUnchanged).isEqualTo(31f); // 30 days carried over, 1 new
    assertThat(p.changeShape / (double) p.changeRate).isLessThan(0.1);
  }
}
