package io.recrawl.flink.scheduler;

import static io.recrawl.flink.scheduler.SchedulerHarness.DAY;
import static io.recrawl.flink.scheduler.SchedulerHarness.T0;
import static io.recrawl.flink.scheduler.SchedulerHarness.settings;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;

/**
 * The scheduler operator on RocksDB against random crawls and hostile servers, with snapshots and
 * restores at random points: discoveries, fetches, errors, 429s and 503s with and without
 * Retry-After, λ_0 changes and watermark jumps from a millisecond to days. Checked on the output:
 * no host faster than its limit, nothing inside a Retry-After block, no URL in flight twice, one
 * release per URL per watermark advance, and no keyed state or timer left once every page is gone.
 * Tries: {@code jqwik.tries.default} (src/test/resources/junit-platform.properties).
 */
class SchedulerPropertiesITCase {

  private static final List<String> HOSTS = List.of("a.example", "b.example");
  private static final double MAX_RATE = 1440; // one a minute
  private static final long MAX_RETRY_AFTER_MS = 6 * 3_600_000L;

  record Step(Kind kind, int host, int page, long jumpMs, int value) {}

  enum Kind {
    DISCOVER,
    FETCHED,
    FETCH_ERROR,
    TOO_MANY,
    TOO_MANY_RETRY_AFTER,
    UNAVAILABLE_RETRY_AFTER,
    LAMBDA,
    JUMP,
    SNAPSHOT_AND_RESTORE
  }

  @Provide
  Arbitrary<List<Step>> sequences() {
    Arbitrary<Step> step =
        Combinators.combine(
                Arbitraries.of(Kind.class),
                Arbitraries.integers().between(0, HOSTS.size() - 1),
                Arbitraries.integers().between(0, 3),
                Arbitraries.oneOf(
                    Arbitraries.longs().between(1, 1000),
                    Arbitraries.longs().between(1000, 3_600_000L),
                    Arbitraries.longs().between(3_600_000L, 2 * DAY)),
                Arbitraries.integers().between(0, 20_000))
            .as(Step::new);
    return step.list().ofMinSize(1).ofMaxSize(30);
  }

  @Property
  void theOperatorIsPoliteAcrossRestores(@ForAll("sequences") List<Step> steps) throws Exception {
    try (Run run = new Run()) {
      for (Step s : steps) {
        run.apply(s);
      }
      run.removeEverything();
    }
  }

  /** A step, and the store operation of its engine call at which the call fails (-1: none). */
  record FaultyStep(Step step, int failAt) {}

  @Provide
  Arbitrary<List<FaultyStep>> faultySequences() {
    // Fetches of the same few pages, time passing between them: a fetch after an earlier one is
    // what teaches the learned prior.
    Arbitrary<Kind> kind =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just(Kind.DISCOVER)),
            Tuple.of(5, Arbitraries.just(Kind.FETCHED)),
            Tuple.of(1, Arbitraries.of(Kind.FETCH_ERROR, Kind.TOO_MANY)),
            Tuple.of(1, Arbitraries.of(Kind.TOO_MANY_RETRY_AFTER, Kind.UNAVAILABLE_RETRY_AFTER)),
            Tuple.of(1, Arbitraries.just(Kind.LAMBDA)),
            Tuple.of(4, Arbitraries.just(Kind.JUMP)),
            Tuple.of(1, Arbitraries.just(Kind.SNAPSHOT_AND_RESTORE)));
    Arbitrary<Step> step =
        Combinators.combine(
                kind,
                Arbitraries.integers().between(0, HOSTS.size() - 1),
                Arbitraries.integers().between(0, 1),
                Arbitraries.oneOf(
                    Arbitraries.longs().between(1000, 3_600_000L),
                    Arbitraries.longs().between(3_600_000L, 2 * DAY)),
                Arbitraries.integers().between(0, 20_000))
            .as(Step::new);
    // Early in the call (the engine's first reads and writes) more often than late.
    Arbitrary<Integer> failAt =
        Arbitraries.frequencyOf(
            Tuple.of(2, Arbitraries.just(-1)),
            Tuple.of(2, Arbitraries.integers().between(0, 6)),
            Tuple.of(1, Arbitraries.integers().between(7, 30)));
    return Combinators.combine(step, failAt).as(FaultyStep::new).list().ofMinSize(1).ofMaxSize(30);
  }

  /**
   * A status event whose engine call fails half-way (a store operation throws) is a dead letter,
   * and leaves no trace: requests, the subtask's demand ledger and the learned prior are, after
   * every step, those of a twin run that never saw the event.
   */
  @Property
  void aFailedCallLeavesNoTrace(@ForAll("faultySequences") List<FaultyStep> steps)
      throws Exception {
    try (Twins twins = new Twins()) {
      for (FaultyStep s : steps) {
        twins.apply(s);
      }
    }
  }

  /** The same steps on two operators: one whose calls fail, one that never sees those calls. */
  private static final class Twins implements AutoCloseable {
    final Map<String, Object> config = settings("host.max-rate", MAX_RATE, "lease", "10 min");
    FailingFunction failing = new FailingFunction(config);
    SchedulerHarness a;
    SchedulerHarness b;
    long now = T0;
    final Map<String, CrawlRequest> inFlight = new LinkedHashMap<>();

    Twins() throws Exception {
      a = new SchedulerHarness(failing, null, true);
      b = new SchedulerHarness(config);
    }

    void apply(FaultyStep fs) throws Exception {
      Step step = fs.step();
      String host = HOSTS.get(step.host());
      switch (step.kind()) {
        case DISCOVER ->
            status(
                fs,
                new StatusEvent(
                    "https://" + host + "/p" + step.page(),
                    host,
                    CrawlStatus.DISCOVERED,
                    now,
                    Map.of(),
                    null,
                    null,
                    null));
        case FETCHED, FETCH_ERROR, TOO_MANY, TOO_MANY_RETRY_AFTER, UNAVAILABLE_RETRY_AFTER -> {
          // An answer to a request in flight, else a late one for a page of the host: a fetch
          // after an earlier one teaches the learned prior.
          String url =
              inFlight.values().stream()
                  .filter(x -> x.host().equals(host))
                  .map(CrawlRequest::url)
                  .findFirst()
                  .orElse("https://" + host + "/p" + step.page());
          CrawlStatus status =
              step.kind() == Kind.FETCHED ? CrawlStatus.FETCHED : CrawlStatus.FETCH_ERROR;
          Integer code =
              switch (step.kind()) {
                case FETCHED -> 200;
                case TOO_MANY, TOO_MANY_RETRY_AFTER -> 429;
                case UNAVAILABLE_RETRY_AFTER -> 503;
                default -> null;
              };
          Map<String, List<String>> md =
              step.kind() == Kind.TOO_MANY_RETRY_AFTER
                      || step.kind() == Kind.UNAVAILABLE_RETRY_AFTER
                  ? Map.of("protocol.Retry-After", List.of(Integer.toString(step.value() % 3600)))
                  : Map.of("signature", List.of("s" + step.value() % 3));
          status(
              fs, new StatusEvent(url, host, status, now, md, step.value() % 2 == 0, null, code));
        }
        case LAMBDA -> {
          ControlMessage m = ControlMessage.lambda(now, now, step.value() / 1000.0);
          a.control(m);
          b.control(m);
        }
        case JUMP -> {
          now += step.jumpMs();
          a.advance(now);
          b.advance(now);
        }
        case SNAPSHOT_AND_RESTORE -> {
          OperatorSubtaskState sa = a.snapshot();
          OperatorSubtaskState sb = b.snapshot();
          a.close();
          b.close();
          failing = new FailingFunction(config);
          a = new SchedulerHarness(failing, sa, true);
          b = new SchedulerHarness(config, sb);
        }
      }
      compare(step);
    }

    private void status(FaultyStep fs, StatusEvent e) throws Exception {
      failing.failAt = fs.failAt();
      failing.failed = false;
      a.status(e);
      failing.failAt = -1;
      if (!failing.failed) {
        b.status(e);
        inFlight.remove(e.url());
      }
    }

    private void compare(Step step) {
      List<CrawlRequest> ra = a.newRequests();
      List<CrawlRequest> rb = b.newRequests();
      assertThat(ra).as("requests after %s", step).isEqualTo(rb);
      for (CrawlRequest r : ra) {
        inFlight.put(r.url(), r);
      }
      assertThat(a.fn.ledger().snapshot())
          .as("demand ledger after %s", step)
          .containsExactly(b.fn.ledger().snapshot());
      assertThat(a.fn.learnedPriorMass())
          .as("learned prior after %s", step)
          .containsExactly(b.fn.learnedPriorMass());
    }

    @Override
    public void close() throws Exception {
      a.close();
      b.close();
    }
  }

  private static final class Run implements AutoCloseable {
    final Map<String, Object> config =
        settings(
            "host.max-rate",
            MAX_RATE,
            "lease",
            "10 min",
            "politeness.retry-after.max",
            "6 h",
            "error.remove",
            true);
    SchedulerHarness s;
    long now = T0;
    long epoch = 1;
    final Map<String, Long> lastRelease = new HashMap<>();
    final Map<String, Long> blockedUntil = new HashMap<>();
    final Map<String, CrawlRequest> inFlight = new LinkedHashMap<>();
    final Map<String, String> known = new LinkedHashMap<>();

    Run() throws Exception {
      s = new SchedulerHarness(config);
    }

    void apply(Step step) throws Exception {
      String host = HOSTS.get(step.host());
      switch (step.kind()) {
        case DISCOVER ->
            status(
                "https://" + host + "/p" + step.page(),
                host,
                CrawlStatus.DISCOVERED,
                null,
                Map.of());
        case FETCHED ->
            answer(host, CrawlStatus.FETCHED, 200, Map.of("signature", "s" + step.value()));
        case FETCH_ERROR -> answer(host, CrawlStatus.FETCH_ERROR, null, Map.of());
        case TOO_MANY -> pushBack(host, 429, null);
        case TOO_MANY_RETRY_AFTER -> pushBack(host, 429, step.value());
        case UNAVAILABLE_RETRY_AFTER -> pushBack(host, 503, step.value());
        case LAMBDA -> s.control(ControlMessage.lambda(now, now, step.value() / 1000.0));
        case JUMP -> {
          now += step.jumpMs();
          s.advance(now);
          List<CrawlRequest> out = collect();
          assertThat(out.stream().map(CrawlRequest::url).distinct().count())
              .as("a URL went out twice in one watermark advance")
              .isEqualTo(out.size());
        }
        case SNAPSHOT_AND_RESTORE -> {
          OperatorSubtaskState snapshot = s.snapshot();
          s.close();
          s = new SchedulerHarness(config, snapshot);
        }
      }
    }

    private void answer(String host, CrawlStatus status, Integer code, Map<String, String> md)
        throws Exception {
      for (CrawlRequest r : inFlight.values()) {
        if (r.host().equals(host)) {
          status(r.url(), host, status, code, md);
          return;
        }
      }
    }

    private void pushBack(String host, int code, Integer retryAfterSeconds) throws Exception {
      Map<String, String> md =
          retryAfterSeconds == null
              ? Map.of()
              : Map.of("protocol.Retry-After", Integer.toString(retryAfterSeconds));
      boolean sent = false;
      for (CrawlRequest r : inFlight.values()) {
        if (r.host().equals(host)) {
          status(r.url(), host, CrawlStatus.FETCH_ERROR, code, md);
          sent = true;
          break;
        }
      }
      if (sent && retryAfterSeconds != null) {
        long block = Math.min(retryAfterSeconds * 1000L, MAX_RETRY_AFTER_MS);
        blockedUntil.merge(host, now + block, Math::max);
      }
    }

    private void status(
        String url, String host, CrawlStatus status, Integer code, Map<String, String> md)
        throws Exception {
      Map<String, List<String>> metadata = new HashMap<>();
      md.forEach((k, v) -> metadata.put(k, List.of(v)));
      s.status(new StatusEvent(url, host, status, now, metadata, null, null, code));
      inFlight.remove(url);
      known.putIfAbsent(url, host);
      collect();
    }

    /** The requests out since the last look, each checked. */
    private List<CrawlRequest> collect() {
      List<CrawlRequest> out = s.newRequests();
      for (CrawlRequest r : out) {
        Long previous = lastRelease.put(r.host(), r.time());
        if (previous != null) {
          assertThat(r.time() - previous)
              .as("%s released %s faster than its limit", r.host(), r.url())
              .isGreaterThanOrEqualTo((long) Math.floor(DAY / MAX_RATE));
        }
        assertThat(r.time())
            .as("%s released %s inside a Retry-After block", r.host(), r.url())
            .isGreaterThanOrEqualTo(blockedUntil.getOrDefault(r.host(), Long.MIN_VALUE));
        CrawlRequest held = inFlight.get(r.url());
        assertThat(held == null || r.time() >= held.lease())
            .as("%s in flight twice", r.url())
            .isTrue();
        inFlight.put(r.url(), r);
      }
      return out;
    }

    /**
     * Every page ends as ERROR (error.remove), and a host without pages leaves once its politeness
     * evidence runs out (70 days covers the slowest): no keyed state, no timer is left.
     */
    void removeEverything() throws Exception {
      for (Map.Entry<String, String> e : known.entrySet()) {
        s.status(
            new StatusEvent(
                e.getKey(), e.getValue(), CrawlStatus.ERROR, now, Map.of(), null, null, null));
      }
      collect();
      s.advance(now + 70 * 86_400_000L);
      assertThat(collect()).as("released with no page left").isEmpty();
      // A snapshot flushes RocksDB's pending timer deletions, which a count before it still sees.
      s.snapshot();
      assertThat(s.keyedStateEntriesNow()).isZero();
      assertThat(s.timers()).isZero();
    }

    @Override
    public void close() throws Exception {
      s.close();
    }
  }
}
