package io.recrawl.sim;

import io.recrawl.wire.StatusEvent;

/**
 * A recrawl policy under simulation. It is event-driven like the real job: it hears fetch results
 * as status events and asks to be woken at a time; when woken (or told something) it releases pages
 * through {@link SimContext#release}. It never fetches: the crawler does, within the limits.
 */
public interface SimPolicy {

  /** The name used on the command line and in results. */
  String name();

  /**
   * Called once at time 0. Pages hidden by the scenario arrive later through {@link
   * #onPagesAppeared}.
   */
  void start(SimContext ctx);

  /** When the policy wants {@link #wake} next; +infinity for never. */
  double nextWakeTime();

  /** The wake-up asked for; the policy releases what is due at {@code now}. */
  void wake(double now);

  /** A fetch result, exactly as the crawler would report it. */
  void onStatus(int page, StatusEvent event, double now);

  /** New pages exist from {@code now} on (the new-host scenario). */
  default void onPagesAppeared(int[] pages, double now) {}

  /** The change rate the policy itself plans the page with at the end of a run; NaN = none. */
  default double estimatedRate(int page) {
    return Double.NaN;
  }

  /**
   * A change signal of the signals scenario: the page discovered again with its sitemap's lastmod
   * ({@link io.recrawl.wire.StatusEvent#SIGNAL_KEY}). Only crawl-value reads them.
   */
  default void onSignal(int page, StatusEvent event, double now) {}

  /** A host's max rate changed at {@code now} (the capacity-drop scenario). */
  default void onHostLimitChanged(int host, double maxRate, double now) {}

  /** The global budget is now {@code budget} crawls a day ({@code budget-rise}). */
  default void onBudgetChanged(double budget, double now) {}

  /** The true change rates changed; only oracle policies may look (the rate-drift scenario). */
  default void onTrueRatesChanged(double now) {}

  /** Called at every whole simulated day after the first (batch policies re-plan here). */
  default void onDayBoundary(double now) {}

  /** Called once when the run is over: stop threads, drop what is big. */
  default void close() {}

  /** The policy's current global lambda, or NaN when it has none. */
  default double lambda0() {
    return Double.NaN;
  }
}
