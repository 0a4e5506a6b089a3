package io.recrawl.engine;

/**
 * What the scheduler remembers about one host: its rate limit, pacing, demand curve and the heads
 * of its two slot queues (due and ready).
 */
public final class HostState {

  /** Rate limit from a control-stream override, crawls per day; 0 = none. */
  public double overrideRate;

  /** Rate limit from the host's robots.txt crawl-delay, crawls per day; 0 = none. */
  public double evidenceRate;

  /** Until when the crawl-delay rate holds, epoch ms (robots.txt is re-read about daily). */
  public long evidenceUntil;

  /**
   * The host's capacity as its behaviour shows it (push-back, response times), crawls per day; 0 =
   * no sign of a limit below the configured one.
   */
  public double capacityRate;

  /** When the capacity last moved, epoch ms: it steps at most once an hour. */
  public long capacityStepAt;

  /** Nothing is released to the host before this time, epoch ms (Retry-After, back-off, outage). */
  public long blockedUntil;

  /**
   * Nothing is released before this time either: a crawl-delay above the maximum, or longer than
   * {@code host.min-rate} allows, parks the host; 0 = not parked.
   */
  public long parkedUntil;

  /** Push-backs in a row (429, 503, outage): the exponent of the next back-off. */
  public int pushBacks;

  /** Successful fetches since the last push-back; enough of them forgive it. */
  public int fetchesSincePushBack;

  /** Time of the last push-back, epoch ms; a quiet period after it forgives it too. */
  public long lastPushBack;

  /**
   * The host's last fetch outcomes, newest in bit 0: 1 = the host did not answer (a connection
   * failure or a 5xx), 0 = it answered. {@link #outcomeCount} of them are valid (at most 16).
   */
  public int recentOutcomes;

  public int outcomeCount;

  /** Response times, ms: a fast-moving average and the slow baseline it is compared with. */
  public float responseTimeRecent;

  public float responseTimeBaseline;

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

  /**
   * Trust in the host's change signals ({@link io.recrawl.estimate.SignalTrust}): of its "changed
   * since your last fetch" claims checked by a fetch, how many held and how many were made; the
   * same for its "unchanged since" claims. All 0 for a host that sends no signals.
   */
  public float signalChangedHeld;

  public float signalChangedMade;
  public float signalUnchangedHeld;
  public float signalUnchangedMade;

  /** Pages waiting for their due time, by time bucket. */
  public SlotQueues due = new SlotQueues();

  /** Pages that are due and wait for a dispatch slot, by crawl value bucket. */
  public SlotQueues ready = new SlotQueues();

  public HostState() {}
}
