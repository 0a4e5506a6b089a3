package io.recrawl.live;

import io.recrawl.sim.workload.WorkloadGenerator;

/**
 * What the changing web of the live benchmark is made of. The pages come from the simulator's
 * workload generator; the rest says how its hosts behave. Every field has a default, and {@link
 * #validate()} names the flag of a bad one.
 */
public final class LiveWebOptions {

  /**
   * The pages: family, pages, hosts, seed (its constrained fraction is {@link #crawlDelayShare}).
   */
  public WorkloadGenerator.Options workload = defaultWorkload();

  /**
   * A workload with observed changes ({@code changes.csv}, from {@code workload import --git} or
   * {@code --cdx}) whose pages, weights, host limits and change times the web serves instead of a
   * generated one; null = generate. Its day 0 is the run's start.
   */
  public java.nio.file.Path history;

  /** Time compression: one simulated day of the workload's rates lasts this many seconds. */
  public double secondsPerDay = 20;

  /** Change times are drawn over [0, duration] seconds after the web starts. */
  public double durationSeconds = 780;

  /** Share of hosts that send ETag and Last-Modified and answer conditional requests with 304. */
  public double validatorShare = 0.5;

  /** Share of hosts that answer slowly ({@link #slowMillis}). */
  public double slowShare = 0.1;

  /** How long a slow host takes to answer, in milliseconds. */
  public int slowMillis = 2_000;

  /** Share of hosts that push back: spells of 429 or 503 answers, each with a Retry-After. */
  public double pushyShare = 0.1;

  /** Spells per pushy host over the duration, and their length range in seconds. */
  public int spellsPerHost = 2;

  public double spellMinSeconds = 10;
  public double spellMaxSeconds = 40;

  /**
   * Share of hosts whose robots.txt sets a Crawl-delay: the workload's limited hosts, whose limit
   * in crawls per simulated day becomes a delay of secondsPerDay / limit seconds (whole seconds,
   * within [2, 30]: StormCrawler skips hosts that ask for more than 30 s by default).
   */
  public double crawlDelayShare = 0.3;

  /**
   * How long every page answer takes, ms (0: at once), on top of a slow host's own time. With it a
   * crawler of fixed fetch threads fetches at most threads / latency a second: the crawler's
   * capacity ({@code --capacity-spell} sets it).
   */
  public int latencyMillis;

  /**
   * A spell, [from, to] seconds after the start, during which every page answer takes twice {@link
   * #latencyMillis}: the crawler's capacity halves at its start and doubles back at its end. Null:
   * none.
   */
  public double[] capacitySpell;

  /** How long a page answer takes at {@code t} ms after the start, ms. */
  public int latencyAt(long t) {
    boolean slow =
        capacitySpell != null && t >= capacitySpell[0] * 1_000 && t < capacitySpell[1] * 1_000;
    return slow ? 2 * latencyMillis : latencyMillis;
  }

  private static WorkloadGenerator.Options defaultWorkload() {
    WorkloadGenerator.Options o = new WorkloadGenerator.Options();
    o.pages = 1_200;
    o.hosts = 40;
    return o;
  }

  /** Throws IllegalArgumentException naming the flag of the first bad value. */
  public void validate() {
    require(secondsPerDay > 0 && Double.isFinite(secondsPerDay), "--seconds-per-day must be > 0");
    require(durationSeconds > 0 && Double.isFinite(durationSeconds), "--minutes must be > 0");
    require(share(validatorShare), "--validator-share must be in [0, 1]");
    require(share(slowShare), "--slow-share must be in [0, 1]");
    require(slowMillis >= 0 && slowMillis <= 8_000, "--slow-millis must be in [0, 8000]");
    require(share(pushyShare), "--pushy-share must be in [0, 1]");
    require(spellsPerHost >= 0, "--spells-per-host must be >= 0");
    require(
        spellMinSeconds >= 1 && spellMaxSeconds >= spellMinSeconds,
        "--spell-seconds must be at least 1 and min <= max");
    require(share(crawlDelayShare), "--crawl-delay-share must be in [0, 1]");
    require(workload.pages <= 1_000_000, "--pages must be at most 1000000");
    require(latencyMillis >= 0 && latencyMillis <= 10_000, "--latency must be in [0, 10000] ms");
    require(
        capacitySpell == null
            || (capacitySpell.length == 2
                && capacitySpell[0] >= 0
                && capacitySpell[1] > capacitySpell[0]
                && capacitySpell[1] <= durationSeconds),
        "--capacity-spell must be FROM-TO seconds, 0 <= FROM < TO <= the run's length");
  }

  private static boolean share(double s) {
    return s >= 0 && s <= 1;
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
