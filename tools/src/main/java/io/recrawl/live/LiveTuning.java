package io.recrawl.live;

import io.recrawl.sim.policy.StormCrawlerAdaptivePolicy.Settings;
import java.util.List;
import java.util.Locale;

/**
 * How each system is set to spend the same budget, in its own units: a global budget for the job;
 * simulated minutes for StormCrawler's schedulers, which run in compressed time ({@code
 * CompressedTimeScheduler}) at the settings {@link PeerTuning} found best; a threshold in real days
 * for the stand-alone CrawlValueScheduler, which runs in real time.
 *
 * @param budgetPerSecond fetches a second, the budget of every system
 * @param secondsPerDay real seconds of one simulated day
 * @param crawlsPerDay the job's budget, crawls a (real) day
 * @param defaultIntervalDays DefaultScheduler's {@code fetchInterval.default}, simulated days
 * @param adaptive AdaptiveScheduler's keys, simulated days
 * @param thetaRealDays CrawlValueScheduler's threshold: the optimum's price in real days
 * @param priorRatePerRealDay the estimators' prior change rate, 1 a simulated day, in real days
 * @param budgetIntervalRealMinutes pages / budget, real minutes: CrawlValueScheduler's back-off
 *     after a fetch error
 */
record LiveTuning(
    double budgetPerSecond,
    double secondsPerDay,
    double crawlsPerDay,
    double defaultIntervalDays,
    Settings adaptive,
    double thetaRealDays,
    double priorRatePerRealDay,
    double budgetIntervalRealMinutes,
    List<String> transfer) {

  /** What the job hands back in each request by default: If-Modified-Since's date. */
  static final List<String> TRANSFER = List.of("last-modified");

  /**
   * The job's floor between two fetches of a page ({@code recrawl.engine.revisit.min-interval}).
   */
  static final double FLOOR_SECONDS = 1;

  static LiveTuning of(
      int pages,
      double budgetPerSecond,
      double secondsPerDay,
      double lambda0,
      double defaultIntervalDays,
      Settings adaptive) {
    double realDaysPerSimDay = secondsPerDay / 86_400;
    return new LiveTuning(
        budgetPerSecond,
        secondsPerDay,
        budgetPerSecond * 86_400,
        defaultIntervalDays,
        adaptive,
        lambda0 * realDaysPerSimDay,
        1.0 / realDaysPerSimDay,
        pages / budgetPerSecond / 60,
        TRANSFER);
  }

  /** This tuning with the job handing back {@code keys} ({@code recrawl.metadata.transfer}). */
  LiveTuning withTransfer(List<String> keys) {
    return new LiveTuning(
        budgetPerSecond,
        secondsPerDay,
        crawlsPerDay,
        defaultIntervalDays,
        adaptive,
        thetaRealDays,
        priorRatePerRealDay,
        budgetIntervalRealMinutes,
        List.copyOf(keys));
  }

  /** Simulated days as StormCrawler's whole minutes of the simulated day. */
  static int minutes(double simulatedDays) {
    return (int) Math.max(1, Math.round(simulatedDays * 1440));
  }

  /** StormCrawler's settings as the run uses them, in minutes of the simulated day. */
  String peerSettings() {
    return String.format(
        Locale.ROOT,
        "DefaultScheduler every %d min; AdaptiveScheduler default %d, min %d, max %d min, incr %s,"
            + " decr %s",
        minutes(defaultIntervalDays),
        minutes(adaptive.defaultDays()),
        minutes(adaptive.minDays()),
        minutes(adaptive.maxDays()),
        adaptive.incr(),
        adaptive.decr());
  }

  /** The job's floor, in CrawlValueScheduler's real minutes. */
  static double floorRealMinutes() {
    return FLOOR_SECONDS / 60;
  }
}
