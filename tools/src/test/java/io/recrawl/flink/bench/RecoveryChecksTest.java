package io.recrawl.flink.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.CrawlRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Each check of {@link RecoveryChecks} fails on the output it is there to catch. */
class RecoveryChecksTest {

  private static final long MIN = 60_000L;
  private static final long HOUR = 60 * MIN;

  // 10 seeds on 2 hosts, then fetches with outlinks, a minute apart: about 6.7 hours of input.
  private final CrawlMix mix = new CrawlMix(10, 2, 1, MIN, CrawlMix.Shape.DEFAULT);
  private final long events = 400;
  private final RecoveryChecks checks =
      new RecoveryChecks(mix, events, new RecoveryChecks.Limits(HOUR, 86_400, HOUR, 30 * MIN, 0));

  private List<RecoveryChecks.StateUrl> everyUrl() {
    List<RecoveryChecks.StateUrl> state = new ArrayList<>();
    for (long u = 0; u < mix.urlsAfter(events); u++) {
      state.add(new RecoveryChecks.StateUrl(mix.url(u), false, lastFetch(u)));
    }
    return state;
  }

  /** The time of URL {@code u}'s last FETCHED in the input, or 0. */
  private long lastFetch(long u) {
    long last = 0;
    for (long i = 0; i < events; i++) {
      if (mix.urlOf(i) == u && mix.map(i).status() == io.recrawl.wire.CrawlStatus.FETCHED) {
        last = mix.map(i).time();
      }
    }
    return last;
  }

  @Test
  void aFetchTheStateDidNotApplyIsCaught() {
    List<RecoveryChecks.StateUrl> state = everyUrl();
    RecoveryChecks.StateUrl fetched =
        state.stream().filter(s -> s.lastFetch() > 0).findFirst().orElseThrow();
    state.set(
        state.indexOf(fetched),
        new RecoveryChecks.StateUrl(fetched.url(), false, fetched.lastFetch() - 1));
    assertThat(violations(List.of(), state))
        .containsEntry(
            "each URL's last fetch in the final state is its last FETCHED in the input", 1L)
        .containsEntry("every URL of the input is in the final state", 0L);
  }

  private CrawlRequest request(long u, long time) {
    return new CrawlRequest(
        mix.url(u), CrawlMix.host(mix.hostOf(u)), Map.of(), time, time, 1.0, 0.0, HOUR);
  }

  private Map<String, Long> violations(
      List<CrawlRequest> requests, List<RecoveryChecks.StateUrl> s) {
    return checks.check(requests, s).stream()
        .collect(Collectors.toMap(RecoveryChecks.Check::name, RecoveryChecks.Check::violations));
  }

  @Test
  void nothingRequestedMissesTheDueUrls() {
    Map<String, Long> v = violations(List.of(), everyUrl());
    assertThat(v.get("every URL of the input is in the final state")).isZero();
    assertThat(v.get("every URL discovered is requested (first crawl)")).isPositive();
    assertThat(v.get("every page fetched is requested again")).isPositive();
  }

  @Test
  void aUrlLostFromStateIsMissing() {
    List<RecoveryChecks.StateUrl> state = everyUrl();
    state.remove(3);
    assertThat(violations(List.of(), state).get("every URL of the input is in the final state"))
        .isEqualTo(1);
  }

  @Test
  void aSecondRequestWithinTheLeaseAndNoStatusBetweenIsCaught() {
    long u = neverFetched();
    long t = mix.time(0);
    Map<String, Long> v = violations(List.of(request(u, t), request(u, t + 10 * MIN)), everyUrl());
    assertThat(v.get("no URL in flight twice within its lease")).isEqualTo(1);
    Map<String, Long> afterLease =
        violations(List.of(request(u, t), request(u, t + HOUR)), everyUrl());
    assertThat(afterLease.get("no URL in flight twice within its lease")).isZero();
  }

  /** A URL the input never fetches: nothing but a lease can let it go out twice. */
  private long neverFetched() {
    java.util.Set<Long> fetched = new java.util.HashSet<>();
    for (long i = 0; i < events; i++) {
      if (mix.map(i).status() != io.recrawl.wire.CrawlStatus.DISCOVERED) {
        fetched.add(mix.urlOf(i));
      }
    }
    long u = 0;
    while (fetched.contains(u)) {
      u++;
    }
    return u;
  }

  @Test
  void requestsOfAHostCloserThanItsLimitAreCaught() {
    long t = mix.time(20);
    // URLs 0 and 2 are on host 0 (hosts round-robin): half a second apart at one a second.
    Map<String, Long> v = violations(List.of(request(0, t), request(2, t + 500)), everyUrl());
    assertThat(v.get("each host's requests at least 1/limit apart")).isEqualTo(1);
    assertThat(violations(List.of(request(0, t), request(2, t + 1000)), everyUrl()))
        .containsEntry("each host's requests at least 1/limit apart", 0L);
  }

  @Test
  void aUrlInFlightWithoutACommittedRequestIsCaught() {
    List<RecoveryChecks.StateUrl> state = everyUrl();
    state.set(0, new RecoveryChecks.StateUrl(mix.url(0), true, lastFetch(0)));
    assertThat(violations(List.of(), state))
        .containsEntry("every URL in flight in the final state was requested", 1L);
  }
}
