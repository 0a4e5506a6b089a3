package io.recrawl.flink.tools.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The rule that spreads a host's imported pages over due buckets. */
class SpreadingTest {

  static final long MIN = 60_000L;
  static final long NOW = 1_000 * MIN + 17_000; // not on a bucket's start

  private static Spreading.Page page(long next, double value, String url) {
    return new Spreading.Page(next, value, 1.0, url);
  }

  @Test
  void overduePagesGoFirstInValueOrderThenFutureInDateOrder() {
    Spreading.Page[] pages = {
      page(NOW + 5 * MIN, 1, "f2"),
      page(NOW - 10 * MIN, 2, "o-low"),
      page(NOW + 2 * MIN, 9, "f1"),
      page(NOW - 1, Double.POSITIVE_INFINITY, "o-top"),
      page(NOW - 99 * MIN, 5, "o-mid"),
      page(FrontierRow.NEVER, 100, "never"),
    };
    Spreading.Plan plan = Spreading.plan(pages, NOW, MIN, 1_000);
    String[] order = new String[pages.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = pages[plan.order()[i]].url();
    }
    assertThat(order).startsWith("o-top", "o-mid", "o-low", "f1", "f2");
    assertThat(plan.due()[3]).isEqualTo(NOW); // overdue: now
    assertThat(plan.due()[2]).isEqualTo(NOW + 2 * MIN); // on time: its own date
    assertThat(plan.due()[5]).isEqualTo(FrontierRow.NEVER);
  }

  /** No bucket of a host holds more than it may be sent in a bucket; no page before its date. */
  @Test
  void noBucketOverTheHostsLimit() {
    Random r = new Random(7);
    for (long spacing : new long[] {1_000, 7_000, MIN, 150_000}) {
      Spreading.Page[] pages = new Spreading.Page[3_000];
      for (int i = 0; i < pages.length; i++) {
        pages[i] = page(NOW + (r.nextInt(200) - 100) * MIN / 4, r.nextDouble(), "u" + i);
      }
      Spreading.Plan plan = Spreading.plan(pages, NOW, MIN, spacing);
      Map<Long, Integer> perBucket = new HashMap<>();
      long lastBucket = Long.MIN_VALUE;
      for (int i : plan.order()) {
        long due = plan.due()[i];
        assertThat(due).isGreaterThanOrEqualTo(Math.max(NOW, pages[i].nextFetch()));
        long b = due / MIN;
        assertThat(b).isGreaterThanOrEqualTo(lastBucket); // the order is the buckets' order
        if (spacing > MIN && lastBucket != Long.MIN_VALUE) {
          assertThat((b - lastBucket) * MIN).isGreaterThanOrEqualTo(spacing);
        }
        lastBucket = b;
        perBucket.merge(b, 1, Integer::sum);
      }
      long cap = Math.max(1, MIN / spacing);
      assertThat(perBucket.values()).allMatch(n -> n <= cap);
    }
  }

  /** A due time exported as its bucket's start is spread into the same bucket again. */
  @Test
  void bucketStartsSpreadIntoTheSameBuckets() {
    Random r = new Random(3);
    Spreading.Page[] pages = new Spreading.Page[500];
    for (int i = 0; i < pages.length; i++) {
      pages[i] = page(NOW + (r.nextInt(40) - 20) * MIN / 3, r.nextInt(5), "u" + i);
    }
    Spreading.Plan first = Spreading.plan(pages, NOW, MIN, 1_000);
    Spreading.Page[] again = new Spreading.Page[pages.length];
    for (int i = 0; i < pages.length; i++) {
      long start = first.due()[i] / MIN * MIN;
      again[i] = page(start, pages[i].value(), pages[i].url());
    }
    Spreading.Plan second = Spreading.plan(again, NOW, MIN, 1_000);
    for (int i = 0; i < pages.length; i++) {
      assertThat(second.due()[i] / MIN).as(pages[i].url()).isEqualTo(first.due()[i] / MIN);
    }
  }
}
