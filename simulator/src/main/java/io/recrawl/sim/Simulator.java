package io.recrawl.sim;

import io.recrawl.estimate.ChangeRateEstimator;
import io.recrawl.sim.workload.Workload;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * The discrete-event crawl simulator. Three sources of events are merged in time order: the
 * policy's wake-up, the crawler's next permitted fetch, and the run's own events (day boundaries,
 * chart samples, the scenario's change). Page changes are not events (see {@link GroundTruth}).
 */
public final class Simulator {

  /** 2026-01-01T00:00:00Z: simulated day 0 in epoch milliseconds. */
  public static final long EPOCH_MS = 1_767_225_600_000L;

  public static final long DAY_MS = 86_400_000L;

  /** StormCrawler's metadata keys: the fetch's response time (ms), its HTTP status. */
  public static final String LOADING_TIME_KEY = "fetch.loadingTime";

  /** The Retry-After header, as StormCrawler's protocol metadata carries it. */
  public static final String RETRY_AFTER_KEY = "protocol.retry-after";

  private static final int DAY = 0;
  private static final int SAMPLE = 1;
  private static final int CHANGE = 2;
  private static final int SITEMAP = 3;

  /** Run settings. */
  public static final class Config {
    public Workload workload;
    public double budget;
    public double days;
    public double warmUp;
    public boolean oracleRates;

    /**
     * Whether pages with an observed history change exactly at its times ({@code --changes trace})
     * rather than as Poisson processes at their rates.
     */
    public boolean traceChanges;

    public Scenario scenario;
    public long seed = 1;

    /** Chart resolution; 0 picks days / 240. */
    public double bucketDays;

    public ChangeRateEstimator estimator = ChangeRateEstimator.defaults();

    /**
     * Whether the estimates pool each host's evidence into its pages' prior, as the engine does.
     */
    public boolean hostPrior = true;

    /**
     * Whether the shared estimates use the grid posterior ({@code estimator.posterior: grid}, the
     * engine's default), as crawl-value's engine does.
     */
    public boolean gridPosterior = true;

    /**
     * recrawl.engine keys (see EngineConfig) for the crawl-value policy; empty = the engine's
     * defaults.
     */
    public Map<String, Object> engineSettings = new java.util.HashMap<>();

    /**
     * In the push-back scenario: every host's limit is its server's hidden capacity (when lower
     * than the configured limit), known to the crawler and the policy from the start.
     */
    public boolean oracleCapacity;

    /**
     * The signals scenario's host mix (truthful, stale, liars or mixed; see {@link SignalSource});
     * null = no signals.
     */
    public String signals;

    /** The share of hosts that publish change signals. */
    public double signalHosts = 0.5;

    /**
     * Days from a fetch to its status reaching the policy (a real crawler's parser and queue
     * between them); 0: at once. The status still carries the fetch's time.
     */
    public double statusLatencyDays;

    /** What the run starts from: an empty index, or a crawl under way (see {@link Start}). */
    public Start start = Start.EMPTY;

    /** Where progress goes (every few seconds); null for silence. */
    public PrintStream progress = System.err;

    /** A copy (the workload, scenario and estimator shared; the engine settings copied). */
    public Config copy() {
      Config c = new Config();
      c.workload = workload;
      c.budget = budget;
      c.days = days;
      c.warmUp = warmUp;
      c.oracleRates = oracleRates;
      c.traceChanges = traceChanges;
      c.scenario = scenario;
      c.seed = seed;
      c.bucketDays = bucketDays;
      c.estimator = estimator;
      c.hostPrior = hostPrior;
      c.gridPosterior = gridPosterior;
      c.engineSettings = new java.util.HashMap<>(engineSettings);
      c.oracleCapacity = oracleCapacity;
      c.statusLatencyDays = statusLatencyDays;
      c.signals = signals;
      c.signalHosts = signalHosts;
      c.start = start;
      c.progress = progress;
      return c;
    }

    /**
     * The servers of the push-back scenario: each host's configured limit is its limit in the
     * workload, or the engine's {@code host.max-rate} where the workload has none.
     */
    public ServerModel servers() {
      double fallback =
          engineSettings.containsKey("host.max-rate")
              ? Double.parseDouble(String.valueOf(engineSettings.get("host.max-rate")).strip())
              : 86_400;
      double[] limits = workload.hostMaxRates();
      for (int h = 0; h < limits.length; h++) {
        if (Double.isInfinite(limits[h])) {
          limits[h] = fallback;
        }
      }
      return new ServerModel(limits, days, seed);
    }

    /** The shortest back-off after a push-back without Retry-After: initial x (1 - jitter). */
    long minBackoffMs() {
      long initial =
          io.recrawl.engine.Durations.parseMillis(
              "politeness.backoff.initial",
              engineSettings.getOrDefault("politeness.backoff.initial", "1 min"));
      double jitter =
          Double.parseDouble(
              String.valueOf(engineSettings.getOrDefault("politeness.backoff.jitter", "0.25"))
                  .strip());
      return (long) Math.floor(initial * (1 - jitter));
    }

    void validate() {
      if (workload == null
          || !(budget > 0)
          || Double.isInfinite(budget)
          || !(days > 0)
          || !(warmUp >= 0)
          || warmUp >= days) {
        throw new IllegalArgumentException(
            "need a workload, 0 < budget < infinity, days > 0 and 0 <= warm-up < days");
      }
      if (scenario == null) {
        scenario = Scenario.build(Scenario.STATIONARY, workload, warmUp, days, seed);
      }
      if (bucketDays <= 0) {
        bucketDays = days / 240;
      }
      if (oracleCapacity && !scenario.pushBack()) {
        throw new IllegalArgumentException("oracle capacity needs the push-back scenario");
      }
      if (traceChanges && workload.history() == null) {
        throw new IllegalArgumentException(
            "--changes trace needs a workload with observed changes ("
                + io.recrawl.sim.workload.ChangeHistory.FILE
                + ", as workload import --git writes it)");
      }
    }
  }

  private final Config cfg;

  public Simulator(Config cfg) {
    cfg.validate();
    this.cfg = cfg;
  }

  public Config config() {
    return cfg;
  }

  /** Runs one policy from time 0 to the end and measures it. */
  public PolicyRun run(SimPolicy policy) {
    return new Run(policy).execute();
  }

  /** One run's mutable state; also the policy's view of the world. */
  private final class Run implements SimContext {
    private final SimPolicy policy;
    private final Workload w = cfg.workload;
    private final FreshnessMeter meter;
    private final GroundTruth truth;
    private final Crawler crawler;
    private final PolitenessAuditor auditor;
    private final RateBook rates;
    private final double[] hostLimit;
    private final DueHeap system = new DueHeap(64);
    private final IntervalSeries crawlSeries;
    private final double[] lambdaSeries;
    private final int[] fetchesInWindow;
    private final ServerModel servers;
    private final PushBackAuditor pushBack;
    private final SignalSource signalSource;
    private final PreviousCrawl previous;
    private double budget;
    private double now;
    private long fetches;
    private long fetchesMeasured;
    private long rejected;
    private long duplicatesMeasured;
    private int maxQueued;

    Run(SimPolicy policy) {
      this.policy = policy;
      double end = cfg.days;
      meter = new FreshnessMeter(w.pages(), cfg.warmUp, end, cfg.bucketDays);
      double[] weights = w.weights();
      truth =
          new GroundTruth(
              weights, w.changeRates(), meter, cfg.seed, cfg.traceChanges ? w.history() : null);
      hostLimit = w.hostMaxRates();
      Scenario sc = cfg.scenario;
      if (sc.pushBack()) {
        servers = cfg.servers();
        pushBack = new PushBackAuditor(w.hosts(), end, cfg.minBackoffMs());
        if (cfg.oracleCapacity) {
          for (int h = 0; h < hostLimit.length; h++) {
            hostLimit[h] = Math.min(hostLimit[h], servers.capacity(h));
          }
        }
      } else {
        servers = null;
        pushBack = null;
      }
      budget = cfg.budget;
      crawler = new Crawler(w.hostIndex(), hostLimit, budget);
      auditor = new PolitenessAuditor(w.hosts());
      rates =
          new RateBook(
              truth,
              cfg.oracleRates,
              cfg.estimator,
              cfg.hostPrior ? w.hostIndex() : null,
              w.hosts());
      if (cfg.gridPosterior) {
        rates.useGrid();
      }
      int buckets = (int) Math.ceil(end / cfg.bucketDays - 1e-9);
      crawlSeries = new IntervalSeries(cfg.bucketDays, buckets);
      lambdaSeries = new double[buckets];
      fetchesInWindow = new int[w.pages()];
      for (int p = 0; p < w.pages(); p++) {
        if (sc.hidesHost() && w.hostOf(p) == sc.host()) {
          truth.hideUntil(p, sc.changeTime());
          meter.exists(weights[p], sc.changeTime());
        } else {
          meter.exists(weights[p], 0);
        }
      }
      for (int d = 1; d < end; d++) {
        system.push(d, DAY);
      }
      for (int b = 0; b < buckets; b++) {
        system.push((b + 0.5) * cfg.bucketDays, SAMPLE);
      }
      if (sc.changeTime() < end) {
        system.push(sc.changeTime(), CHANGE);
      }
      if (cfg.signals != null) {
        signalSource =
            new SignalSource(
                truth, w.hostIndex(), w.hosts(), cfg.signals, cfg.signalHosts, cfg.seed);
        for (int d = 0; d + 0.5 < end; d++) {
          system.push(d + 0.5, SITEMAP);
        }
      } else {
        signalSource = null;
      }
      previous =
          cfg.start != Start.EMPTY
              ? PreviousCrawl.of(w, hostLimit, cfg.budget, this::exists, cfg.seed)
              : null;
      if (previous != null) {
        for (int p = 0; p < w.pages(); p++) {
          double t = previous.lastFetch()[p];
          if (!Double.isNaN(t)) {
            truth.fetch(p, t);
            rates.observe(p, t, null);
          }
        }
      }
    }

    /** A status on its way to the policy ({@link Config#statusLatencyDays}). */
    private record Delayed(double at, long seq, int page, StatusEvent event) {}

    private final java.util.PriorityQueue<Delayed> delayed =
        new java.util.PriorityQueue<>(
            java.util.Comparator.comparingDouble(Delayed::at).thenComparingLong(Delayed::seq));
    private long delayedSeq;

    PolicyRun execute() {
      long wallStart = System.nanoTime();
      long lastReport = wallStart;
      double end = cfg.days;
      now = 0;
      policy.start(this);
      long steps = 0;
      while (true) {
        double ts = system.peekTime();
        double tc = crawler.nextFetchTime();
        double tp = Math.max(now, policy.nextWakeTime());
        double td = delayed.isEmpty() ? Double.POSITIVE_INFINITY : delayed.peek().at();
        double t = Math.min(Math.min(ts, td), Math.min(tc, tp));
        if (!(t < end)) {
          break;
        }
        now = t;
        if (ts <= t) {
          onSystem(system.pop());
        } else if (td <= t) {
          Delayed d = delayed.poll();
          policy.onStatus(d.page(), d.event(), t);
        } else if (tc <= t) {
          fetch();
        } else {
          policy.wake(t);
        }
        if ((++steps & 0xFFFF) == 0 && cfg.progress != null) {
          long nowNs = System.nanoTime();
          if (nowNs - lastReport > 5_000_000_000L) {
            lastReport = nowNs;
            cfg.progress.printf(
                "  %s: day %.1f of %.0f, %,d fetches, %.0f s%n",
                policy.name(), now, end, fetches, (nowNs - wallStart) / 1e9);
          }
        }
      }
      now = end;
      policy.close();
      truth.finish(end);
      return result((System.nanoTime() - wallStart) / 1e9);
    }

    private void fetch() {
      int page = crawler.fetch();
      double t = crawler.lastFetchTime();
      int h = w.hostOf(page);
      auditor.fetched(h, t, hostLimit[h], budget);
      Map<String, List<String>> metadata = Map.of();
      if (servers != null) {
        long ms = epochMillis(t);
        ServerModel.Response r = servers.request(h, t, ms);
        pushBack.request(h, t, ms, epochMillis(crawler.lastReleaseTime()), r);
        if (r.kind() != ServerModel.Kind.SERVED) {
          refuse(page, h, t, ms, r);
          return;
        }
        metadata = Map.of(LOADING_TIME_KEY, List.of(Long.toString(r.loadingTimeMs())));
      }
      if (signalSource != null && signalSource.signals(page)) {
        double lastmod = signalSource.lastmod(page, t); // before the truth draws a new change
        if (!Double.isNaN(lastmod)) {
          Map<String, List<String>> m = new java.util.HashMap<>(metadata);
          m.put(StatusEvent.SIGNAL_KEY, List.of(Long.toString(epochMillis(lastmod))));
          metadata = m;
        }
      }
      GroundTruth.Outcome outcome = truth.fetch(page, t);
      fetches++;
      if (t >= cfg.warmUp) {
        fetchesMeasured++;
        fetchesInWindow[page]++;
      }
      crawlSeries.addPoint(t, 1);
      Boolean changed =
          outcome == GroundTruth.Outcome.FIRST ? null : outcome == GroundTruth.Outcome.CHANGED;
      rates.observe(page, t, changed);
      StatusEvent e =
          new StatusEvent(
              w.url(page),
              w.hostName(h),
              CrawlStatus.FETCHED,
              epochMillis(t),
              metadata,
              changed,
              w.weight(page),
              outcome == GroundTruth.Outcome.UNCHANGED ? 304 : 200);
      deliver(page, e, t);
    }

    /** A status reaches the policy now, or after the configured latency. */
    private void deliver(int page, StatusEvent e, double t) {
      if (cfg.statusLatencyDays > 0) {
        delayed.add(new Delayed(t + cfg.statusLatencyDays, delayedSeq++, page, e));
      } else {
        policy.onStatus(page, e, t);
      }
    }

    /**
     * A refused request: the page was not fetched (its copy stays as it was), and the policy hears
     * a FETCH_ERROR with the HTTP status, as StormCrawler reports it.
     */
    private void refuse(int page, int h, double t, long ms, ServerModel.Response r) {
      fetches++;
      if (t >= cfg.warmUp) {
        fetchesMeasured++;
      }
      crawlSeries.addPoint(t, 1);
      Map<String, List<String>> metadata =
          r.retryAfter() == null
              ? Map.of(StatusEvent.STATUS_CODE_KEY, List.of(Integer.toString(r.httpStatus())))
              : Map.of(
                  StatusEvent.STATUS_CODE_KEY,
                  List.of(Integer.toString(r.httpStatus())),
                  RETRY_AFTER_KEY,
                  List.of(r.retryAfter()));
      StatusEvent e =
          new StatusEvent(
              w.url(page),
              w.hostName(h),
              CrawlStatus.FETCH_ERROR,
              ms,
              metadata,
              null,
              w.weight(page),
              r.httpStatus());
      deliver(page, e, t);
    }

    private void onSystem(int what) {
      Scenario sc = cfg.scenario;
      switch (what) {
        case DAY:
          policy.onDayBoundary(now);
          break;
        case SAMPLE:
          int b = (int) (now / cfg.bucketDays);
          if (b < lambdaSeries.length) {
            lambdaSeries[b] = policy.lambda0();
          }
          break;
        case CHANGE:
          if (sc.hidesHost()) {
            int[] pages =
                java.util.stream.IntStream.range(0, w.pages())
                    .filter(p -> w.hostOf(p) == sc.host())
                    .toArray();
            policy.onPagesAppeared(pages, now);
          } else if (sc.dropsCapacity()) {
            hostLimit[sc.host()] = sc.newMaxRate();
            crawler.setHostMaxRate(sc.host(), sc.newMaxRate());
            policy.onHostLimitChanged(sc.host(), sc.newMaxRate(), now);
          } else if (sc.changesBudget()) {
            budget = cfg.budget * sc.budgetFactor();
            crawler.setBudget(budget);
            policy.onBudgetChanged(budget, now);
          } else if (sc.newRates() != null) {
            double[] r = sc.newRates();
            for (int p = 0; p < r.length; p++) {
              truth.setRate(p, r[p], now);
            }
            policy.onTrueRatesChanged(now);
          }
          break;
        case SITEMAP:
          readSitemaps();
          break;
        default:
          throw new IllegalStateException("unknown system event " + what);
      }
    }

    /**
     * The signalling hosts' sitemaps read: each listed page is discovered again with its lastmod.
     */
    private void readSitemaps() {
      for (int p = 0; p < w.pages(); p++) {
        if (!signalSource.signals(p) || truth.visibleFrom(p) > now) {
          continue;
        }
        double lastmod = signalSource.read(p, now);
        if (Double.isNaN(lastmod)) {
          continue;
        }
        StatusEvent e =
            new StatusEvent(
                w.url(p),
                w.hostName(w.hostOf(p)),
                CrawlStatus.DISCOVERED,
                epochMillis(now),
                Map.of(StatusEvent.SIGNAL_KEY, List.of(Long.toString(epochMillis(lastmod)))),
                null,
                w.weight(p),
                null);
        policy.onSignal(p, e, now);
      }
    }

    private PolicyRun result(double wallSeconds) {
      PolicyRun r = new PolicyRun();
      r.policy = policy.name();
      r.weightedFreshness = meter.weightedFreshness();
      r.crawlsPerDay = fetchesMeasured / (cfg.days - cfg.warmUp);
      r.politenessViolations = auditor.hostViolations();
      r.budgetViolations = auditor.budgetViolations();
      r.maxHostRateRatio = auditor.maxRateRatio();
      int never = 0;
      for (int p = 0; p < w.pages(); p++) {
        if (fetchesInWindow[p] == 0 && truth.visibleFrom(p) < cfg.days) {
          never++;
        }
      }
      r.neverCrawled = never;
      r.fetches = fetches;
      r.duplicateReleases = crawler.duplicates();
      r.rejectedReleases = rejected;
      r.duplicateReleasesInWindow = duplicatesMeasured;
      r.maxQueuedInWindow = maxQueued;
      r.wallSeconds = wallSeconds;
      r.bucketDays = cfg.bucketDays;
      r.freshnessSeries = meter.series();
      double[] counts = crawlSeries.totals();
      for (int i = 0; i < counts.length; i++) {
        counts[i] /= cfg.bucketDays;
      }
      r.crawlRateSeries = counts;
      r.lambda0Series = lambdaSeries;
      r.fetchesInWindow = fetchesInWindow;
      r.freshTimeInWindow = meter.freshTimeInWindow();
      if (!rates.oracle()) {
        EstimateQuality verdicts = new EstimateQuality();
        EstimateQuality engine = new EstimateQuality();
        for (int p = 0; p < w.pages(); p++) {
          if (rates.observed(p)) {
            verdicts.add(rates.changeRate(p), truth.rate(p));
            engine.add(policy.estimatedRate(p), truth.rate(p));
          }
        }
        r.estimates = new java.util.LinkedHashMap<>();
        r.estimates.put("verdicts", verdicts.summary());
        if (engine.count() > 0) {
          r.estimates.put("engine", engine.summary());
        }
      }
      if (servers != null) {
        r.pushBack = pushBack.results(servers);
        r.pushBackViolations = pushBack.retryAfterViolations() + pushBack.backoffViolations();
      }
      return r;
    }

    // ------------------------------------------------------------------ SimContext

    @Override
    public Workload workload() {
      return w;
    }

    @Override
    public double budget() {
      return budget;
    }

    @Override
    public double hostMaxRate(int host) {
      return hostLimit[host];
    }

    @Override
    public double changeRate(int page) {
      return rates.changeRate(page);
    }

    @Override
    public boolean oracleRates() {
      return cfg.oracleRates;
    }

    @Override
    public boolean exists(int page) {
      return truth.visibleFrom(page) <= now;
    }

    @Override
    public double now() {
      return now;
    }

    @Override
    public double previousFetch(int page) {
      return previous == null ? Double.NaN : previous.lastFetch()[page];
    }

    @Override
    public double previousNextFetch(int page) {
      return cfg.start == Start.IMPORTED ? previous.nextFetch()[page] : Double.NaN;
    }

    @Override
    public long epochMillis(double days) {
      return EPOCH_MS + Math.round(days * DAY_MS);
    }

    @Override
    public double days(long epochMillis) {
      return (epochMillis - EPOCH_MS) / (double) DAY_MS;
    }

    @Override
    public boolean release(int page) {
      if (!exists(page)) {
        rejected++;
        return false;
      }
      boolean queued = crawler.release(page, now);
      if (now >= cfg.warmUp) {
        if (!queued) {
          duplicatesMeasured++;
        }
        maxQueued = Math.max(maxQueued, crawler.queued());
      }
      return queued;
    }

    @Override
    public boolean queued(int page) {
      return crawler.isQueued(page);
    }

    @Override
    public long seed() {
      return cfg.seed;
    }

    @Override
    public Map<String, Object> engineSettings() {
      return java.util.Collections.unmodifiableMap(cfg.engineSettings);
    }
  }
}
