package io.recrawl.engine;

import io.recrawl.wire.CrawlStatus;
import java.time.Instant;

/**
 * Why a page is scheduled when it is: its own parameters, its host's threshold and the global one.
 * Every number comes from the engine's own methods, so the explanation is the decision.
 *
 * @param weight w
 * @param changeRate the estimated δ (posterior mean), changes per day
 * @param hostPriorRate the prior mean δ the page's host gives it (NaN with estimator.host-prior
 *     off)
 * @param changeRateStdDev the posterior standard deviation of δ
 * @param plannedRate the δ V is planned with when not averaged over the posterior, and the mean the
 *     host's demand counts the page with
 * @param demandRate the crawl rate the page adds to its host's demand at θ_i, crawls per day: its
 *     claim on the host's limit k_i (which sets λ_i) and, through the hosts' sum, on the budget
 *     (λ_0)
 * @param lastFetch epoch ms, 0 = never
 * @param crawlValue V now
 * @param valueCeiling the most V can reach: w/δ for freshness, E[w/δ] when V is averaged over the
 *     posterior
 * @param globalLambda λ_0
 * @param hostLambda λ_i
 * @param threshold θ_i = λ_i + λ_0
 * @param hostMaxRate k_i, crawls per day
 * @param due when V reaches θ_i (within revisit bounds), epoch ms; Long.MAX_VALUE = never
 * @param status the last status
 * @param inFlight whether a release is outstanding
 * @param reason one sentence
 */
public record PageExplanation(
    double weight,
    double changeRate,
    double hostPriorRate,
    double changeRateStdDev,
    double plannedRate,
    double demandRate,
    long lastFetch,
    double crawlValue,
    double valueCeiling,
    double globalLambda,
    double hostLambda,
    double threshold,
    double hostMaxRate,
    long due,
    CrawlStatus status,
    boolean inFlight,
    String reason) {

  /** Explains one page of a host at time {@code now}. */
  public static PageExplanation of(
      HostEngine engine, PageState p, HostState h, double globalLambda, long now) {
    HostThreshold t = engine.thresholds();
    EngineConfig cfg = engine.config();
    io.recrawl.estimate.ChangeStats stats = engine.valuation().changeStats(h, p);
    double delta = engine.valuation().changeRate(h, p);
    double theta = t.threshold(h, globalLambda, now);
    double ceiling = engine.valuation().valueCeiling(h, p);
    long due = engine.valuation().dueTime(h, p, theta, now);
    CrawlStatus status = CrawlStatus.values()[p.status];
    String reason;
    if (status == CrawlStatus.ERROR) {
      reason =
          "status ERROR: not scheduled"
              + (cfg.errorRetryMs > 0 ? " except for the error retry" : "");
    } else if (p.inFlight()) {
      reason = "in flight: released, lease until " + Instant.ofEpochMilli(p.leaseUntil);
    } else if (due == Long.MAX_VALUE && Double.isInfinite(ceiling)) {
      reason =
          String.format(
              "never in practice: its rate is so uncertain that its expected crawl value grows without bound, but too slowly to reach the threshold %.4g within a billion days",
              theta);
    } else if (due == Long.MAX_VALUE) {
      reason =
          String.format(
              "never: its crawl value can reach at most w/δ = %.4g, which is not above the threshold %.4g",
              ceiling, theta);
    } else if (due <= now) {
      reason =
          String.format(
              "due: V = %.4g has reached the threshold %.4g; waits for a dispatch slot",
              engine.valuation().crawlValue(h, p, now), theta);
    } else {
      reason =
          String.format(
              "due at %s, when V reaches the threshold %.4g = host lambda %.4g + global lambda %.4g",
              Instant.ofEpochMilli(due), theta, theta - globalLambda, globalLambda);
    }
    return new PageExplanation(
        p.weight,
        cfg.estimator.rate(stats),
        cfg.hostPrior ? engine.valuation().hostPriorRate(h, p) : Double.NaN,
        cfg.estimator.rateStdDev(stats),
        delta,
        t.pageDemand(p.weight, p.curveRate, p.curveShape, theta),
        p.lastFetch,
        engine.valuation().crawlValue(h, p, now),
        ceiling,
        globalLambda,
        theta - globalLambda,
        theta,
        t.maxRate(h, now),
        due,
        status,
        p.inFlight(),
        reason);
  }
}
