package io.recrawl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.engine.local.LocalFrontier;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * The engine against random crawls and hostile servers: discoveries, fetches, errors, 429s and 503s
 * with and without Retry-After, rate overrides (absurd ones too), λ_0 changes and time jumps from a
 * millisecond to days, some of them in one step as a watermark jumps after downtime; statuses
 * delivered again (a record re-sent) and push-backs from a crawler whose clock runs behind. Every
 * sequence is checked on the engine's output: pacing within the limit in force, nothing inside a
 * block, no URL in flight twice, no host with more requests in flight than it may have, every live
 * URL released again, and no state left when the pages go. The tries come from {@code
 * jqwik.tries.default} (src/test/resources/junit-platform.properties); a long run: {@code mvn
 * verify -pl scheduler-plugin -Dtest=none -Dit.test=PolitenessPropertiesITCase
 * -Djqwik.tries.default=1000000}. An ITCase (Failsafe, after package) because its 10,000 tries take
 * longer than the unit tests of {@code mvn test} may.
 */
class PolitenessPropertiesITCase {

  private static final long T0 = 1_700_000_000_000L;
  private static final long DAY = EngineConfig.DAY_MS;
  private static final List<String> HOSTS = List.of("a.example", "b.example", "c.example");
  private static final double MAX_RATE = 2880; // one every 30 s
  private static final Map<String, Object> CONFIG =
      Map.of(
          "host.max-rate", MAX_RATE,
          "host.min-rate", 24, // an hour apart at worst: every page fits in the drain below
          "lease", "10 min",
          "politeness.retry-after.max", "6 h",
          "fetch-error.backoff", "5 min",
          "revisit.max-interval", "2 d",
          "error.remove", true);

  /** One step of a sequence; {@code url} and {@code host} index into small fixed sets. */
  record Step(Kind kind, int host, int page, long jumpMs, int value) {}

  enum Kind {
    DISCOVER,
    FETCHED_CHANGED,
    FETCHED_UNCHANGED,
    FETCH_ERROR,
    TOO_MANY,
    TOO_MANY_RETRY_AFTER,
    UNAVAILABLE,
    UNAVAILABLE_RETRY_AFTER,
    HOST_RATE,
    GLOBAL_LAMBDA,
    JUMP,
    JUMP_IN_ONE_STEP,
    /** A status of the host sent before, delivered again as it was. */
    REDELIVER,
    /** A 429 or 503 for the oldest request in flight, stamped {@code jumpMs} before now. */
    LATE_PUSH_BACK
  }

  @Provide
  Arbitrary<List<Step>> sequences() {
    Arbitrary<Step> step =
        Combinators.combine(
                Arbitraries.of(Kind.class),
                Arbitraries.integers().between(0, HOSTS.size() - 1),
                Arbitraries.integers().between(0, 5),
                Arbitraries.oneOf(
                    Arbitraries.longs().between(1, 1000),
                    Arbitraries.longs().between(1000, 3_600_000L),
                    Arbitraries.longs().between(3_600_000L, 3 * DAY)),
                Arbitraries.integers().between(-5, 100_000))
            .as(Step::new);
    return step.list().ofMinSize(1).ofMaxSize(60);
  }

  @Property
  void politenessHoldsOnTheOutput(@ForAll("sequences") @Size(max = 60) List<Step> steps) {
    Run run = new Run();
    for (Step s : steps) {
      run.apply(s);
    }
    run.drain();
    run.removeEverything();
  }

  /** A frontier, a crawler that answers in flight requests, and the checks on what went out. */
  private static final class Run implements Consumer<EngineOutcome> {
    final EngineConfig cfg = EngineConfig.with(CONFIG);
    final LocalFrontier f = new LocalFrontier(cfg).observe(this);
    final List<CrawlRequest> out = new ArrayList<>();
    long now = T0;

    // What the test tracks on its own, from what it sent and what the engine released.
    final Map<String, Long> lastRelease = new HashMap<>();
    final Map<String, Long> blockedUntil = new HashMap<>();
    final Map<String, Double> override = new HashMap<>();
    final Map<String, CrawlRequest> inFlight = new LinkedHashMap<>();
    final Map<String, String> known = new LinkedHashMap<>(); // url -> host
    final List<StatusEvent> sent = new ArrayList<>();

    Run() {
      f.setGlobalLambda(0.01);
    }

    void apply(Step s) {
      String host = HOSTS.get(s.host());
      String url = "http://" + host + "/p" + s.page();
      switch (s.kind()) {
        case DISCOVER -> status(url, host, CrawlStatus.DISCOVERED, null, Map.of());
        case FETCHED_CHANGED, FETCHED_UNCHANGED, FETCH_ERROR -> answer(s, host);
        case TOO_MANY, UNAVAILABLE -> pushBack(s, host, null, now);
        case TOO_MANY_RETRY_AFTER, UNAVAILABLE_RETRY_AFTER ->
            pushBack(s, host, Integer.toString(Math.abs(s.value())), now);
        case LATE_PUSH_BACK ->
            pushBack(
                s,
                host,
                s.value() % 3 == 0 ? Integer.toString(Math.abs(s.value())) : null,
                now - s.jumpMs());
        case REDELIVER -> redeliver(s, host);
        case HOST_RATE -> {
          // Anything, absurd values included: the engine holds it within its bounds.
          double rate = s.value() <= 0 ? 0 : s.value() == 1 ? 1e-12 : s.value() * 10.0;
          f.setHostRate(host, rate, this::released);
          if (rate > 0) {
            override.put(host, rate);
          } else {
            override.remove(host);
          }
        }
        case GLOBAL_LAMBDA -> f.setGlobalLambda(Math.max(0, s.value()) / 1000.0);
        case JUMP -> {
          now += s.jumpMs();
          f.advanceTo(now, this::released);
        }
        case JUMP_IN_ONE_STEP -> {
          long from = now;
          now += s.jumpMs();
          int before = out.size();
          f.advanceInOneStep(now, this::released);
          // Within one advance no answer is read: a URL goes out at most once.
          List<String> urls = new ArrayList<>();
          for (CrawlRequest r : out.subList(before, out.size())) {
            assertThat(urls).as("sent twice in one advance from %d", from).doesNotContain(r.url());
            urls.add(r.url());
          }
        }
      }
    }

    /**
     * The crawler answers the oldest in-flight request of the host, if any, with the step's kind.
     */
    private void answer(Step s, String host) {
      String url = oldestInFlight(host);
      if (url == null) {
        return;
      }
      CrawlStatus status =
          s.kind() == Kind.FETCH_ERROR ? CrawlStatus.FETCH_ERROR : CrawlStatus.FETCHED;
      Map<String, String> md = new HashMap<>();
      if (s.kind() == Kind.FETCHED_CHANGED) {
        md.put("signature", "sig" + s.value());
      }
      if (s.value() % 7 == 0) {
        md.put("fetch.loadingTime", Integer.toString(Math.abs(s.value())));
      }
      status(url, host, status, s.kind() == Kind.FETCH_ERROR ? null : 200, md);
    }

    /** A 429 or 503 for the oldest request in flight, stamped {@code time} by the crawler. */
    private void pushBack(Step s, String host, String retryAfter, long time) {
      String url = oldestInFlight(host);
      if (url == null) {
        return;
      }
      boolean tooMany =
          s.kind() == Kind.TOO_MANY
              || s.kind() == Kind.TOO_MANY_RETRY_AFTER
              || (s.kind() == Kind.LATE_PUSH_BACK && s.value() % 2 == 0);
      Map<String, String> md = new HashMap<>();
      if (retryAfter != null) {
        md.put("protocol.Retry-After", retryAfter);
      }
      status(url, host, CrawlStatus.FETCH_ERROR, tooMany ? 429 : 503, md, time);
    }

    /**
     * A status of the host sent before, delivered again: the crawler still holds what it holds. A
     * push-back among them blocks the host again, from the job's clock.
     */
    private void redeliver(Step s, String host) {
      List<StatusEvent> ofHost = sent.stream().filter(e -> e.host().equals(host)).toList();
      if (ofHost.isEmpty()) {
        return;
      }
      StatusEvent e = ofHost.get(Math.abs(s.value()) % ofHost.size());
      f.onStatus(e, this::released);
      known.putIfAbsent(e.url(), host);
      noteBlock(e);
    }

    /**
     * A push-back blocks its host, from the job's clock at the latest, at least for its Retry-After
     * (up to the cap) or the shortest back-off.
     */
    private void noteBlock(StatusEvent e) {
      Integer code = e.statusCode();
      if (code == null || (code != 429 && code != 503)) {
        return;
      }
      String retryAfter = e.firstIgnoreCase(RetryAfter.KEY);
      long block =
          retryAfter != null
              ? Math.min(Long.parseLong(retryAfter) * 1000, cfg.maxRetryAfterMs)
              : (long) (cfg.backoffMs * (1 - cfg.backoffJitter));
      blockedUntil.merge(e.host(), Math.max(e.time(), now) + block, Math::max);
    }

    private String oldestInFlight(String host) {
      for (Map.Entry<String, CrawlRequest> e : inFlight.entrySet()) {
        if (e.getValue().host().equals(host)) {
          return e.getKey();
        }
      }
      return null;
    }

    private void status(
        String url, String host, CrawlStatus status, Integer code, Map<String, String> md) {
      status(url, host, status, code, md, now);
    }

    private void status(
        String url,
        String host,
        CrawlStatus status,
        Integer code,
        Map<String, String> md,
        long time) {
      Map<String, List<String>> metadata = new HashMap<>();
      md.forEach((k, v) -> metadata.put(k, List.of(v)));
      StatusEvent e = new StatusEvent(url, host, status, time, metadata, null, null, code);
      f.onStatus(e, this::released);
      inFlight.remove(url);
      known.putIfAbsent(url, host);
      sent.add(e);
      noteBlock(e);
    }

    void released(CrawlRequest r) {
      out.add(r);
    }

    @Override
    public void accept(EngineOutcome o) {
      for (int i = 0; i < o.releases().size(); i++) {
        check(o.releases().get(i), o.hostMaxRate(i));
      }
    }

    private void check(CrawlRequest r, double hostMaxRate) {
      String host = r.host();
      // Never faster than the limit the operator configured, however the host's rate moved.
      double configured = Math.min(override.getOrDefault(host, MAX_RATE), cfg.hostRateCeiling);
      double allowed = Math.max(cfg.minHostRate, Math.min(configured, hostMaxRate));
      Long previous = lastRelease.get(host);
      if (previous != null) {
        assertThat(r.time() - previous)
            .as("%s released %s too soon after the last (rate %s)", host, r.url(), allowed)
            .isGreaterThanOrEqualTo((long) Math.floor(DAY / allowed));
      }
      lastRelease.put(host, r.time());
      assertThat(r.time())
          .as("%s released %s inside a block", host, r.url())
          .isGreaterThanOrEqualTo(blockedUntil.getOrDefault(host, Long.MIN_VALUE));
      CrawlRequest held = inFlight.get(r.url());
      assertThat(held == null || r.time() >= held.lease())
          .as("%s in flight twice (lease until %s)", r.url(), held == null ? 0 : held.lease())
          .isTrue();
      inFlight.put(r.url(), r);
      // What the crawler holds of the host, unanswered and within its lease, stays within what the
      // host may have in flight: one at a time once it pushed back.
      long holding =
          inFlight.values().stream()
              .filter(q -> q.host().equals(host) && q.lease() > r.time())
              .count();
      HostState h = f.store(host) == null ? null : f.store(host).host();
      if (h != null) {
        assertThat(holding)
            .as("%s has %d requests in flight (capacity %s)", host, holding, h.capacityRate)
            .isLessThanOrEqualTo(f.engine().thresholds().maxInFlight(h, r.time()));
      }
    }

    /**
     * The crawler answers everything, every six hours, for 25 days: every live URL goes out again
     * (within revisit.max-interval, whatever its value).
     */
    void drain() {
      f.setGlobalLambda(0.01);
      int before = out.size();
      long end = now + 3 * DAY;
      while (now < end) {
        now += 10 * 60_000L;
        f.advanceTo(now, this::released);
        for (CrawlRequest r : List.copyOf(inFlight.values())) {
          status(r.url(), r.host(), CrawlStatus.FETCHED, 200, Map.of());
        }
      }
      List<String> released =
          out.subList(before, out.size()).stream().map(CrawlRequest::url).toList();
      for (Map.Entry<String, String> e : known.entrySet()) {
        InMemoryHostStore store = f.store(e.getValue());
        PageState p = store == null ? null : store.page(e.getKey()); // null: removed as ERROR
        if (p != null && p.status != CrawlStatus.ERROR.ordinal()) {
          assertThat(released).as("live URL never released again").contains(e.getKey());
        }
      }
    }

    /**
     * Every page goes (error.remove): a host keeps its record while its politeness evidence holds
     * (at most the recovery of a learned capacity from host.min-rate to an override at
     * host.rate-ceiling, 67 days by default), and then no host, no timer is left.
     */
    void removeEverything() {
      for (Map.Entry<String, String> e : known.entrySet()) {
        f.onStatus(
            new StatusEvent(
                e.getKey(), e.getValue(), CrawlStatus.ERROR, now, Map.of(), null, null, null),
            this::released);
      }
      for (String host : HOSTS) {
        InMemoryHostStore store = f.store(host);
        assertThat(store == null ? 0 : store.host().pages).isZero();
      }
      int before = out.size();
      f.advanceTo(now + 70 * DAY, this::released);
      assertThat(out).hasSize(before);
      assertThat(f.hostCount()).isZero();
      assertThat(f.timerCount()).isZero();
    }
  }
}
