package io.recrawl.flink.sim.policy;

import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.EngineListener;
import io.recrawl.engine.GlobalLambdaController;
import io.recrawl.engine.InMemoryHostStore;
import io.recrawl.engine.LocalFrontier;
import io.recrawl.engine.PageState;
import io.recrawl.flink.sim.SimContext;
import io.recrawl.flink.sim.SimPolicy;
import io.recrawl.flink.workload.Workload;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code crawl-value}: this project's scheduler, run as it runs in the Flink job. A thin adapter: the
 * per-host {@link io.recrawl.engine.HostEngine} (through {@link LocalFrontier}, one timer per host)
 * gets the simulator's status events and emits crawl requests, and the {@link GlobalLambdaController}
 * gets the engines' demand curve once per control period and sets lambda_0. Nothing of the policy
 * is re-implemented here.
 *
 * <p>Time: the frontier is advanced on a fixed tick (the engine's due-bucket width), so a release
 * reaches the crawler at most one tick after its timer. Oracle rates: the engine has no input for a
 * known change rate, so before each event the adapter writes the true rate into the page's posterior
 * as a Gamma with a very large shape (mean = the true rate); the engine's own update then barely moves
 * it. Oracle runs also set the engine's prior rate very high (unless the run sets it), so that pages
 * not yet fetched carry no demand computed from the prior.
 */
public final class CrawlValuePolicy implements SimPolicy {

  public static final String NAME = "crawl-value";
  /**
   * The simulated crawler never loses a request, so a lease only expires while a request waits in
   * its fetch queue (during the first crawl of every page, the queue is days long): a day-long
   * lease keeps those re-releases, which the crawler drops anyway, out of the comparison.
   */
  static final Map<String, Object> SIMULATOR_DEFAULTS = Map.of("lease", "1 d");

  /** Shape of the oracle posterior: evidence worth a million observations. */
  private static final float ORACLE_SHAPE = 1e6f;
  /** The engine's prior rate in oracle runs, changes per day (see {@link #start}). */
  static final String ORACLE_PRIOR_RATE = "1000";

  private EngineConfig engineConfig;
  private final double controlPeriodDays;
  private SimContext ctx;
  private LocalFrontier frontier;
  private GlobalLambdaController controller;
  private final Map<String, Integer> pageOf = new HashMap<>();
  private double tick;
  private double nextTick;
  private double nextControl;
  private long fetchesThisPeriod;

  /** The engine's defaults, overridden by the run's engine settings, and a one-hour control period. */
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
      if (ctx.oracleRates()) {
        // A page enters the engine with the prior rate and gets its oracle rate only after the event,
        // so a page that is never fetched would keep the prior's demand in the host and global curves
        // forever. A huge prior rate makes that phantom demand ~0 (w / delta); the oracle rate
        // replaces it before any decision that matters.
        settings.putIfAbsent("estimator.prior-rate", ORACLE_PRIOR_RATE);
      }
      engineConfig = EngineConfig.with(settings);
    }
    Workload w = ctx.workload();
    frontier = new LocalFrontier(engineConfig, EngineListener.NONE);
    controller = new GlobalLambdaController(engineConfig.grid, ctx.budget());
    tick = engineConfig.bucketMs / (double) EngineConfig.DAY_MS;
    for (int h = 0; h < w.hosts(); h++) {
      if (w.constrained(h)) {
        frontier.setHostRate(w.hostName(h), ctx.hostMaxRate(h), this::onRequest);
      }
    }
    for (int p = 0; p < w.pages(); p++) {
      pageOf.put(w.url(p), p);
    }
    for (int p = 0; p < w.pages(); p++) {
      if (ctx.exists(p)) {
        discover(p, 0);
      }
    }
    control(0);
    nextTick = 0;
  }

  private void discover(int page, double now) {
    Workload w = ctx.workload();
    StatusEvent e = new StatusEvent(w.url(page), w.hostName(w.hostOf(page)), CrawlStatus.DISCOVERED,
        ctx.epochMillis(now), Map.of(), null, w.weight(page), null);
    frontier.onStatus(e, this::onRequest);
    if (ctx.oracleRates()) {
      oracle(page);
    }
  }

  /** Writes the true change rate into the page's posterior (see the class comment). */
  private void oracle(int page) {
    Workload w = ctx.workload();
    InMemoryHostStore store = frontier.store(w.hostName(w.hostOf(page)));
    PageState state = store == null ? null : store.page(w.url(page));
    if (state != null) {
      double rate = Math.max(ctx.changeRate(page), 1e-9);
      state.changeShape = ORACLE_SHAPE;
      state.changeRate = (float) (ORACLE_SHAPE / rate);
    }
  }

  private void onRequest(CrawlRequest r) {
    Integer page = pageOf.get(r.url());
    if (page == null) {
      throw new IllegalStateException("the engine released an unknown URL " + r.url());
    }
    ctx.release(page);
  }

  private void control(double now) {
    double measured = now > 0 ? fetchesThisPeriod / controlPeriodDays : Double.NaN;
    fetchesThisPeriod = 0;
    frontier.setGlobalLambda(controller.update(frontier.ledger().snapshot(), measured));
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
      oracle(page);
    }
    frontier.onStatus(event, this::onRequest);
    if (ctx.oracleRates()) {
      oracle(page);
    }
  }

  @Override
  public void onPagesAppeared(int[] pages, double now) {
    for (int p : pages) {
      discover(p, now);
    }
  }

  @Override
  public void onHostLimitChanged(int host, double maxRate, double now) {
    frontier.setHostRate(ctx.workload().hostName(host), maxRate, this::onRequest);
  }

  @Override
  public double lambda0() {
    return controller == null ? Double.NaN : controller.lambda();
  }
}
