package io.recrawl.live;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Freshness and politeness from the server's log and the web's change times alone. A page is fresh
 * at time t when the version its client holds is still its version at t: the version of its last
 * 200, which a later 304 confirms but never advances; a page never fetched is stale. Politeness is
 * what the server saw: the gaps between requests to one host against its limit, and requests inside
 * a Retry-After the host had sent.
 */
public final class LiveJudge {

  /** Buckets of the freshness series over [0, end]. */
  static final int BUCKETS = 60;

  private LiveJudge() {}

  /** One request line of the log. */
  record Request(long t, String host, String path, int status, int version, long retryAfterS) {
    boolean robots() {
      return path.equals("/robots.txt");
    }

    Request crediting(int heldVersion) {
      return new Request(t, host, path, status, heldVersion, retryAfterS);
    }
  }

  public static LiveFigures judge(
      Path groundTruthDir, Path requestLog, String system, double warmupSeconds, double endSeconds)
      throws IOException {
    if (!(endSeconds > warmupSeconds) || warmupSeconds < 0) {
      throw new IllegalArgumentException("need 0 <= warm-up < end");
    }
    GroundTruth web = GroundTruth.read(groundTruthDir);
    List<Request> requests = read(requestLog);
    long from = Math.round(warmupSeconds * 1000);
    long to = Math.round(endSeconds * 1000);

    Map<String, List<Request>> fetchesByPage = new HashMap<>();
    long fetches = 0;
    long pushBack = 0;
    long notModified = 0;
    Map<String, Long> lastAt = new HashMap<>();
    Map<String, Long> blockedUntil = new HashMap<>();
    long violations = 0;
    long underDelay = 0;
    long inRetryAfter = 0;
    double minGapOverLimit = Double.NaN;
    Map<String, Integer> held = new HashMap<>();
    for (Request r : requests) {
      if ((r.status == 200 || r.status == 304) && r.version >= 0) {
        String page = GroundTruth.key(r.host, r.path);
        if (r.status == 200) {
          held.put(page, r.version);
        }
        // A 304 confirms the copy the client holds, which may be older than the server's version
        // when the client's If-Modified-Since is a date of its own making.
        fetchesByPage
            .computeIfAbsent(page, k -> new ArrayList<>())
            .add(r.status == 200 ? r : r.crediting(held.getOrDefault(page, -1)));
        if (r.t >= from && r.t < to) {
          fetches++;
        }
      }
      pushBack += r.status == 429 || r.status == 503 ? 1 : 0;
      notModified += r.status == 304 ? 1 : 0;
      GroundTruth.Host host = web.hosts.get(r.host);
      if (host == null || r.robots()) {
        continue;
      }
      Long until = blockedUntil.get(r.host);
      if (until != null && r.t < until) {
        inRetryAfter++;
      }
      if (r.retryAfterS > 0) {
        blockedUntil.merge(r.host, r.t + r.retryAfterS * 1000, Math::max);
      }
      Long last = lastAt.put(r.host, r.t);
      if (last != null) {
        long gap = r.t - last;
        double ratio = (double) gap / host.limitMillis();
        minGapOverLimit = Double.isNaN(minGapOverLimit) ? ratio : Math.min(minGapOverLimit, ratio);
        if (gap < host.limitMillis()) {
          violations++;
          underDelay += host.crawlDelaySeconds() > 0 ? 1 : 0;
        }
      }
    }

    double[] mid = new double[BUCKETS];
    double[] series = new double[BUCKETS];
    double bucket = (double) to / BUCKETS;
    double fresh = 0;
    Set<String> heaviest = heaviest(web);
    double heavyWeight = 0;
    double heavyFresh = 0;
    for (Map.Entry<String, GroundTruth.Page> e : web.pages.entrySet()) {
      GroundTruth.Page page = e.getValue();
      boolean heavy = heaviest.contains(e.getKey());
      heavyWeight += heavy ? page.weight() : 0;
      double freshBefore = fresh;
      List<Request> got = fetchesByPage.getOrDefault(e.getKey(), List.of());
      for (int k = 0; k < got.size(); k++) {
        Request f = got.get(k);
        long next = k + 1 < got.size() ? got.get(k + 1).t : Long.MAX_VALUE;
        long start = f.t;
        long end = f.version < 0 ? start : Math.min(Math.min(next, page.end(f.version)), to);
        fresh += page.weight() * overlap(start, end, from, to);
        for (int b = (int) Math.max(0, start / bucket); b < BUCKETS && b * bucket < end; b++) {
          series[b] += page.weight() * overlap(start, end, b * bucket, (b + 1) * bucket);
        }
      }
      heavyFresh += heavy ? fresh - freshBefore : 0;
    }
    for (int b = 0; b < BUCKETS; b++) {
      mid[b] = (b + 0.5) * bucket / 1000;
      series[b] /= web.totalWeight * bucket;
    }
    return new LiveFigures(
        system,
        fresh / (web.totalWeight * (to - from)),
        (fresh - heavyFresh) / ((web.totalWeight - heavyWeight) * (to - from)),
        requests.size(),
        fetches,
        violations,
        minGapOverLimit,
        inRetryAfter,
        underDelay,
        pushBack,
        notModified,
        mid,
        series);
  }

  /** The heaviest 1 % of pages, at least one, fewer than all. */
  static Set<String> heaviest(GroundTruth web) {
    int n = Math.min(web.pages.size() - 1, Math.max(1, (int) Math.ceil(web.pages.size() / 100.0)));
    return web.pages.entrySet().stream()
        .sorted(
            Comparator.comparingDouble(
                    (Map.Entry<String, GroundTruth.Page> e) -> -e.getValue().weight())
                .thenComparing(Map.Entry::getKey))
        .limit(Math.max(0, n))
        .map(Map.Entry::getKey)
        .collect(Collectors.toSet());
  }

  private static double overlap(double a, double b, double from, double to) {
    return Math.max(0, Math.min(b, to) - Math.max(a, from));
  }

  static List<Request> read(Path log) throws IOException {
    List<Request> requests = new ArrayList<>();
    for (String[] f : GroundTruth.rows(log)) {
      requests.add(
          new Request(
              Long.parseLong(f[0]),
              f[1],
              f[2],
              Integer.parseInt(f[3]),
              Integer.parseInt(f[4]),
              f[5].isEmpty() ? 0 : Long.parseLong(f[5])));
    }
    // Lines are written as answers go out; a slow answer may follow a later arrival.
    requests.sort(Comparator.comparingLong(Request::t));
    return requests;
  }
}
