package io.recrawl.frontier;

/**
 * The crawler's capacity read from its pull, as the budget that the job's global lambda controller
 * prices (docs/decisions/pull-priced-budget.md). Once a period:
 *
 * <ul>
 *   <li>most calls left URLs behind that they could have had: the crawler takes all it can, so what
 *       it took is its capacity, and the budget becomes that rate, less a drain of what clients
 *       could take within a period beyond {@link #ALLOWANCE_PERIODS} of it: released at the
 *       crawler's capacity, a backlog (the first crawl's, a burst's) would otherwise stand for
 *       good, and every URL would wait behind it. URLs that wait for their host's spacing are not
 *       counted: a host held to its limit releases at it whatever the budget, so cutting the budget
 *       for them starves the crawler and drains nothing;
 *   <li>no call came while URLs were ready: the crawler is stalled (its fetcher queues full, or
 *       down for a while), and the budget halves, not more in one period: a stalled crawler is not
 *       a crawler with no capacity;
 *   <li>most calls took everything ready: the crawler wants more than it is sent, so the budget
 *       rises by {@link #RISE}, from the rate taken if that is higher;
 *   <li>no call and nothing ready, or no client yet: no evidence, the budget stays; nor does the
 *       period in which the first client came, which it saw only in part.
 * </ul>
 *
 * The budget moves only the price: a host's pace is its own limit, whatever the budget. It never
 * exceeds {@link #CAP_FACTOR} times the fastest take of the last {@link #CAP_PERIODS} periods, so a
 * crawler held back by the hosts' limits, not by the price, does not drive it to infinity.
 */
final class PullBudget {

  /** Rise per period while the crawler takes everything ready. */
  static final double RISE = 1.25;

  /** The most a stalled period cuts the budget to, as a share of the last. */
  static final double MOST_FALL = 0.5;

  /** The budget stays within this many times the fastest recent take. */
  static final double CAP_FACTOR = 2;

  static final int CAP_PERIODS = 12;

  /**
   * URLs the outbox may hold for the next calls, in periods of what the crawler takes: enough for
   * every call to come back full and to choose among queues, a quarter of a period as the rises of
   * {@link #RISE} leave.
   */
  static final double ALLOWANCE_PERIODS = 0.25;

  /**
   * Periods over which a backlog beyond the allowance is drained, at most half the take a period.
   */
  static final double DRAIN_PERIODS = 3;

  private final double periodSeconds;
  private final double floor;
  private final double[] recent = new double[CAP_PERIODS];
  private int next;
  private double budget;
  private boolean called;

  /**
   * @param initial the budget before the first evidence, URLs a second
   * @param periodSeconds the period over which each sample was counted
   */
  PullBudget(double initial, double periodSeconds) {
    if (!(initial > 0) || !(periodSeconds > 0)) {
      throw new IllegalArgumentException(
          "a pull budget needs an initial rate and a period > 0, got "
              + initial
              + " and "
              + periodSeconds);
    }
    this.periodSeconds = periodSeconds;
    this.floor = 1 / periodSeconds; // one URL a period
    this.budget = Math.max(floor, initial);
  }

  /** One period's sample; returns the budget, URLs a second. */
  double update(PullSample s) {
    double taken = s.taken() / periodSeconds;
    recent[next] = taken;
    next = (next + 1) % CAP_PERIODS;
    if (s.calls() == 0) {
      // Before any client asked, URLs ready say nothing of a crawler: none may have started yet.
      if (called && s.readyQueues() > 0) {
        budget = Math.max(floor, MOST_FALL * budget); // stalled: not a crawler with no capacity
      }
      return budget;
    }
    if (!called) {
      // The first client came during this period: a rate over the whole of it says nothing.
      called = true;
      return budget;
    }
    if (2 * s.leftReady() > s.calls()) {
      // full: what it took is what it can take, less the drain of a backlog beyond the allowance
      double excess = Math.max(0, s.takeable() - ALLOWANCE_PERIODS * s.taken());
      double drain = Math.min(MOST_FALL * taken, excess / (DRAIN_PERIODS * periodSeconds));
      budget = Math.max(floor, taken - drain);
    } else {
      budget = Math.min(cap(), Math.max(budget, taken) * RISE);
    }
    return budget;
  }

  /** The budget, URLs a second. */
  double perSecond() {
    return budget;
  }

  private double cap() {
    double fastest = floor;
    for (double r : recent) {
      fastest = Math.max(fastest, r);
    }
    return Math.max(budget, CAP_FACTOR * fastest);
  }
}
