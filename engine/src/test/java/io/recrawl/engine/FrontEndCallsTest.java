package io.recrawl.engine;

import static io.recrawl.engine.EngineTestSupport.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.engine.local.LocalFrontier;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a front end (the URL Frontier service) asks of the engine: client dates, removal, blocks.
 */
class FrontEndCallsTest {

  /** One fetch a minute at most. */
  private static LocalFrontier frontier() {
    return frontier(24 * 60);
  }

  private static LocalFrontier frontier(double maxRate) {
    LocalFrontier f = new LocalFrontier(EngineConfig.with(Map.of("host.max-rate", maxRate)));
    f.setGlobalLambda(0.01);
    return f;
  }

  private static StatusEvent fetchedFor(String url, long time, long refetchAt) {
    String host = url.replaceFirst("^https?://", "").replaceFirst("/.*$", "");
    return new StatusEvent(
        url,
        host,
        CrawlStatus.FETCHED,
        time,
        Map.of(StatusEvent.REFETCH_AT_KEY, List.of(Long.toString(refetchAt))),
        null,
        null,
        null);
  }

  @Test
  void aClientsDateSoFarAheadThatItsBucketWouldWrapIsPlannedAtTheBoundAndTakesNoOtherPagesSlot() {
    // A slot's store key holds its due bucket in 32 bits: with 100 ms buckets, a date 2^32
    // buckets (13.6 years) after another page's would have the same key.
    LocalFrontier f =
        new LocalFrontier(
            EngineConfig.with(Map.of("host.max-rate", 24 * 60, "due.bucket", "100 ms")));
    f.setGlobalLambda(0.01);
    Sink sink = new Sink();
    long wrap = (1L << 32) * 100;
    f.onStatus(fetchedFor("http://a.example/near", T0, T0 + HOUR), sink);
    f.onStatus(fetchedFor("http://a.example/far", T0, T0 + HOUR + wrap), sink);
    f.advanceTo(T0 + 2 * HOUR, sink);
    assertThat(sink.out).extracting(CrawlRequest::url).containsExactly("http://a.example/near");
    // Re-checks of pages that are not forced stay within timer.horizon, so it is held under the
    // bound at start-up.
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> EngineConfig.with(Map.of("due.bucket", "1 ms", "timer.horizon", "30 d")))
        .hasMessageContaining("timer.horizon");
  }

  @Test
  void aClientsDateIsKeptWhateverTheValueAndTheSoonerDateGoesFirst() {
    LocalFrontier f = frontier();
    Sink sink = new Sink();
    f.onStatus(fetchedFor("http://a.example/later", T0, T0 + HOUR), sink);
    f.onStatus(fetchedFor("http://a.example/sooner", T0, T0 + 30 * MIN), sink);
    f.onStatus(fetchedFor("http://a.example/past", T0, T0 - DAY), sink);
    f.advanceTo(T0 + 29 * MIN, sink);
    assertThat(sink.out).extracting(CrawlRequest::url).containsExactly("http://a.example/past");
    f.advanceTo(T0 + 2 * HOUR, sink);
    assertThat(sink.out) // and then again, as their leases run out without a status
        .extracting(CrawlRequest::url)
        .startsWith("http://a.example/past", "http://a.example/sooner", "http://a.example/later");
    assertThat(sink.out.get(1).time()).isBetween(T0 + 30 * MIN, T0 + 31 * MIN);
    assertThat(sink.out.get(2).time()).isBetween(T0 + HOUR, T0 + HOUR + MIN);
  }

  @Test
  void twoDatesInThePastGoSoonerFirst() {
    LocalFrontier f = frontier();
    Sink sink = new Sink();
    f.onStatus(fetchedFor("http://a.example/later", T0, T0), sink);
    f.onStatus(fetchedFor("http://a.example/sooner", T0, T0 - 10_000_000), sink);
    f.advanceTo(T0 + HOUR, sink);
    assertThat(sink.out)
        .extracting(CrawlRequest::url)
        .startsWith("http://a.example/sooner", "http://a.example/later");
  }

  @Test
  void aPageDatedInThePastWaitsForTheRestOfItsBatchSoThatTheSoonerGoesFirst() {
    LocalFrontier f = frontier();
    Sink sink = new Sink();
    f.onStatus(fetchedFor("http://a.example/later", T0, T0 - 2 * MIN), sink);
    f.onStatus(fetchedFor("http://a.example/sooner", T0 + 5, T0 - DAY), sink); // 5 ms later
    f.advanceTo(T0 + HOUR, sink);
    assertThat(sink.out)
        .extracting(CrawlRequest::url)
        .startsWith("http://a.example/sooner", "http://a.example/later");
  }

  @Test
  void clientDatesGoInTheirOrderWhateverTheCrawlValues() {
    LocalFrontier f = frontier(24);
    Sink sink = new Sink();
    StatusEvent later = fetchedFor("http://a.example/later", T0, T0 - MIN);
    // Ten times the weight: the higher crawl value, and the later date.
    f.onStatus(
        new StatusEvent(
            later.url(),
            later.host(),
            later.status(),
            later.time(),
            later.metadata(),
            null,
            10.0,
            null),
        sink);
    f.onStatus(fetchedFor("http://a.example/sooner", T0, T0 - HOUR), sink);
    f.advanceTo(T0 + 2 * HOUR, sink);
    assertThat(sink.out)
        .extracting(CrawlRequest::url)
        .startsWith("http://a.example/sooner", "http://a.example/later");
  }

  @Test
  void aRediscoveryKeepsTheClientsDateAndTheDateIsReturnedAsGiven() {
    LocalFrontier f = frontier();
    Sink sink = new Sink();
    f.onStatus(fetchedFor("http://a.example/p", T0, T0 + HOUR), sink);
    f.onStatus(discovered("http://a.example/p", T0 + MIN), sink);
    f.advanceTo(T0 + 50 * MIN, sink);
    assertThat(sink.out).isEmpty();
    assertThat(f.engine().dueAt(f.store("a.example"), "http://a.example/p", 0.01, T0 + 50 * MIN))
        .isEqualTo(T0 + HOUR);
  }

  @Test
  void aCrawlSwitchedFromTheClientsDatesToCrawlValuesAndBackFollowsTheModeOfEachStatus() {
    String p = "http://a.example/p";
    for (Integer code : java.util.Arrays.asList(200, 304, 500, null)) {
      CrawlStatus status =
          code != null && code == 500 ? CrawlStatus.FETCH_ERROR : CrawlStatus.FETCHED;
      // The page had a client's date a month on; its twin, on a frontier of its own, none. Then
      // both get the same status from a front end in the value mode, which sends no date.
      LocalFrontier dated = frontier();
      LocalFrontier twin = frontier();
      Sink sink = new Sink();
      dated.onStatus(fetchedFor(p, T0, T0 + 30 * DAY), sink);
      twin.onStatus(
          new StatusEvent(p, "a.example", CrawlStatus.FETCHED, T0, Map.of(), null, null, null),
          sink);
      for (LocalFrontier f : List.of(dated, twin)) {
        f.onStatus(
            new StatusEvent(p, "a.example", status, T0 + MIN, Map.of(), null, null, code), sink);
      }
      assertThat(dated.engine().dueAt(dated.store("a.example"), p, 0.01, T0 + MIN))
          .as("after a %s %s", status, code)
          .isNotEqualTo(T0 + 30 * DAY)
          .isEqualTo(twin.engine().dueAt(twin.store("a.example"), p, 0.01, T0 + MIN));
      // Back to the client's mode: its date plans the page again.
      dated.onStatus(fetchedFor(p, T0 + 2 * MIN, T0 + 2 * DAY), sink);
      assertThat(dated.engine().dueAt(dated.store("a.example"), p, 0.01, T0 + 2 * MIN))
          .isEqualTo(T0 + 2 * DAY);
    }
  }

  @Test
  void removedPagesNeverGoAndTheirHostLeavesWithTheLast() {
    LocalFrontier f = frontier(24);
    Sink sink = new Sink();
    for (int i = 0; i < 5; i++) {
      f.onStatus(discovered("http://a.example/" + i, T0), sink);
    }
    f.advanceTo(T0 + 2 * MIN, sink); // one goes at once: in flight
    assertThat(sink.out).hasSize(1);
    String inFlight = sink.out.get(0).url();
    assertThat(f.removePages("a.example", List.of(inFlight, "http://a.example/nope"), sink))
        .isEqualTo(1);
    assertThat(f.store("a.example").host().inFlight).isZero();
    assertThat(f.store("a.example").host().pages).isEqualTo(4);
    List<String> rest =
        List.of(0, 1, 2, 3, 4).stream()
            .map(i -> "http://a.example/" + i)
            .filter(u -> !u.equals(inFlight))
            .toList();
    assertThat(f.removePages("a.example", rest, sink)).isEqualTo(4);
    assertThat(f.store("a.example")).isNull();
    assertThat(f.hostCount()).isZero();
    f.advanceTo(T0 + DAY, sink);
    assertThat(sink.out).hasSize(1);
  }

  @Test
  void aBlockHoldsTheHostUntilItsTimeAndCannotShortenAServersBlock() {
    LocalFrontier f = frontier(24 * 12);
    Sink sink = new Sink();
    f.onStatus(discovered("http://a.example/0", T0), sink);
    f.advanceTo(T0 + 2 * MIN, sink);
    f.onStatus(discovered("http://a.example/1", T0 + 2 * MIN), sink);
    f.blockUntil("a.example", T0 + HOUR, sink);
    f.advanceTo(T0 + HOUR - 1, sink);
    assertThat(sink.out).hasSize(1);
    f.blockUntil("a.example", 0, sink); // a time in the past lifts nothing
    f.advanceTo(T0 + HOUR - 1, sink);
    assertThat(sink.out).hasSize(1);
    f.advanceTo(T0 + HOUR + 2 * MIN, sink);
    assertThat(sink.out).extracting(CrawlRequest::url).contains("http://a.example/1");
    assertThat(sink.out.get(1).time()).isGreaterThanOrEqualTo(T0 + HOUR);
  }
}
