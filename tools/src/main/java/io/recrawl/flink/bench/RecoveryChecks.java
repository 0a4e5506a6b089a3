package io.recrawl.flink.bench;

import io.recrawl.sim.PolitenessAuditor;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What must hold after a run with failures, checked against the input (a {@link CrawlMix}, replayed
 * here) rather than against the job's own view: every URL in the final state, every URL that came
 * due requested, no URL in flight twice unless its lease ran out, each host's pacing kept, and
 * every URL the final state has in flight requested in the committed output.
 *
 * <p>The input is open-loop (no crawler answers the requests), so "due" is taken only where the
 * documented rules make it certain without the engine's math: a URL never fetched is due when it is
 * discovered (its value is unbounded), and with λ_0 = 0 on hosts below their limit a page fetched
 * is due again after {@code revisit.min-interval}. Both must be requested within the run when they
 * fall due at least {@code grace} before its end.
 */
public final class RecoveryChecks {

  private static final long DAY_MS = 86_400_000L;

  /** One check's outcome: how many cases it looked at, how many failed, and the first failure. */
  public record Check(String name, long checked, long violations, String example) {
    public boolean passed() {
      return violations == 0;
    }
  }

  /** The engine settings the checks read, and how late "due within the run" may still be met. */
  public record Limits(
      long leaseMs, double hostMaxRatePerDay, long minIntervalMs, long graceMs, long skewMs) {}

  /** A URL of the final state: whether it is in flight, and its last fetch (0 for none). */
  public record StateUrl(String url, boolean inFlight, long lastFetch) {}

  private final CrawlMix mix;
  private final long events;
  private final Limits limits;

  /** Per URL number: when it was discovered, its non-DISCOVERED statuses' times and the last's. */
  private final long[] discovered;

  private final Map<Long, long[]> statusTimes = new HashMap<>();
  private final Map<Long, CrawlStatus> lastStatus = new HashMap<>();
  private final Map<Long, Long> lastFetched = new HashMap<>();

  /** Per host index, the time of its first 429, or Long.MAX_VALUE. */
  private final Map<Long, Long> first429 = new HashMap<>();

  private long skewSeen;
  private long earlyRevisits;
  private long mostEarlyMs;

  public RecoveryChecks(CrawlMix mix, long events, Limits limits) {
    this.mix = mix;
    this.events = events;
    this.limits = limits;
    int urls = Math.toIntExact(mix.urlsAfter(events));
    discovered = new long[urls];
    Arrays.fill(discovered, Long.MAX_VALUE);
    Map<Long, List<Long>> times = new HashMap<>();
    for (long i = 0; i < events; i++) {
      StatusEvent e = mix.map(i);
      long u = mix.urlOf(i);
      if (e.status() == CrawlStatus.DISCOVERED) {
        discovered[(int) u] = Math.min(discovered[(int) u], e.time());
      } else {
        times.computeIfAbsent(u, k -> new ArrayList<>()).add(e.time());
        lastStatus.put(u, e.status());
        if (e.status() == CrawlStatus.FETCHED) {
          lastFetched.put(u, e.time());
        }
        if (Integer.valueOf(429).equals(e.httpStatus())) {
          first429.merge(mix.hostOf(u), e.time(), Math::min);
        }
      }
    }
    times.forEach((u, l) -> statusTimes.put(u, l.stream().mapToLong(Long::longValue).toArray()));
  }

  /** The event time of the input's last event. */
  public long end() {
    return mix.time(events - 1);
  }

  /** Runs every check on the committed requests and the final state's URLs. */
  public List<Check> check(List<CrawlRequest> requests, List<StateUrl> state) {
    Map<Long, long[]> byUrl = requestTimes(requests);
    List<Check> out = new ArrayList<>();
    out.add(unknownUrls(requests));
    out.add(everyUrlInState(state));
    out.add(lastFetchInState(state));
    out.add(firstCrawlsRequested(byUrl));
    out.add(revisitsRequested(byUrl));
    out.add(inFlightOnce(byUrl));
    out.add(pacing(requests));
    out.add(inFlightRequested(byUrl, state));
    return out;
  }

  /** Whether URL {@code u}, due at {@code due}, must have been requested within the run. */
  /** The most a URL's first request came before its discovery, in event time, ms. */
  public long skewSeenMs() {
    return skewSeen;
  }

  private boolean mustGo(long u, long due) {
    long stall = first429.getOrDefault(mix.hostOf(u), Long.MAX_VALUE);
    return due + limits.graceMs <= Math.min(end(), stall);
  }

  /**
   * The committed requests of a run with failures against those of the same input without: with
   * exactly-once output and event time from the input, they must be the same, line for line.
   */
  public static Check sameRequests(List<String> withFailures, List<String> without) {
    Map<String, Integer> count = new HashMap<>();
    without.forEach(l -> count.merge(l, 1, Integer::sum));
    withFailures.forEach(l -> count.merge(l, -1, Integer::sum));
    long differ = 0;
    String example = null;
    for (Map.Entry<String, Integer> e : count.entrySet()) {
      if (e.getValue() != 0) {
        differ += Math.abs(e.getValue());
        example =
            example == null
                ? (e.getValue() > 0 ? "only without failures: " : "only with failures: ")
                    + e.getKey()
                : example;
      }
    }
    return new Check(
        "the committed requests are those of a run without failures",
        withFailures.size(),
        differ,
        example);
  }

  /** The URL number of a URL of the mix, or -1. */
  private long number(String url) {
    int slash = url.lastIndexOf('/');
    try {
      long u = Long.parseLong(url.substring(slash + 1));
      return u >= 0 && u < discovered.length && mix.url(u).equals(url) ? u : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private Map<Long, long[]> requestTimes(List<CrawlRequest> requests) {
    Map<Long, List<Long>> times = new HashMap<>();
    for (CrawlRequest r : requests) {
      long u = number(r.url());
      if (u >= 0) {
        times.computeIfAbsent(u, k -> new ArrayList<>()).add(r.time());
      }
    }
    Map<Long, long[]> out = new HashMap<>();
    times.forEach((u, l) -> out.put(u, l.stream().mapToLong(Long::longValue).sorted().toArray()));
    return out;
  }

  private Check unknownUrls(List<CrawlRequest> requests) {
    long bad = 0;
    String example = null;
    for (CrawlRequest r : requests) {
      if (number(r.url()) < 0) {
        bad++;
        example = example == null ? r.url() : example;
      }
    }
    return new Check("requests are for URLs of the input", requests.size(), bad, example);
  }

  private Check everyUrlInState(List<StateUrl> state) {
    Set<Long> seen = new HashSet<>();
    long extra = 0;
    String example = null;
    for (StateUrl s : state) {
      long u = number(s.url());
      if (u < 0 || !seen.add(u)) {
        extra++;
        example = example == null ? "unexpected or twice: " + s.url() : example;
      }
    }
    long missing = 0;
    for (long u = 0; u < discovered.length; u++) {
      if (!seen.contains(u)) {
        missing++;
        example = example == null ? "missing: " + mix.url(u) : example;
      }
    }
    return new Check(
        "every URL of the input is in the final state",
        discovered.length,
        missing + extra,
        example);
  }

  private Check lastFetchInState(List<StateUrl> state) {
    long bad = 0;
    String example = null;
    for (StateUrl s : state) {
      long u = number(s.url());
      long want = u < 0 ? 0 : lastFetched.getOrDefault(u, 0L);
      if (u >= 0 && s.lastFetch() != want) {
        bad++;
        example =
            example == null
                ? String.format(
                    "%s: last fetch %d in state, %d in the input", s.url(), s.lastFetch(), want)
                : example;
      }
    }
    return new Check(
        "each URL's last fetch in the final state is its last FETCHED in the input",
        state.size(),
        bad,
        example);
  }

  private Check firstCrawlsRequested(Map<Long, long[]> byUrl) {
    long checked = 0;
    long bad = 0;
    String example = null;
    for (long u = 0; u < discovered.length; u++) {
      long due = discovered[(int) u];
      long[] requested = byUrl.get(u);
      if (requested != null) {
        skewSeen = Math.max(skewSeen, due - requested[0]);
      }
      long[] fetched = statusTimes.get(u);
      // A URL the input fetched before the job could send it is no longer a first crawl.
      boolean fetchedEarly = fetched != null && fetched[0] <= due + limits.graceMs;
      if (!mustGo(u, due) || fetchedEarly) {
        continue;
      }
      checked++;
      if (!requestedAtOrAfter(byUrl.get(u), due - limits.skewMs)) {
        bad++;
        example = example == null ? mix.url(u) + " discovered at " + due : example;
      }
    }
    return new Check("every URL discovered is requested (first crawl)", checked, bad, example);
  }

  private Check revisitsRequested(Map<Long, long[]> byUrl) {
    long checked = 0;
    long bad = 0;
    String example = null;
    for (Map.Entry<Long, long[]> e : statusTimes.entrySet()) {
      long u = e.getKey();
      long[] t = e.getValue();
      long last = t[t.length - 1];
      if (lastStatus.get(u) != CrawlStatus.FETCHED || !mustGo(u, last + limits.minIntervalMs)) {
        continue;
      }
      checked++;
      long[] requested = byUrl.get(u);
      // Any request after the fetch is the revisit: a page may go a little before its interval
      // is up (counted in earlyRevisits), and is then in flight when the interval ends.
      if (!requestedAtOrAfter(requested, last + 1)) {
        bad++;
        example = example == null ? mix.url(u) + " fetched at " + last : example;
        continue;
      }
      long next = requested[requested.length - 1];
      for (long r : requested) {
        if (r > last) {
          next = r;
          break;
        }
      }
      long early = last + limits.minIntervalMs - next;
      if (early > 0) {
        earlyRevisits++;
        mostEarlyMs = Math.max(mostEarlyMs, early);
      }
    }
    return new Check("every page fetched is requested again", checked, bad, example);
  }

  /** Revisits requested before {@code revisit.min-interval} had passed since the fetch. */
  public long earlyRevisits() {
    return earlyRevisits;
  }

  /** The most any revisit came before {@code revisit.min-interval} had passed, ms. */
  public long mostEarlyMs() {
    return mostEarlyMs;
  }

  private static boolean requestedAtOrAfter(long[] times, long t) {
    return times != null && times[times.length - 1] >= t;
  }

  private Check inFlightOnce(Map<Long, long[]> byUrl) {
    long checked = 0;
    long bad = 0;
    String example = null;
    for (Map.Entry<Long, long[]> e : byUrl.entrySet()) {
      long[] r = e.getValue();
      long[] statuses = statusTimes.getOrDefault(e.getKey(), new long[0]);
      for (int k = 1; k < r.length; k++) {
        checked++;
        boolean answered = statusIn(statuses, r[k - 1], r[k] + limits.skewMs);
        if (!answered && r[k] - r[k - 1] < limits.leaseMs) {
          bad++;
          example =
              example == null
                  ? String.format(
                      "%s requested at %d and again %d ms later with no status between",
                      mix.url(e.getKey()), r[k - 1], r[k] - r[k - 1])
                  : example;
        }
      }
    }
    return new Check("no URL in flight twice within its lease", checked, bad, example);
  }

  /** Whether a status time lies in (from, to]. */
  private static boolean statusIn(long[] sorted, long from, long to) {
    int i = Arrays.binarySearch(sorted, from + 1);
    int at = i >= 0 ? i : -i - 1;
    // binarySearch finds any of equal keys: step back to the first at or after from + 1.
    while (at > 0 && sorted[at - 1] > from) {
      at--;
    }
    return at < sorted.length && sorted[at] <= to;
  }

  private Check pacing(List<CrawlRequest> requests) {
    List<CrawlRequest> sorted = new ArrayList<>(requests);
    sorted.sort(Comparator.comparingLong(CrawlRequest::time));
    Map<String, Integer> hostIndex = new HashMap<>();
    for (CrawlRequest r : sorted) {
      hostIndex.putIfAbsent(r.host(), hostIndex.size());
    }
    PolitenessAuditor auditor = new PolitenessAuditor(Math.max(1, hostIndex.size()));
    for (CrawlRequest r : sorted) {
      auditor.fetched(
          hostIndex.get(r.host()),
          r.time() / (double) DAY_MS,
          limits.hostMaxRatePerDay,
          Double.POSITIVE_INFINITY);
    }
    String example =
        auditor.hostViolations() == 0
            ? null
            : String.format(
                "a host requested at %.2f times its limit of %.0f a day",
                auditor.maxRateRatio(), limits.hostMaxRatePerDay);
    return new Check(
        "each host's requests at least 1/limit apart",
        sorted.size(),
        auditor.hostViolations(),
        example);
  }

  private Check inFlightRequested(Map<Long, long[]> byUrl, List<StateUrl> state) {
    long checked = 0;
    long bad = 0;
    String example = null;
    for (StateUrl s : state) {
      long u = number(s.url());
      if (!s.inFlight() || u < 0) {
        continue;
      }
      checked++;
      long[] statuses = statusTimes.get(u);
      long after = statuses == null ? discovered[(int) u] : statuses[statuses.length - 1];
      if (!requestedAtOrAfter(byUrl.get(u), after - limits.skewMs)) {
        bad++;
        example = example == null ? s.url() + " in flight with no committed request" : example;
      }
    }
    return new Check("every URL in flight in the final state was requested", checked, bad, example);
  }
}
