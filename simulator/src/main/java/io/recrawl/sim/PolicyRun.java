package io.recrawl.sim;

/** The measured outcome of one policy over one simulated run. */
public final class PolicyRun {
  public String policy;

  /** Sum of w x time fresh over sum of w x time, over the days after warm-up. */
  public double weightedFreshness;

  /** Fetches per day over the days after warm-up. */
  public double crawlsPerDay;

  public long politenessViolations;
  public long budgetViolations;

  /** Over limited hosts, the highest observed (1 / gap between fetches) / max_rate. */
  public double maxHostRateRatio;

  /** Pages that existed in the measured window but were not fetched in it. */
  public int neverCrawled;

  public long fetches;
  public long duplicateReleases;

  /** Releases of a page still waiting in the crawler, after the warm-up. */
  public long duplicateReleasesInWindow;

  /** The most pages waiting in the crawler at once after the warm-up. */
  public int maxQueuedInWindow;

  public long rejectedReleases;
  public double wallSeconds;
  public double bucketDays;
  public double[] freshnessSeries;

  /** Fetches per day in each bucket. */
  public double[] crawlRateSeries;

  public double[] lambda0Series;

  /** Fetches of each page in the measured window (revisit intervals = window / count). */
  public int[] fetchesInWindow;

  /** Each page's fresh time in the measured window, days (for breakdowns by host or page class). */
  public double[] freshTimeInWindow;

  /** The push-back scenario's measurements (see {@link PushBackAuditor}); null otherwise. */
  public java.util.Map<String, Object> pushBack;

  /**
   * With learned rates, the quality of the rate estimates at the end of the run (see {@link
   * EstimateQuality}): the shared estimator's ("verdicts", what the peers plan with) and, for
   * crawl-value, its engine's own ("engine"); null with oracle rates.
   */
  public java.util.Map<String, Object> estimates;

  /** Requests inside a Retry-After or back-off block (push-back scenario). */
  public long pushBackViolations;
}
