package io.recrawl.engine;

/**
 * What the scheduler remembers about one host: its rate limit, pacing, demand curve and the heads
 * of its two slot queues (due and ready).
 */
public final class HostState {

  /** Rate limit from a control-stream override, crawls per day; 0 = none. */
  public double overrideRate;

  /**
   * Rate limit learned from the host's own signals (robots crawl-delay, 429, Retry-After); 0 =
   * none.
   */
  public double evidenceRate;

  /** Until when the evidence rate holds, epoch ms (a Retry-After or 429 back-off expires). */
  public long evidenceUntil;

  /** Time of the last release to this host, epoch ms; pacing counts from here. */
  public long lastRelease = Long.MIN_VALUE / 2;

  /** The wake-up the engine asked for; Long.MAX_VALUE = none. */
  public long wakeAt = Long.MAX_VALUE;

  /** Pages in state, and of those in flight. */
  public int pages;

  public int inFlight;

  /** Host demand D_i(theta) on the engine's threshold grid, crawls per day, before the rate cap. */
  public double[] curve;

  /** The rate cap with which the curve currently sits in the demand ledger; 0 = not in it. */
  public double ledgerRate;

  /**
   * Over the host's pages with change evidence (or a known rate): the sum of their estimated change
   * rates, and how many they are. Their mean is the prior of the host's other pages.
   */
  public double learnedRateSum;

  public int learnedPages;

  /**
   * {@link #learnedPages} of a host whose sums are not known (its record was restored from a build
   * before the host prior): its pages take {@code estimator.prior-rate} and the sums stay
   * untouched.
   */
  public static final int LEARNED_UNKNOWN = -1;

  /** Pages waiting for their due time, by time bucket. */
  public SlotQueues due = new SlotQueues();

  /** Pages that are due and wait for a dispatch slot, by crawl value bucket. */
  public SlotQueues ready = new SlotQueues();

  public HostState() {}
}
