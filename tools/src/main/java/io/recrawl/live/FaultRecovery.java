package io.recrawl.live;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How a system came back from a fault, from the server's log alone.
 *
 * @param silenceSeconds from the fault to the next request the server received
 * @param recoverySeconds from the fault until the 10 s just past hold 90 % of the fetches 10 s held
 *     before the fault (averaged over the minute before it); NaN: never in the run
 * @param pagesDue pages recrawled twice before the fault (three fetches: the gap from a page's
 *     first crawl is no recrawl interval, since first crawls go heaviest first, not by value) whose
 *     next fetch at their own last interval fell after the fault and at least a minute before the
 *     end
 * @param p99LateSeconds of those, the 99th percentile of how late the next fetch came after that
 *     date (0 when on time); a page not fetched again counts as late until the end
 * @param maxLateSeconds the largest such lateness
 * @param notFetchedAgain those pages not fetched again before the end
 */
record FaultRecovery(
    double silenceSeconds,
    double recoverySeconds,
    int pagesDue,
    double p99LateSeconds,
    double maxLateSeconds,
    int notFetchedAgain) {

  private static final long WINDOW_MS = 10_000;

  static FaultRecovery measure(Path requestLog, double faultSeconds, double endSeconds)
      throws IOException {
    List<LiveJudge.Request> log = LiveJudge.read(requestLog);
    long f = Math.round(faultSeconds * 1000);
    long end = Math.round(endSeconds * 1000);
    List<Long> fetched = new ArrayList<>();
    Map<String, List<Long>> byPage = new HashMap<>();
    long firstAfter = Long.MAX_VALUE;
    for (LiveJudge.Request r : log) {
      if (r.t() >= f) {
        firstAfter = Math.min(firstAfter, r.t());
      }
      if ((r.status() == 200 || r.status() == 304) && !r.robots()) {
        fetched.add(r.t());
        byPage.computeIfAbsent(r.host() + r.path(), k -> new ArrayList<>()).add(r.t());
      }
    }
    long[] fetches = fetched.stream().mapToLong(Long::longValue).toArray(); // the log is sorted
    double before = count(fetches, f - 60_000, f) / 6.0;
    double recovery = Double.NaN;
    for (long t = f; t + WINDOW_MS <= end; t += 1_000) {
      if (count(fetches, t, t + WINDOW_MS) >= 0.9 * before) {
        recovery = (t + WINDOW_MS - f) / 1000.0;
        break;
      }
    }
    List<Double> late = new ArrayList<>();
    int notAgain = 0;
    for (List<Long> times : byPage.values()) {
      int k = 0;
      while (k < times.size() && times.get(k) < f) {
        k++;
      }
      if (k < 3) {
        continue;
      }
      long last = times.get(k - 1);
      long due = last + (last - times.get(k - 2));
      if (due < f || due > end - 60_000) {
        continue;
      }
      long next = k < times.size() ? times.get(k) : end;
      notAgain += k < times.size() ? 0 : 1;
      late.add(Math.max(0, next - due) / 1000.0);
    }
    double[] l = late.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return new FaultRecovery(
        firstAfter == Long.MAX_VALUE ? Double.NaN : (firstAfter - f) / 1000.0,
        recovery,
        l.length,
        l.length == 0 ? 0 : l[(int) Math.min(l.length - 1, Math.ceil(0.99 * l.length) - 1)],
        l.length == 0 ? 0 : Arrays.stream(l).max().orElse(0),
        notAgain);
  }

  /** Times in [from, to) of an ascending array. */
  private static int count(long[] sorted, long from, long to) {
    return firstAtOrAfter(sorted, to) - firstAtOrAfter(sorted, from);
  }

  private static int firstAtOrAfter(long[] sorted, long t) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
