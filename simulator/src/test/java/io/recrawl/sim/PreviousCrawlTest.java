package io.recrawl.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.recrawl.sim.policy.CrawlValuePolicy;
import io.recrawl.sim.policy.Policies;
import io.recrawl.sim.workload.Workload;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A run that takes over a crawl under way ({@code --start crawled}). */
class PreviousCrawlTest {

  @Test
  void eachPageWasLastFetchedWithinOneIntervalOfTheCrawlBefore() {
    // 400 pages on 4 hosts, one limited to 10 a day; budget 100 a day. The crawl before visited
    // the limited host's 100 pages every 10 days and the 300 others within the 90 a day left.
    Workload base = SimTestWorkloads.uniform(400, 4, 0.5);
    double[] limits = {
      10, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY
    };
    String[] urls = new String[400];
    Arrays.setAll(urls, base::url);
    Workload w =
        new Workload(urls, base.hostIndex(), base.weights(), base.changeRates(), names(4), limits);
    double[] last = PreviousCrawl.of(w, limits, 100, p -> true, 7).lastFetch();
    double[] limited =
        Arrays.stream(range(400)).filter(p -> w.hostOf(p) == 0).mapToDouble(p -> last[p]).toArray();
    double[] free =
        Arrays.stream(range(400)).filter(p -> w.hostOf(p) != 0).mapToDouble(p -> last[p]).toArray();
    assertThat(Arrays.stream(limited).min().orElseThrow()).isGreaterThanOrEqualTo(-10.0);
    assertThat(Arrays.stream(limited).max().orElseThrow()).isLessThan(0.0);
    assertThat(Arrays.stream(free).min().orElseThrow()).isGreaterThanOrEqualTo(-300 / 90.0);
    assertThat(Arrays.stream(free).max().orElseThrow()).isLessThan(0.0);
    assertThat(Arrays.stream(limited).average().orElseThrow()).isCloseTo(-5.0, offset(1.0));
    assertThat(Arrays.stream(limited).min().orElseThrow()).isLessThan(-9.0);
  }

  @Test
  void aCrawlTakenOverIsFreshFromDayZeroAndAnEmptyOneIsNot() {
    // Pages that never change and a policy that never fetches: only the crawl before counts.
    Simulator.Config cfg =
        SimTestWorkloads.config(SimTestWorkloads.uniform(200, 5, 0.0), 100, 10, 0);
    assertThat(new Simulator(cfg).run(new FixedIntervalPolicy(Double.POSITIVE_INFINITY)))
        .extracting(r -> r.weightedFreshness)
        .isEqualTo(0.0);
    cfg.start = Start.CRAWLED;
    PolicyRun run = new Simulator(cfg).run(new FixedIntervalPolicy(Double.POSITIVE_INFINITY));
    assertThat(run.weightedFreshness).isCloseTo(1.0, offset(1e-12));
    assertThat(run.fetches).isZero();
  }

  @Test
  void everyPolicyStartsFromTheLastFetchesOfTheCrawlItTakesOver() {
    // Learned rates, day 1 of a crawl taken over: each policy leaves the copies fetched in the
    // last hours alone far more than the same policy not told of the last fetches does.
    Workload w = SimTestWorkloads.generated(6_000, 40, 5);
    Simulator.Config cfg = takenOver(w, Start.CRAWLED);
    double[] last = previousCrawl(w, cfg).lastFetch();
    int[] recent = Arrays.stream(range(w.pages())).filter(p -> last[p] > -0.1).toArray();
    assertThat(recent.length).isGreaterThan(100);
    for (String name : Policies.NAMES) {
      PolicyRun told = new Simulator(cfg).run(Policies.create(name));
      PolicyRun blind = new Simulator(cfg).run(blind(Policies.create(name)));
      assertThat(told.politenessViolations + told.budgetViolations).as(name).isZero();
      double blindShare = share(recent, blind.fetchesInWindow);
      assertThat(blindShare).as(name).isGreaterThan(0.05);
      assertThat(share(recent, told.fetchesInWindow))
          .as(name + ", against %.3f not told", blindShare)
          .isLessThan(blindShare / 2);
    }
  }

  @Test
  void anImportedCrawlGoesAtItsNextFetchDatesFirst() {
    // As bin/recrawl import plans it: on day 1 crawl-value fetches only pages whose next fetch date
    // in the crawl taken over has come, and most of those.
    Workload w = SimTestWorkloads.generated(3_000, 30, 8);
    Simulator.Config cfg = takenOver(w, Start.IMPORTED);
    double[] next = previousCrawl(w, cfg).nextFetch();
    PolicyRun run = new Simulator(cfg).run(new CrawlValuePolicy());
    int[] fetched =
        Arrays.stream(range(w.pages())).filter(p -> run.fetchesInWindow[p] > 0).toArray();
    assertThat(fetched).isNotEmpty();
    assertThat(Arrays.stream(fetched).mapToDouble(p -> next[p]).max().orElseThrow())
        .isLessThanOrEqualTo(1.0);
    long due = Arrays.stream(next).filter(t -> t <= 1.0).count();
    assertThat(fetched.length).isGreaterThan((int) (0.8 * due));
    cfg.start = Start.CRAWLED; // planned by value instead: other pages go on day 1 too
    PolicyRun byValue = new Simulator(cfg).run(new CrawlValuePolicy());
    assertThat(
            Arrays.stream(range(w.pages()))
                .filter(p -> byValue.fetchesInWindow[p] > 0 && next[p] > 1.0))
        .isNotEmpty();
  }

  /** The policy, with a context that hides the last fetches before the run. */
  private static SimPolicy blind(SimPolicy policy) {
    return (SimPolicy)
        Proxy.newProxyInstance(
            SimPolicy.class.getClassLoader(),
            new Class<?>[] {SimPolicy.class},
            (proxy, method, args) -> {
              if (method.getName().equals("start")) {
                SimContext ctx = (SimContext) args[0];
                args[0] =
                    Proxy.newProxyInstance(
                        SimContext.class.getClassLoader(),
                        new Class<?>[] {SimContext.class},
                        (p, m, a) ->
                            m.getName().equals("previousFetch") ? Double.NaN : m.invoke(ctx, a));
              }
              return method.invoke(policy, args);
            });
  }

  /** The share of {@code pages} fetched at least once. */
  private static double share(int[] pages, int[] fetches) {
    return Arrays.stream(pages).filter(p -> fetches[p] > 0).count() / (double) pages.length;
  }

  private static int[] range(int n) {
    int[] r = new int[n];
    Arrays.setAll(r, i -> i);
    return r;
  }

  private static String[] names(int hosts) {
    String[] n = new String[hosts];
    Arrays.setAll(n, h -> "h" + h + ".example");
    return n;
  }

  /** Day 1 of a crawl taken over as {@code start}, learned rates, a budget of 20 % of pages. */
  private static Simulator.Config takenOver(Workload w, Start start) {
    Simulator.Config cfg = SimTestWorkloads.config(w, 0.2 * w.pages(), 1, 0);
    cfg.oracleRates = false;
    cfg.start = start;
    return cfg;
  }

  /** The crawl the run takes over, as the simulator draws it. */
  private static PreviousCrawl previousCrawl(Workload w, Simulator.Config cfg) {
    return PreviousCrawl.of(w, w.hostMaxRates(), cfg.budget, p -> true, cfg.seed);
  }
}
