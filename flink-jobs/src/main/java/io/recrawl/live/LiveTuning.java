package io.recrawl.live;

import java.util.Locale;
import java.util.Optional;

/**
 * How each system is set to spend the same budget, in StormCrawler's units where it has its own: a
 * global budget for the job, whole minutes for StormCrawler's intervals, a threshold in real days
 * for the stand-alone CrawlValueScheduler.
 *
 * @param budgetPerSecond fetches a second, the budget of every system
 * @param crawlsPerDay the job's budget, crawls a (real) day
 * @param defaultMinutes DefaultScheduler's {@code fetchInterval.default}: pages / budget, rounded
 * @param adaptiveMinMinutes AdaptiveScheduler's minimum: its default's ratio (60 / 1440), at least
 *     1
 * @param adaptiveMaxMinutes AdaptiveScheduler's maximum: its default's ratio (20160 / 1440)
 * @param thetaRealDays CrawlValueScheduler's threshold: the optimum's price in real days
 * @param priorRatePerRealDay the estimators' prior change rate, 1 a simulated day, in real days
 */
record LiveTuning(
    double budgetPerSecond,
    double crawlsPerDay,
    int defaultMinutes,
    int adaptiveMinMinutes,
    int adaptiveMaxMinutes,
    double thetaRealDays,
    double priorRatePerRealDay,
    double effectiveDefaultBudget) {

  static LiveTuning of(int pages, double budgetPerSecond, double secondsPerDay, double lambda0) {
    double exactMinutes = pages / budgetPerSecond / 60;
    int minutes = (int) Math.max(1, Math.round(exactMinutes));
    int min = (int) Math.max(1, Math.round(minutes * 60.0 / 1440));
    int max = (int) Math.max(minutes, Math.round(minutes * 20160.0 / 1440));
    double realDaysPerSimDay = secondsPerDay / 86_400;
    return new LiveTuning(
        budgetPerSecond,
        budgetPerSecond * 86_400,
        minutes,
        min,
        max,
        lambda0 * realDaysPerSimDay,
        1.0 / realDaysPerSimDay,
        pages / (minutes * 60.0));
  }

  /** A warning when whole minutes move DefaultScheduler's spend more than 5 % off the budget. */
  Optional<String> roundingWarning() {
    double off = effectiveDefaultBudget / budgetPerSecond - 1;
    if (Math.abs(off) <= 0.05) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            Locale.ROOT,
            "warning: fetchInterval.default is in whole minutes: %d min spends %.2f fetches/s, %+.0f %%"
                + " off the budget of %.2f; choose --budget or --pages so that pages / budget is a"
                + " whole number of minutes",
            defaultMinutes,
            effectiveDefaultBudget,
            100 * off,
            budgetPerSecond));
  }
}
