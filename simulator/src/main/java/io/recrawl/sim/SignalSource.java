package io.recrawl.sim;

import java.util.SplittableRandom;

/**
 * The {@code signals} scenario's change signals: a share of the hosts publish a sitemap with each
 * page's {@code lastmod}, read once a day and also known to the crawler at each fetch. Hosts are of
 * three kinds: {@link Kind#TRUTHFUL} (the true time of the page's last change), {@link Kind#STALE}
 * (the sitemap is regenerated only every 1 to 7 days, the host's own lag, so a change shows late)
 * and {@link Kind#LIAR} (every entry says "now": the time of the read).
 *
 * <p>The ground truth draws only a page's first change after each fetch, so the last change before
 * an instant is simulated here, forward and consistently: from the last instant simulated, the
 * first change (if it falls in between) and then, by memorylessness, the last Poisson change in
 * what remains.
 */
final class SignalSource {

  enum Kind {
    NONE,
    TRUTHFUL,
    STALE,
    LIAR
  }

  private final GroundTruth truth;
  private final int[] hostOf;
  private final Kind[] kind;
  private final double[] lag;
  private final double[] phase;
  private final double[] last; // last change simulated (-inf: none)
  private final double[] simulatedTo;
  private final double[] reported; // what a stale host's sitemap says
  private final double[] regenerated; // when that was regenerated
  private final double[] readAt; // a liar's last read
  private final SplittableRandom random;

  /**
   * @param mix "truthful", "stale", "liars" or "mixed" (a third each)
   * @param share the share of hosts that publish signals
   */
  SignalSource(GroundTruth truth, int[] hostOf, int hosts, String mix, double share, long seed) {
    this.truth = truth;
    this.hostOf = hostOf;
    SplittableRandom hostRandom = new SplittableRandom(seed ^ 0x51C4A15L);
    kind = new Kind[hosts];
    lag = new double[hosts];
    phase = new double[hosts];
    for (int h = 0; h < hosts; h++) {
      boolean signals = hostRandom.nextDouble() < share;
      double u = hostRandom.nextDouble();
      lag[h] = 1 + 6 * hostRandom.nextDouble();
      phase[h] = lag[h] * hostRandom.nextDouble();
      if (!signals) {
        kind[h] = Kind.NONE;
        continue;
      }
      switch (mix) {
        case "truthful":
          kind[h] = Kind.TRUTHFUL;
          break;
        case "stale":
          kind[h] = Kind.STALE;
          break;
        case "liars":
          kind[h] = Kind.LIAR;
          break;
        case "mixed":
          kind[h] = u < 1 / 3.0 ? Kind.TRUTHFUL : u < 2 / 3.0 ? Kind.STALE : Kind.LIAR;
          break;
        default:
          throw new IllegalArgumentException(
              "--signals must be truthful, stale, liars or mixed; got '" + mix + "'");
      }
    }
    int pages = hostOf.length;
    last = new double[pages];
    simulatedTo = new double[pages];
    reported = new double[pages];
    regenerated = new double[pages];
    readAt = new double[pages];
    java.util.Arrays.fill(last, Double.NEGATIVE_INFINITY);
    java.util.Arrays.fill(reported, Double.NEGATIVE_INFINITY);
    java.util.Arrays.fill(regenerated, Double.NEGATIVE_INFINITY);
    java.util.Arrays.fill(readAt, Double.NEGATIVE_INFINITY);
    random = new SplittableRandom(seed ^ 0x1A57L);
  }

  boolean signals(int page) {
    return kind[hostOf[page]] != Kind.NONE;
  }

  Kind kind(int host) {
    return kind[host];
  }

  /**
   * Simulates the page's changes up to {@code t}; call before the ground truth's fetch at {@code
   * t}, which draws a new first change.
   */
  void advance(int page, double t) {
    double from = simulatedTo[page];
    if (t <= from) {
      return;
    }
    double start = from;
    if (truth.fetched(page)) {
      double first = truth.firstChangeAfterFetch(page);
      if (first > t) {
        simulatedTo[page] = t;
        return;
      }
      if (first > from) {
        last[page] = first;
        start = first;
      }
    }
    double r = truth.rate(page);
    if (r > 0) {
      double x = t + Math.log(1 - random.nextDouble()) / r;
      if (x > start) {
        last[page] = x;
      }
    }
    simulatedTo[page] = t;
  }

  /** The page's lastmod as its sitemap says at {@code t}, days; NaN when it says nothing yet. */
  double lastmod(int page, double t) {
    int h = hostOf[page];
    switch (kind[h]) {
      case TRUTHFUL:
        advance(page, t);
        return Double.isInfinite(last[page]) ? Double.NaN : last[page];
      case STALE:
        {
          double regen = Math.floor((t - phase[h]) / lag[h]) * lag[h] + phase[h];
          if (regen > regenerated[page] && regen <= t) {
            advance(page, regen);
            if (simulatedTo[page] <= regen || last[page] <= regen) {
              reported[page] = last[page];
            }
            regenerated[page] = regen;
          }
          return Double.isInfinite(reported[page]) ? Double.NaN : reported[page];
        }
      case LIAR:
        return Double.isInfinite(readAt[page]) ? Double.NaN : readAt[page];
      default:
        return Double.NaN;
    }
  }

  /** A read of the sitemap at {@code t}: the lastmod it says now (a liar's is {@code t}). */
  double read(int page, double t) {
    if (kind[hostOf[page]] == Kind.LIAR) {
      readAt[page] = t;
    }
    return lastmod(page, t);
  }
}
