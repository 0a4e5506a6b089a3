package io.recrawl.live;

import io.recrawl.sim.workload.ChangeHistory;
import io.recrawl.sim.workload.Workload;
import io.recrawl.sim.workload.WorkloadException;
import io.recrawl.sim.workload.WorkloadGenerator;
import io.recrawl.sim.workload.WorkloadLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The changing web of the live benchmark: the pages of a simulator workload on hosts named {@code
 * h<i>.web.test}, each page's change times drawn up front (a Poisson process at its rate per
 * simulated day, time compressed to {@link LiveWebOptions#secondsPerDay}), and each host's
 * behaviour (limits, validators, slowness, push-back spells). Everything is drawn from the seed, so
 * every system of a run, and every run with the same options, meets the same web.
 */
public final class LiveWeb {

  public static final String DOMAIN = ".web.test";

  private final LiveWebOptions options;
  private final Workload workload;
  private final LiveHost[] hosts;
  private final int[] local; // page -> its index on its host, the k of /p<k>
  private final int[][] pagesOf; // host -> its pages by local index
  private final long[][] changes; // page -> change times, ms since the start, ascending

  private LiveWeb(
      LiveWebOptions options,
      Workload workload,
      LiveHost[] hosts,
      int[] local,
      int[][] pagesOf,
      long[][] changes) {
    this.options = options;
    this.workload = workload;
    this.hosts = hosts;
    this.local = local;
    this.pagesOf = pagesOf;
    this.changes = changes;
  }

  public static LiveWeb generate(LiveWebOptions o) {
    o.validate();
    o.workload.constrainedFraction = o.crawlDelayShare;
    Workload drawn =
        o.history == null ? WorkloadGenerator.generate(o.workload) : history(o.history);
    // Its own stream, so that the pages are the generator's draw for the same options.
    SplittableRandom rnd = new SplittableRandom(o.workload.seed * 0x9E3779B97F4A7C15L + 29);
    int n = drawn.pages();
    int hostCount = drawn.hosts();
    LiveHost[] hosts = new LiveHost[hostCount];
    String[] names = new String[hostCount];
    double[] maxRate = new double[hostCount];
    boolean[] validators = pick(rnd, hostCount, o.validatorShare);
    boolean[] slow = pick(rnd, hostCount, o.slowShare);
    boolean[] pushy = pick(rnd, hostCount, o.pushyShare);
    long durationMs = Math.round(o.durationSeconds * 1000);
    for (int h = 0; h < hostCount; h++) {
      names[h] = "h" + h + DOMAIN;
      int delay = 0;
      if (drawn.constrained(h)) {
        delay = (int) Math.ceil(o.secondsPerDay / drawn.hostMaxRate(h));
        delay = Math.max(2, Math.min(30, delay));
      }
      long limitMs = Math.max(1_000L, delay * 1_000L);
      int slowMs = slow[h] ? o.slowMillis : 0;
      // A polite fetcher's delay runs from the end of the previous answer (StormCrawler's
      // fetcher.server.delay and Crawl-delay alike): a slow host takes a request every
      // limit + answer time, and that is the capacity the optimum and the simulator get.
      maxRate[h] = o.secondsPerDay * 1_000.0 / (limitMs + slowMs);
      List<LiveHost.Spell> spells =
          pushy[h] ? spells(rnd, durationMs, o) : List.<LiveHost.Spell>of();
      hosts[h] = new LiveHost(names[h], limitMs, delay, validators[h], slowMs, spells);
    }
    String[] urls = new String[n];
    int[] local = new int[n];
    int[] sizes = drawn.hostSizes();
    int[][] pagesOf = new int[hostCount][];
    int[] filled = new int[hostCount];
    for (int h = 0; h < hostCount; h++) {
      pagesOf[h] = new int[sizes[h]];
    }
    long[][] changes = new long[n][];
    double perMs = 1.0 / (o.secondsPerDay * 1_000.0);
    for (int p = 0; p < n; p++) {
      int h = drawn.hostOf(p);
      local[p] = filled[h]++;
      pagesOf[h][local[p]] = p;
      urls[p] = "http://" + names[h] + "/p" + local[p];
      ChangeHistory observed = drawn.history();
      changes[p] =
          observed != null && observed.has(p)
              ? scaled(observed.times(p), o.secondsPerDay, durationMs)
              : poisson(rnd, drawn.changeRate(p) * perMs, durationMs);
    }
    Workload live =
        new Workload(
            urls,
            drawn.hostIndex(),
            drawn.weights(),
            drawn.changeRates(),
            names,
            maxRate,
            drawn.history());
    return new LiveWeb(o, live, hosts, local, pagesOf, changes);
  }

  private static boolean[] pick(SplittableRandom rnd, int hosts, double share) {
    boolean[] chosen = new boolean[hosts];
    int count = (int) Math.round(share * hosts);
    int[] order = new int[hosts];
    for (int h = 0; h < hosts; h++) {
      order[h] = h;
    }
    for (int k = 0; k < count; k++) {
      int j = k + rnd.nextInt(hosts - k);
      int t = order[k];
      order[k] = order[j];
      order[j] = t;
      chosen[order[k]] = true;
    }
    return chosen;
  }

  /** Spells of push-back, one in each of spellsPerHost equal stretches of the run. */
  private static List<LiveHost.Spell> spells(
      SplittableRandom rnd, long durationMs, LiveWebOptions o) {
    List<LiveHost.Spell> spells = new ArrayList<>();
    if (o.spellsPerHost == 0) {
      return spells;
    }
    long stretch = durationMs / o.spellsPerHost;
    int status = rnd.nextBoolean() ? 429 : 503;
    for (int s = 0; s < o.spellsPerHost; s++) {
      long length =
          Math.round(
              1_000
                  * (o.spellMinSeconds
                      + rnd.nextDouble() * (o.spellMaxSeconds - o.spellMinSeconds)));
      length = Math.min(length, stretch);
      long start = s * stretch + (long) (rnd.nextDouble() * (stretch - length));
      spells.add(new LiveHost.Spell(start, start + length, status));
      status = status == 429 ? 503 : 429;
    }
    return spells;
  }

  /** A real history's workload; its URLs give way to the web's own names. */
  private static Workload history(java.nio.file.Path dir) {
    try {
      Workload w = new WorkloadLoader(Double.POSITIVE_INFINITY).load(dir);
      if (w.history() == null) {
        throw new IllegalArgumentException(
            "--history "
                + dir
                + " has no "
                + ChangeHistory.FILE
                + " (workload import --git or --cdx writes one)");
      }
      return w;
    } catch (java.io.IOException | WorkloadException e) {
      throw new IllegalArgumentException("--history " + dir + ": " + e.getMessage(), e);
    }
  }

  /** A history's change times (days) as ms since the start, those within the run. */
  static long[] scaled(double[] days, double secondsPerDay, long durationMs) {
    long[] ms = new long[days.length];
    int n = 0;
    for (double d : days) {
      long t = Math.round(d * secondsPerDay * 1_000);
      if (t > durationMs) {
        break;
      }
      ms[n++] = t;
    }
    return Arrays.copyOf(ms, n);
  }

  /** Event times of a Poisson process of {@code ratePerMs} over [0, durationMs]. */
  private static long[] poisson(SplittableRandom rnd, double ratePerMs, long durationMs) {
    long[] times = new long[8];
    int count = 0;
    double t = 0;
    while (true) {
      t += -Math.log(1 - rnd.nextDouble()) / ratePerMs;
      if (t > durationMs) {
        return Arrays.copyOf(times, count);
      }
      if (count == times.length) {
        times = Arrays.copyOf(times, count * 2);
      }
      times[count++] = (long) t;
    }
  }

  public LiveWebOptions options() {
    return options;
  }

  /**
   * The simulator's view of this web: its pages, weights and rates, and every host's capacity in
   * crawls per simulated day (one request a second, or its Crawl-delay, after each answer).
   */
  public Workload workload() {
    return workload;
  }

  public List<String> hostNames() {
    List<String> names = new ArrayList<>();
    for (LiveHost h : hosts) {
      names.add(h.name());
    }
    return names;
  }

  LiveHost host(int h) {
    return hosts[h];
  }

  /** Hosts whose robots.txt sets a Crawl-delay. */
  public int crawlDelayHosts() {
    int n = 0;
    for (LiveHost h : hosts) {
      if (h.crawlDelaySeconds() > 0) {
        n++;
      }
    }
    return n;
  }

  /** The host index of a name, or -1. */
  int hostIndex(String name) {
    if (!name.startsWith("h") || !name.endsWith(DOMAIN)) {
      return -1;
    }
    try {
      int h = Integer.parseInt(name.substring(1, name.length() - DOMAIN.length()));
      return h >= 0 && h < hosts.length && hosts[h].name().equals(name) ? h : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The page at /p<k> of host h, or -1. */
  int page(int h, int k) {
    return k >= 0 && k < pagesOf[h].length ? pagesOf[h][k] : -1;
  }

  String path(int page) {
    return "/p" + local[page];
  }

  /** How many times the page changed by {@code t} ms since the start: its version then. */
  int version(int page, long t) {
    long[] c = changes[page];
    int i = Arrays.binarySearch(c, t);
    if (i >= 0) {
      while (i + 1 < c.length && c[i + 1] == t) {
        i++;
      }
      return i + 1;
    }
    return -i - 1;
  }

  /** When the page took version v, ms since the start (versions before any change: negative). */
  long versionSince(int page, int v) {
    return v == 0 ? -86_400_000L : changes[page][v - 1];
  }

  /** A few pages this page links to: some on its own host, some elsewhere; fixed per page. */
  int[] outlinks(int page) {
    SplittableRandom r = new SplittableRandom(options.workload.seed * 1_000_003L + page);
    int own = workload.hostOf(page);
    int[] links = new int[5];
    for (int i = 0; i < links.length; i++) {
      if (i < 3) {
        int[] mine = pagesOf[own];
        links[i] = mine[r.nextInt(mine.length)];
      } else {
        links[i] = r.nextInt(workload.pages());
      }
    }
    return links;
  }

  /**
   * The hosts file that makes every host name of this web resolve to this machine. It replaces the
   * JVM's resolver, so it also names this machine: Storm's LocalCluster looks its own name up.
   */
  public void writeHostsFile(Path file) {
    StringBuilder b = new StringBuilder("127.0.0.1 localhost\n");
    try {
      String own = java.net.InetAddress.getLocalHost().getHostName();
      if (!own.equals("localhost")) {
        b.append("127.0.0.1 ").append(own).append('\n');
      }
    } catch (java.net.UnknownHostException e) {
      // a machine without a name of its own needs none in the file
    }
    for (LiveHost h : hosts) {
      b.append("127.0.0.1 ").append(h.name()).append('\n');
    }
    try {
      Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every page, as a StormCrawler seed line with its weight: {@code URL\trecrawl.weight=W}. */
  public List<String> seedLines(int port) {
    List<String> lines = new ArrayList<>(workload.pages());
    for (int p = 0; p < workload.pages(); p++) {
      lines.add(url(p, port) + "\trecrawl.weight=" + workload.weight(p));
    }
    return lines;
  }

  String url(int page, int port) {
    return "http://" + hosts[workload.hostOf(page)].name() + ":" + port + path(page);
  }

  /** Writes the files of docs/live-benchmark.md#the-server-log that the judge reads. */
  public void writeGroundTruth(Path dir) throws IOException {
    Files.createDirectories(dir);
    try (Writer w = Files.newBufferedWriter(dir.resolve(GroundTruth.WEB))) {
      w.write("key,value\n");
      w.write("seconds_per_day," + options.secondsPerDay + "\n");
      w.write("duration_ms," + Math.round(options.durationSeconds * 1000) + "\n");
      w.write("family," + options.workload.family.name().toLowerCase() + "\n");
      w.write("seed," + options.workload.seed + "\n");
      w.write("pages," + workload.pages() + "\n");
      w.write("hosts," + workload.hosts() + "\n");
    }
    try (Writer w = Files.newBufferedWriter(dir.resolve(GroundTruth.HOSTS))) {
      w.write("host,limit_ms,crawl_delay_s,validators,slow_ms\n");
      for (LiveHost h : hosts) {
        w.write(
            h.name()
                + ","
                + h.limitMillis()
                + ","
                + h.crawlDelaySeconds()
                + ","
                + h.validators()
                + ","
                + h.slowMillis()
                + "\n");
      }
    }
    try (Writer w = Files.newBufferedWriter(dir.resolve(GroundTruth.SPELLS))) {
      w.write("host,start_ms,end_ms,status\n");
      for (LiveHost h : hosts) {
        for (LiveHost.Spell s : h.spells()) {
          w.write(h.name() + "," + s.startMillis() + "," + s.endMillis() + "," + s.status() + "\n");
        }
      }
    }
    try (Writer w = Files.newBufferedWriter(dir.resolve(GroundTruth.PAGES))) {
      w.write("host,path,weight,rate_per_day,changes_ms\n");
      StringBuilder line = new StringBuilder();
      for (int p = 0; p < workload.pages(); p++) {
        line.setLength(0);
        line.append(hosts[workload.hostOf(p)].name())
            .append(',')
            .append(path(p))
            .append(',')
            .append(workload.weight(p))
            .append(',')
            .append(workload.changeRate(p))
            .append(',');
        for (int i = 0; i < changes[p].length; i++) {
          line.append(i == 0 ? "" : " ").append(changes[p][i]);
        }
        w.write(line.append('\n').toString());
      }
    }
  }

  /** Serves this web for one system, logging every request to {@code requestLog}. */
  public LiveServer serve(String system, Path requestLog, long t0EpochMillis) throws IOException {
    return LiveServer.start(this, system, requestLog, t0EpochMillis);
  }
}
