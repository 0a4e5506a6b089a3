package io.recrawl.engine;

import static io.recrawl.engine.EngineTestSupport.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.engine.local.LocalFrontier;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The limits on what state can hold: pages per host ({@code host.max-pages}), ERROR pages ({@code
 * error.purge-after}), hosts without pages (kept only while their politeness evidence holds) and
 * the host-rate table ({@code host-rates.max}).
 */
class BoundedGrowthTest {

  private static final String HOST = "a.example";

  /** Collects refusals and removals. */
  static final class Refusals implements Consumer<EngineOutcome> {
    final List<String> refused = new ArrayList<>();
    int removed;

    @Override
    public void accept(EngineOutcome o) {
      if (o.refusal() != null) {
        refused.add(o.refusal() + ": " + o.refusalDetail());
      }
      removed += o.pagesRemoved();
    }
  }

  private static String url(int i) {
    return "http://a.example/p" + i;
  }

  private static StatusEvent answer(String url, CrawlStatus status, long time, Integer code) {
    return answer(url, status, time, code, Map.of());
  }

  private static StatusEvent answer(
      String url, CrawlStatus status, long time, Integer code, Map<String, String> metadata) {
    Map<String, List<String>> md = new HashMap<>();
    metadata.forEach((k, v) -> md.put(k, List.of(v)));
    return new StatusEvent(url, HOST, status, time, md, null, null, code);
  }

  private static LocalFrontier frontier(
      Map<String, Object> config, Consumer<EngineOutcome> listener) {
    LocalFrontier f = new LocalFrontier(EngineConfig.with(config)).observe(listener);
    f.setGlobalLambda(0.01);
    return f;
  }

  @Test
  void aFullHostRefusesNewPagesAndKeepsTheOnesItHas() {
    Refusals seen = new Refusals();
    Sink sink = new Sink();
    LocalFrontier f = frontier(Map.of("host.max-pages", 3), seen);
    for (int i = 0; i < 5; i++) {
      f.onStatus(discovered(url(i), T0), sink);
    }
    assertThat(f.store(HOST).host().pages).isEqualTo(3);
    assertThat(f.store(HOST).page(url(3))).isNull();
    assertThat(seen.refused)
        .hasSize(2)
        .allSatisfy(r -> assertThat(r).startsWith("host_full: ").contains("host.max-pages = 3"));
    // A known page is not a new one: its rediscovery and its fetch are taken as always.
    f.onStatus(discovered(url(0), T0 + MIN), sink);
    f.onStatus(fetched(url(1), T0 + MIN, true), sink);
    assertThat(seen.refused).hasSize(2);
  }

  @Test
  void aRefusedPageStillCarriesItsHostsPushBack() {
    Refusals seen = new Refusals();
    Sink sink = new Sink();
    LocalFrontier f = frontier(Map.of("host.max-pages", 2, "host.max-rate", 1440), seen);
    f.onStatus(discovered(url(0), T0), sink);
    f.onStatus(discovered(url(1), T0), sink);
    f.advanceTo(T0 + HOUR, sink);
    long at = T0 + HOUR;
    // A URL the crawler found by itself, answered with a Retry-After of two hours.
    f.onStatus(
        answer(url(9), CrawlStatus.FETCH_ERROR, at, 429, Map.of(RetryAfter.KEY, "7200")), sink);
    assertThat(seen.refused).hasSize(1);
    assertThat(f.store(HOST).host().blockedUntil).isEqualTo(at + 2 * HOUR);
  }

  @Test
  void anErrorPageLeavesStateAfterErrorPurgeAfter() {
    Refusals seen = new Refusals();
    Sink sink = new Sink();
    LocalFrontier f = frontier(Map.of("error.purge-after", "30 d"), seen);
    f.onStatus(discovered(url(0), T0), sink);
    f.onStatus(discovered(url(1), T0), sink);
    f.advanceTo(T0 + HOUR, sink);
    f.onStatus(answer(url(0), CrawlStatus.ERROR, T0 + HOUR, 404), sink);
    f.advanceTo(T0 + HOUR + 29 * DAY, sink);
    assertThat(f.store(HOST).page(url(0))).isNotNull();
    f.advanceTo(T0 + HOUR + 30 * DAY + HOUR, sink);
    assertThat(f.store(HOST).page(url(0))).isNull();
    assertThat(seen.removed).isEqualTo(1);
    assertThat(f.store(HOST).host().pages).isEqualTo(1);
    // Nothing of it went out meanwhile.
    assertThat(sink.out).extracting(CrawlRequest::url).containsOnlyOnce(url(0));
  }

  @Test
  void failedRetriesDoNotRestartThePurgeClockButASuccessStopsIt() {
    Refusals seen = new Refusals();
    Sink sink = new Sink();
    Map<String, Object> cfg = Map.of("error.retry-interval", "7 d", "error.purge-after", "30 d");
    LocalFrontier f = frontier(cfg, seen);
    f.onStatus(discovered(url(0), T0), sink);
    f.onStatus(discovered(url(1), T0), sink);
    f.advanceTo(T0 + MIN, sink);
    long errorAt = T0 + MIN;
    f.onStatus(answer(url(0), CrawlStatus.ERROR, errorAt, 404), sink);
    f.onStatus(answer(url(1), CrawlStatus.ERROR, errorAt, 404), sink);
    long last = errorAt;
    for (int retry = 1; retry <= 4; retry++) {
      long due = last + 7 * DAY;
      f.advanceTo(due + 5 * MIN, sink);
      last = due + 6 * MIN; // answered within the lease
      f.onStatus(answer(url(0), CrawlStatus.ERROR, last, 404), sink);
      if (retry == 1) {
        f.onStatus(fetched(url(1), last, true), sink); // the other page comes back
      }
    }
    assertThat(sink.out.stream().filter(r -> r.url().equals(url(0)))).hasSize(5); // 1 + 4 retries
    f.advanceTo(errorAt + 30 * DAY + HOUR, sink);
    assertThat(f.store(HOST).page(url(0))).isNull();
    assertThat(f.store(HOST).page(url(1))).isNotNull();
    assertThat(f.store(HOST).page(url(1)).errorSince).isZero();
  }

  @Test
  void aHostWithoutPagesKeepsItsBlockUntilItEnds() {
    Refusals seen = new Refusals();
    Sink sink = new Sink();
    LocalFrontier f =
        frontier(Map.of("error.remove", true, "host.max-rate", 1440, "fetch-error.max", 1), seen);
    f.onStatus(discovered(url(0), T0), sink);
    f.advanceTo(T0 + MIN, sink);
    long at = T0 + MIN;
    f.onStatus(
        answer(url(0), CrawlStatus.FETCH_ERROR, at, 503, Map.of(RetryAfter.KEY, "21600")), sink);
    // The page is then lost for good (a 404, removed), and with it the host's last page.
    f.onStatus(answer(url(0), CrawlStatus.ERROR, at + 1, 404), sink);
    assertThat(seen.removed).isEqualTo(1);
    // A page found during the block must wait for its end: the host was not forgotten.
    f.onStatus(discovered(url(1), at + HOUR), sink);
    f.advanceTo(at + 7 * HOUR, sink);
    List<CrawlRequest> second = sink.out.stream().filter(r -> r.url().equals(url(1))).toList();
    assertThat(second).hasSize(1);
    assertThat(second.get(0).time()).isGreaterThanOrEqualTo(at + 6 * HOUR);
  }

  @Test
  void aHostWithoutPagesLeavesStateOnceItsEvidenceNoLongerHolds() {
    Sink sink = new Sink();
    LocalFrontier f = frontier(Map.of("error.remove", true, "fetch-error.max", 1), o -> {});
    f.onStatus(discovered(url(0), T0), sink);
    f.advanceTo(T0 + MIN, sink);
    long at = T0 + MIN;
    f.onStatus(
        answer(url(0), CrawlStatus.FETCH_ERROR, at, 503, Map.of(RetryAfter.KEY, "3600")), sink);
    f.onStatus(answer(url(0), CrawlStatus.ERROR, at + 1, 404), sink);
    HostState kept = f.store(HOST).host();
    assertThat(kept).isNotNull();
    assertThat(kept.pages).isZero();
    // Held until the push-back is forgiven by quiet (politeness.backoff.forgive-quiet, 1 d).
    f.advanceTo(at + DAY - MIN, sink);
    assertThat(f.store(HOST).host()).isNotNull();
    f.advanceTo(at + DAY + MIN, sink);
    assertThat(f.store(HOST)).isNull();
    assertThat(f.hostCount()).isZero();
    assertThat(f.timerCount()).isZero();
  }

  @Test
  void aLearnedCapacityIsKeptUntilTheStepUpRuleWouldHaveRestoredIt() {
    EngineConfig cfg = EngineConfig.with(Map.of("politeness.capacity.step-up", 0.01));
    HostPoliteness politeness = new HostPoliteness(cfg, new HostThreshold(cfg));
    HostState h = new HostState();
    h.capacityRate = cfg.defaultMaxRate / 2;
    h.capacityStepAt = T0;
    long until = politeness.heldUntil(h, T0);
    // ln 2 / ln 1.01 = 69.7: seventy hourly steps.
    assertThat(until).isEqualTo(T0 + 70 * HOUR);
    h.capacityRate = 0;
    assertThat(politeness.heldUntil(h, T0)).isLessThanOrEqualTo(T0);
  }

  @Test
  void theHostRateTableRefusesOneHostMoreThanItsLimit() {
    Refusals seen = new Refusals();
    Sink sink = new Sink();
    LocalFrontier f = frontier(Map.of("host-rates.max", 2), seen);
    f.setHostRate("a.example", 100, sink);
    f.setHostRate("b.example", 100, sink);
    f.setHostRate("a.example", 200, sink); // a change of a kept one is not one more
    assertThat(seen.refused).isEmpty();
    f.setHostRate("c.example", 100, sink);
    assertThat(seen.refused).singleElement().asString().startsWith("rate_table_full: ");
    f.setHostRate("b.example", 0, sink); // a removal makes room
    f.setHostRate("c.example", 100, sink);
    assertThat(seen.refused).hasSize(1);
  }
}
