package io.recrawl.sim;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The web servers of the {@code push-back} scenario. Each host has a hidden capacity (crawls per
 * day): about {@link #BELOW_FRACTION} of hosts sit below their configured limit (between {@link
 * #BELOW_MIN} and {@link #BELOW_MAX} of it), the rest at or above it (between 1 and {@link
 * #ABOVE_MAX} times it). A server counts the requests it served in a sliding window; a request that
 * would take the window above its capacity is refused with 429, half of them with a Retry-After in
 * delta-seconds. During a maintenance window the server answers every request with 503 (half of the
 * windows send a Retry-After as an HTTP-date, the window's end). The response time of a served
 * request rises as the window's load approaches the capacity: {@code base / max(0.05, 1 -
 * load/capacity)}.
 *
 * <p>The capacities and the maintenance windows are drawn from the seed alone, so every run on the
 * same workload and seed meets the same servers; the per-request draws (Retry-After or not, its
 * value, response-time noise) come from a stream of their own, also seeded.
 */
public final class ServerModel {

  /** Share of hosts whose capacity is below their configured limit. */
  public static final double BELOW_FRACTION = 0.3;

  public static final double BELOW_MIN = 0.1;
  public static final double BELOW_MAX = 0.8;

  /** Hosts at or above their limit get between 1 and this many times it. */
  public static final double ABOVE_MAX = 3.0;

  /** The load window: an hour, but at least {@link #MIN_WINDOW_REQUESTS} requests at capacity. */
  static final double WINDOW_DAYS = 1.0 / 24;

  static final int MIN_WINDOW_REQUESTS = 8;

  /** At most this many requests in a window (the window shrinks below an hour for big servers). */
  static final int MAX_WINDOW_REQUESTS = 64;

  /** Share of hosts that get a maintenance window each day (at least one host a day). */
  public static final double MAINTENANCE_PER_DAY = 0.005;

  public static final double MAINTENANCE_MIN_DAYS = 1.0 / 24;
  public static final double MAINTENANCE_MAX_DAYS = 3.0 / 24;

  /** 429 Retry-After delta-seconds range. */
  public static final int RETRY_AFTER_MIN_S = 60;

  public static final int RETRY_AFTER_MAX_S = 600;

  /** Response time of an idle server, ms. */
  public static final double BASE_RESPONSE_MS = 200;

  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  /** What a server answered. */
  public enum Kind {
    SERVED,
    /** 429 Too Many Requests: above capacity. */
    TOO_MANY,
    /** 503 inside a maintenance window. */
    MAINTENANCE
  }

  /**
   * One answer. {@code retryAfter} is the header's text or null; {@code retryAfterEndMs} the
   * instant it names (epoch ms), or Long.MIN_VALUE when there is none.
   */
  public record Response(
      Kind kind, int httpStatus, String retryAfter, long retryAfterEndMs, long loadingTimeMs) {}

  private final double[] limit;
  private final double[] capacity;
  private final boolean[] below;

  /** Per host, the window length (days) and how many served requests it may hold. */
  private final double[] window;

  private final int[] windowRequests;

  /** Per host, a ring of the last windowRequests[h] served times; the host's ring at h * MAX. */
  private final double[] served;

  private final int[] ringHead;
  private final int[] ringSize;

  /** Maintenance windows per host: [start, end) days, and whether its 503s carry Retry-After. */
  private final double[][] maintStart;

  private final double[][] maintEnd;
  private final boolean[][] maintRetryAfter;
  private final int maintenanceWindows;
  private final SplittableRandom perRequest;

  /**
   * @param limit each host's configured limit, crawls/day (finite: infinite limits are replaced by
   *     the engine's default before)
   * @param days the run's length (maintenance windows are drawn for every day)
   */
  public ServerModel(double[] limit, double days, long seed) {
    int hosts = limit.length;
    this.limit = limit.clone();
    capacity = new double[hosts];
    below = new boolean[hosts];
    window = new double[hosts];
    windowRequests = new int[hosts];
    SplittableRandom rnd = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
    for (int h = 0; h < hosts; h++) {
      if (!(limit[h] > 0) || Double.isInfinite(limit[h])) {
        throw new IllegalArgumentException("host " + h + ": limit must be finite and > 0");
      }
      below[h] = rnd.nextDouble() < BELOW_FRACTION;
      double u = rnd.nextDouble();
      capacity[h] =
          limit[h] * (below[h] ? BELOW_MIN + (BELOW_MAX - BELOW_MIN) * u : 1 + (ABOVE_MAX - 1) * u);
      double c = capacity[h];
      int k = (int) Math.round(c * WINDOW_DAYS);
      k = Math.max(MIN_WINDOW_REQUESTS, Math.min(MAX_WINDOW_REQUESTS, k));
      windowRequests[h] = k;
      window[h] = k / c;
    }
    served = new double[hosts * MAX_WINDOW_REQUESTS];
    ringHead = new int[hosts];
    ringSize = new int[hosts];
    List<List<double[]>> perHost = new ArrayList<>();
    for (int h = 0; h < hosts; h++) {
      perHost.add(new ArrayList<>());
    }
    int perDay = Math.max(1, (int) Math.round(MAINTENANCE_PER_DAY * hosts));
    int count = 0;
    for (int d = 0; d < Math.ceil(days); d++) {
      for (int i = 0; i < perDay; i++) {
        int h = rnd.nextInt(hosts);
        double start = d + rnd.nextDouble();
        double len =
            MAINTENANCE_MIN_DAYS + (MAINTENANCE_MAX_DAYS - MAINTENANCE_MIN_DAYS) * rnd.nextDouble();
        boolean ra = rnd.nextBoolean();
        List<double[]> l = perHost.get(h);
        // A window that overlaps an earlier one of the same host is merged into it.
        if (!l.isEmpty() && l.get(l.size() - 1)[1] >= start) {
          double[] last = l.get(l.size() - 1);
          last[1] = Math.max(last[1], start + len);
        } else {
          l.add(new double[] {start, start + len, ra ? 1 : 0});
          count++;
        }
      }
    }
    maintenanceWindows = count;
    maintStart = new double[hosts][];
    maintEnd = new double[hosts][];
    maintRetryAfter = new boolean[hosts][];
    for (int h = 0; h < hosts; h++) {
      List<double[]> l = perHost.get(h);
      l.sort((a, b) -> Double.compare(a[0], b[0]));
      maintStart[h] = new double[l.size()];
      maintEnd[h] = new double[l.size()];
      maintRetryAfter[h] = new boolean[l.size()];
      for (int i = 0; i < l.size(); i++) {
        maintStart[h][i] = l.get(i)[0];
        maintEnd[h][i] = l.get(i)[1];
        maintRetryAfter[h][i] = l.get(i)[2] != 0;
      }
    }
    perRequest = new SplittableRandom(seed ^ 0xC2B2AE3D27D4EB4FL);
  }

  public int hosts() {
    return capacity.length;
  }

  /** The host's hidden capacity, crawls per day. */
  public double capacity(int h) {
    return capacity[h];
  }

  /** The host's configured limit the capacity was drawn against. */
  public double limit(int h) {
    return limit[h];
  }

  /** Whether the host's capacity is below its configured limit. */
  public boolean belowLimit(int h) {
    return below[h];
  }

  public int hostsBelowLimit() {
    int n = 0;
    for (boolean b : below) {
      n += b ? 1 : 0;
    }
    return n;
  }

  public int maintenanceWindows() {
    return maintenanceWindows;
  }

  /** Whether {@code t} (days) lies in one of the host's maintenance windows. */
  public boolean inMaintenance(int h, double t) {
    return maintenanceIndex(h, t) >= 0;
  }

  private int maintenanceIndex(int h, double t) {
    double[] s = maintStart[h];
    int i = Arrays.binarySearch(s, t);
    if (i < 0) {
      i = -i - 2; // the last window starting before t
    }
    return i >= 0 && t < maintEnd[h][i] ? i : -1;
  }

  /**
   * Served requests in the host's window ending at {@code t} (exclusive of the window's start),
   * before this request.
   */
  private int load(int h, double t) {
    int base = h * MAX_WINDOW_REQUESTS;
    int n = 0;
    // A small relative slack: a crawler spaced exactly at capacity must not be refused by rounding.
    double from = t - window[h] * (1 - 1e-9);
    for (int i = 0; i < ringSize[h]; i++) {
      if (served[base + i] > from) {
        n++;
      }
    }
    return n;
  }

  /**
   * A request to host {@code h} at {@code t} days ({@code epochMs} the same instant, for the
   * headers).
   */
  public Response request(int h, double t, long epochMs) {
    int mi = maintenanceIndex(h, t);
    if (mi >= 0) {
      if (maintRetryAfter[h][mi]) {
        long endMs = epochMs + (long) Math.ceil((maintEnd[h][mi] - t) * Simulator.DAY_MS);
        // HTTP-dates have whole seconds: the next whole second at or after the window's end.
        long endS = Math.floorDiv(endMs + 999, 1000);
        return new Response(
            Kind.MAINTENANCE, 503, HTTP_DATE.format(Instant.ofEpochSecond(endS)), endS * 1000, 0);
      }
      return new Response(Kind.MAINTENANCE, 503, null, Long.MIN_VALUE, 0);
    }
    int n = load(h, t);
    int k = windowRequests[h];
    if (n + 1 > k) {
      if (perRequest.nextBoolean()) {
        int s = RETRY_AFTER_MIN_S + perRequest.nextInt(RETRY_AFTER_MAX_S - RETRY_AFTER_MIN_S + 1);
        return new Response(Kind.TOO_MANY, 429, Integer.toString(s), epochMs + s * 1000L, 0);
      }
      return new Response(Kind.TOO_MANY, 429, null, Long.MIN_VALUE, 0);
    }
    double frac = (n + 1) / (double) k;
    double noise = Math.exp(0.1 * gaussian());
    long ms = Math.round(BASE_RESPONSE_MS / Math.max(0.05, 1 - frac) * noise);
    int base = h * MAX_WINDOW_REQUESTS;
    if (ringSize[h] < k) {
      served[base + ringSize[h]++] = t;
    } else {
      served[base + ringHead[h]] = t;
      ringHead[h] = (ringHead[h] + 1) % k;
    }
    return new Response(Kind.SERVED, 200, null, Long.MIN_VALUE, ms);
  }

  private double gaussian() {
    double u = 1 - perRequest.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * perRequest.nextDouble());
  }
}
