package io.recrawl.sim.policy;

import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.GlobalLambdaController;
import io.recrawl.engine.local.LocalFrontier;
import io.recrawl.sim.SimContext;
import io.recrawl.sim.SimPolicy;
import io.recrawl.sim.workload.Workload;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code crawl-value}: this project's scheduler, run as it runs in the Flink job. A thin adapter:
 * the per-host {@link io.recrawl.engine.HostEngine} (through {@link LocalFrontier}, one timer per
 * host) gets the simulator's status events and emits crawl requests, and the {@link
 * GlobalLambdaController} gets the engines' demand curve once per control period and sets lambda_0.
 * Nothing of the policy is re-implemented here.
 *
 * <p>Time: the frontier is advanced on a fixed tick (the engine's due-bucket width), so a release
 * reaches the crawler at most one tick after its timer. Oracle rates reach the engine the way a
 * sitemap's changefreq would: as a known change rate in each event's metadata ({@link
 * StatusEvent#CHANGE_RATE_KEY}).
 */
public final class CrawlValuePolicy implements SimPolicy {

  public static final String NAME = "crawl-value";

  /**
   * The simulated crawler never loses a request, so a lease only expires while a request waits in
   * its fetch queue (during the first crawl of every page, the queue is days long): a day-long
   * lease keeps those re-releases, which the crawler drops anyway, out of the comparison.
   */
  static final Map<String, Object> SIMULATOR_DEFAULTS = Map.of("lease", "1 d", "lease.max", "1 d");

  private EngineConfig engineConfig;
  private final double controlPeriodDays;
  private SimContext ctx;
  private LocalFrontier frontier;
  private GlobalLambdaController controller;
  private UrlIndex pageOf;

  /**
   * Per page, its true change rate as text (see {@link #oracleMetadata}); null when rates are
   * learned.
   */
  private String[] oracleText;

  private double tick;
  private double nextTick;
  private double nextControl;
  private long fetchesThisPeriod;

  /**
   * The engine's defaults, overridden by the run's engine settings, and a one-hour control period.
   */
  public CrawlValuePolicy() {
    this(null, 1.0 / 24);
  }

  public CrawlValuePolicy(EngineConfig engineConfig, double controlPeriodDays) {
    this.engineConfig = engineConfig;
    this.controlPeriodDays = controlPeriodDays;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void start(SimContext ctx) {
    this.ctx = ctx;
    if (engineConfig == null) {
      Map<String, Object> settings = new HashMap<>(SIMULATOR_DEFAULTS);
      settings.putAll(ctx.engineSettings());
      engineConfig = EngineConfig.with(settings);
    }
    Workload w = ctx.workload();
    frontier = new LocalFrontier(engineConfig);
    frontier.useWakeWorker(true);
    controller = new GlobalLambdaController(engineConfig.grid, ctx.budget(), controlPeriodDays);
    tick = engineConfig.bucketMs / (double) EngineConfig.DAY_MS;
    for (int h = 0; h < w.hosts(); h++) {
      if (!Double.isInfinite(ctx.hostMaxRate(h))) {
        frontier.setHostRate(w.hostName(h), ctx.hostMaxRate(h), this::onRequest);
      }
    }
    pageOf = new UrlIndex(w);
    if (ctx.oracleRates()) {
      writeOracleText();
    }
    for (int p = 0; p < w.pages(); p++) {
      double previous = ctx.previousFetch(p);
      if (!Double.isNaN(previous)) {
        fetchedBefore(p, previous, ctx.previousNextFetch(p));
      } else if (ctx.exists(p)) {
        discover(p, 0);
      }
    }
    control(0);
    nextTick = 0;
  }

  private void discover(int page, double now) {
    frontier.onStatus(event(page, CrawlStatus.DISCOVERED, now, null), this::onRequest);
  }

  /** A status of the page at {@code when} (days), with its weight and, in oracle runs, its rate. */
  private StatusEvent event(int page, CrawlStatus status, double when, Integer httpStatus) {
    Workload w = ctx.workload();
    return new StatusEvent(
        w.url(page),
        w.hostName(w.hostOf(page)),
        status,
        ctx.epochMillis(when),
        oracleMetadata(page),
        null,
        w.weight(page),
        httpStatus);
  }

  /**
   * A page of a crawl taken over, as {@code bin/recrawl import} gives it to the engine: a FETCHED
   * at its last fetch (nothing to compare it with), then, with {@code --start imported}, planned
   * for its next fetch date in that crawl.
   */
  private void fetchedBefore(int page, double last, double next) {
    StatusEvent e = event(page, CrawlStatus.FETCHED, last, 200);
    frontier.onStatus(e, this::onRequest);
    if (!Double.isNaN(next)) {
      frontier.planAt(e.host(), e.url(), ctx.epochMillis(Math.max(0, next)), this::onRequest);
    }
  }

  /**
   * The page's true change rate as event metadata in oracle runs; nothing otherwise. The text is
   * the same object from event to event, which the engine recognises without reading it.
   */
  private Map<String, List<String>> oracleMetadata(int page) {
    return oracleText == null
        ? Map.of()
        : Map.of(StatusEvent.CHANGE_RATE_KEY, List.of(oracleText[page]));
  }

  /**
   * Writes every page's true rate as text. True rates change only with {@link #onTrueRatesChanged},
   * so each page's text is written once per change, not per event: formatting a double, and the
   * engine parsing it, cost more than the engine's work on an event.
   */
  private void writeOracleText() {
    int pages = ctx.workload().pages();
    oracleText = new String[pages];
    for (int p = 0; p < pages; p++) {
      oracleText[p] = Double.toString(Math.max(ctx.changeRate(p), 1e-9));
    }
  }

  private void onRequest(CrawlRequest r) {
    int page = pageOf.page(r.url());
    if (page < 0) {
      throw new IllegalStateException("the engine released an unknown URL " + r.url());
    }
    ctx.release(page);
  }

  private void control(double now) {
    double measured = now > 0 ? fetchesThisPeriod / controlPeriodDays : Double.NaN;
    fetchesThisPeriod = 0;
    price(measured);
    nextControl = now + controlPeriodDays;
  }

  @Override
  public double nextWakeTime() {
    return Math.min(nextTick, nextControl);
  }

  @Override
  public void wake(double now) {
    if (now >= nextControl) {
      control(now);
    }
    if (now >= nextTick) {
      frontier.advanceTo(ctx.epochMillis(now), this::onRequest);
      nextTick = now + tick;
    }
  }

  @Override
  public void onStatus(int page, StatusEvent event, double now) {
    fetchesThisPeriod++;
    if (ctx.oracleRates()) {
      Map<String, List<String>> metadata = oracleMetadata(page);
      if (!event.metadata().isEmpty()) {
        metadata = new HashMap<>(event.metadata());
        metadata.putAll(oracleMetadata(page));
      }
      event =
          new StatusEvent(
              event.url(),
              event.host(),
              event.status(),
              event.time(),
              metadata,
              event.changed(),
              event.weight(),
              event.httpStatus());
    }
    frontier.onStatus(event, this::onRequest);
  }

  @Override
  public double estimatedRate(int page) {
    io.recrawl.sim.workload.Workload w = ctx.workload();
    io.recrawl.engine.InMemoryHostStore store = frontier.store(w.hostName(w.hostOf(page)));
    io.recrawl.engine.PageState p = store == null ? null : store.page(w.url(page));
    return p == null ? Double.NaN : frontier.engine().valuation().changeRate(store.host(), p);
  }

  @Override
  public void onSignal(int page, StatusEvent event, double now) {
    frontier.onStatus(event, this::onRequest);
  }

  @Override
  public void onPagesAppeared(int[] pages, double now) {
    for (int p : pages) {
      discover(p, now);
    }
  }

  /**
   * Oracle runs hear of new true rates as a sitemap refresh would bring them: pages discovered
   * again.
   */
  @Override
  public void onTrueRatesChanged(double now) {
    if (!ctx.oracleRates()) {
      return;
    }
    writeOracleText();
    for (int p = 0; p < ctx.workload().pages(); p++) {
      if (ctx.exists(p)) {
        discover(p, now);
      }
    }
    // The whole frontier moved at once: price it now, before the hosts re-check their pages, rather
    // than release a burst at the old price and wait for the period's end.
    price(Double.NaN);
  }

  /** One controller step over the frontier's demand ledger; {@code measured} NaN when not known. */
  private void price(double measured) {
    double inFlight = frontier.inFlightForBudget(GlobalLambdaController.QUEUE_ALLOWANCE_DAYS);
    frontier.setGlobalLambda(controller.update(frontier.ledger().snapshot(), measured, inFlight));
  }

  /** As the job takes a budget message: the controller prices the new budget at its next period. */
  @Override
  public void onBudgetChanged(double budget, double now) {
    controller.setBudget(budget);
  }

  @Override
  public void onHostLimitChanged(int host, double maxRate, double now) {
    frontier.setHostRate(ctx.workload().hostName(host), maxRate, this::onRequest);
  }

  @Override
  public void close() {
    frontier.close();
  }

  @Override
  public double lambda0() {
    return controller == null ? Double.NaN : controller.lambda();
  }
}
