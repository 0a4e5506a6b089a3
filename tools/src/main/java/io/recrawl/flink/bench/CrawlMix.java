package io.recrawl.flink.bench;

import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.apache.flink.connector.datagen.source.GeneratorFunction;

/**
 * A crawl's status stream as a pure function of the event's index: a seed frontier of {@code urls}
 * URLs DISCOVERED, then fetches, each of a known URL and, when it succeeded, followed by its
 * outlinks as DISCOVERED events, most of them already known. A share of the fetches are errors
 * (FETCH_ERROR 500) and 429s (FETCH_ERROR 429), which bring no outlinks.
 *
 * <p>The outcomes repeat with a period of {@link #PERIOD} fetches, shuffled once, so the shares are
 * exact over every period and event {@code i} is found without generating the ones before it (a
 * restored source resumes at any index, and the checks replay the stream). New URLs are numbered in
 * order of discovery; URL {@code u} belongs to host {@code (u / hostRun) mod hosts}, so with {@code
 * hostRun} above 1 a host's URLs are discovered in bursts (seed lists, a page's internal links).
 */
public final class CrawlMix implements GeneratorFunction<Long, StatusEvent> {

  private static final long serialVersionUID = 1L;

  /** Fetches in one period of outcomes. */
  static final int PERIOD = 1000;

  static final long T0 = 1_700_000_000_000L;

  private static final byte OK = 0;
  private static final byte ERROR = 1;
  private static final byte TOO_MANY = 2;

  private final long urls;
  private final long hosts;
  private final long hostRun;
  private final long spacing;
  private final int outlinks;
  private final int newPerFetch;
  private final byte[] outcome = new byte[PERIOD];

  /** Event offset of each fetch within its period, and the period's length in events. */
  private final long[] start = new long[PERIOD + 1];

  /** Successful fetches before each fetch of the period, and in a whole period. */
  private final long[] okBefore = new long[PERIOD + 1];

  /** The knobs of the mix: outlinks per successful fetch and the shares. */
  public record Shape(int outlinks, double knownShare, double errorShare, double tooManyShare) {

    /** 20 outlinks per fetch, 80 % of them already known, 5 % fetch errors, 2 % 429s. */
    public static final Shape DEFAULT = new Shape(20, 0.8, 0.05, 0.02);

    public Shape {
      if (outlinks < 0
          || knownShare < 0
          || knownShare > 1
          || errorShare < 0
          || tooManyShare < 0
          || errorShare + tooManyShare > 1) {
        throw new IllegalArgumentException(
            "need outlinks >= 0, known share in [0, 1], error and 429 shares >= 0 summing to at most 1");
      }
    }

    /** New URLs per successful fetch: the outlinks not known, rounded to whole links. */
    int newPerFetch() {
      return (int) Math.round(outlinks * (1 - knownShare));
    }
  }

  public CrawlMix(long urls, long hosts, long hostRun, long spacing, Shape shape) {
    if (urls < 1 || hosts < 1 || hostRun < 1 || spacing < 0) {
      throw new IllegalArgumentException("need urls, hosts, host run >= 1 and spacing >= 0");
    }
    this.urls = urls;
    this.hosts = hosts;
    this.hostRun = hostRun;
    this.spacing = spacing;
    this.outlinks = shape.outlinks();
    this.newPerFetch = shape.newPerFetch();
    int errors = (int) Math.round(shape.errorShare() * PERIOD);
    int tooMany = (int) Math.round(shape.tooManyShare() * PERIOD);
    for (int p = 0; p < PERIOD; p++) {
      outcome[p] = p < errors ? ERROR : p < errors + tooMany ? TOO_MANY : OK;
    }
    Random shuffle = new Random(1); // the same order in every run
    for (int p = PERIOD - 1; p > 0; p--) {
      int q = shuffle.nextInt(p + 1);
      byte t = outcome[p];
      outcome[p] = outcome[q];
      outcome[q] = t;
    }
    for (int p = 0; p < PERIOD; p++) {
      boolean ok = outcome[p] == OK;
      start[p + 1] = start[p] + 1 + (ok ? outlinks : 0);
      okBefore[p + 1] = okBefore[p] + (ok ? 1 : 0);
    }
  }

  /** Event time of event {@code i}. */
  public long time(long i) {
    return T0 + i * spacing;
  }

  public static String host(long hostIndex) {
    return "h" + hostIndex + ".example";
  }

  /** The host index of URL {@code u}. */
  public long hostOf(long u) {
    return (u / hostRun) % hosts;
  }

  public String url(long u) {
    return "https://" + host(hostOf(u)) + "/page/" + u;
  }

  /** Where event {@code i} falls: fetch number, its outcome, events into its group, URLs known. */
  private record Position(long fetch, byte outcome, long slot, long known) {}

  private Position position(long i) {
    long k = i - urls;
    long period = k / start[PERIOD];
    long r = k % start[PERIOD];
    int p = Arrays.binarySearch(start, 0, PERIOD, r);
    if (p < 0) {
      p = -p - 2; // the last fetch starting before r
    }
    long fetch = period * PERIOD + p;
    long ok = period * okBefore[PERIOD] + okBefore[p];
    return new Position(fetch, outcome[p], r - start[p], urls + ok * newPerFetch);
  }

  /** URL number of event {@code i}'s status. */
  public long urlOf(long i) {
    if (i < urls) {
      return i;
    }
    Position at = position(i);
    if (at.slot == 0) {
      return Math.floorMod(mix(at.fetch), at.known);
    }
    long link = at.slot - 1;
    return link < newPerFetch
        ? at.known + link
        : Math.floorMod(mix(at.fetch * 31 + link), at.known);
  }

  @Override
  public StatusEvent map(Long index) {
    long i = index;
    long u = urlOf(i);
    String host = host(hostOf(u));
    String url = url(u);
    Position at = i < urls ? null : position(i);
    if (at == null || at.slot > 0) {
      return new StatusEvent(
          url, host, CrawlStatus.DISCOVERED, time(i), Map.of(), null, null, null);
    }
    if (at.outcome == OK) {
      boolean changed = Long.hashCode(i * 0x9E3779B97F4A7C15L) % 3 == 0;
      return new StatusEvent(url, host, CrawlStatus.FETCHED, time(i), Map.of(), changed, null, 200);
    }
    int code = at.outcome == ERROR ? 500 : 429;
    return new StatusEvent(url, host, CrawlStatus.FETCH_ERROR, time(i), Map.of(), null, null, code);
  }

  /** Average events per fetch: the fetch's status and, when it succeeded, its outlinks. */
  public double eventsPerFetch() {
    return start[PERIOD] / (double) PERIOD;
  }

  /** How many URLs the first {@code events} events name. */
  public long urlsAfter(long events) {
    if (events <= urls) {
      return events;
    }
    Position next = position(events);
    long linksOut = next.outcome == OK ? Math.max(0, next.slot - 1) : 0;
    return next.known + Math.min(linksOut, newPerFetch);
  }

  /** How many fetches (FETCHED or FETCH_ERROR) the first {@code events} events hold. */
  public long fetchesIn(long events) {
    if (events <= urls) {
      return 0;
    }
    Position next = position(events);
    return next.fetch + (next.slot > 0 ? 1 : 0);
  }

  /** A fixed scramble of a number (SplitMix64's finaliser), non-negative. */
  private static long mix(long x) {
    long z = x * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return (z ^ (z >>> 31)) & Long.MAX_VALUE;
  }
}
