package io.recrawl.flink.tools.frontier;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The first due times of one host's imported pages: each page's next fetch date, spread so that the
 * host is never asked for more than its limit when the job starts.
 *
 * <p>The rule. Pages whose next fetch date has passed (at or before the import's clock) come first,
 * in value order (the engine's crawl value now, highest first; then weight, then the older date,
 * then the URL); the others follow in next-fetch-date order (then value, then URL). Walking them in
 * that order, each page takes the due bucket ({@code recrawl.engine.due.bucket}) of its date, or
 * the bucket the walk has reached if that is later; a bucket takes at most as many pages as the
 * host may be sent in one bucket ({@code bucket / spacing}, at least one), and a host slower than
 * one page a bucket moves on by as many buckets as one spacing spans. A page's due time is its
 * date, or its bucket's start if that is later (the import's clock for overdue pages). Pages with
 * no next fetch date are not planned.
 *
 * <p>Why buckets: the engine wakes a host at the end of a due bucket and releases what has fallen
 * due best first, one per spacing. A bucket of a host then holds no more than it can send in a
 * bucket's time, so pages go out in their dates' order at the host's pace; and a due time that an
 * export writes as its bucket's start is spread into the same bucket on a re-import.
 */
public final class Spreading {

  /** One page to plan. */
  public record Page(long nextFetch, double value, double weight, String url) {}

  /**
   * The plan: {@code due[i]} for page i, and the pages in the rule's order (the engine's order
   * within a bucket is the order they are planned in).
   */
  public record Plan(int[] order, long[] due) {}

  private Spreading() {}

  /**
   * The due times of {@code pages}; {@link FrontierRow#NEVER} for a page with no next fetch date.
   *
   * @param now the import's clock
   * @param bucketMs the engine's due bucket
   * @param spacingMs the host's spacing between two releases
   */
  public static Plan plan(Page[] pages, long now, long bucketMs, long spacingMs) {
    Integer[] order = new Integer[pages.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Comparator<Integer> overdueFirst =
        Comparator.comparing((Integer i) -> pages[i].nextFetch() > now);
    Comparator<Integer> byValue =
        Comparator.comparingDouble((Integer i) -> -pages[i].value())
            .thenComparingDouble(i -> -pages[i].weight());
    Comparator<Integer> byDate = Comparator.comparingLong(i -> pages[i].nextFetch());
    Comparator<Integer> byUrl = Comparator.comparing(i -> pages[i].url());
    Arrays.sort(
        order,
        overdueFirst.thenComparing(
            (a, b) ->
                pages[a].nextFetch() <= now
                    ? byValue.thenComparing(byDate).thenComparing(byUrl).compare(a, b)
                    : byDate.thenComparing(byValue).thenComparing(byUrl).compare(a, b)));
    long perBucket = Math.max(1, bucketMs / Math.max(1, spacingMs));
    long step = Math.max(1, (spacingMs + bucketMs - 1) / bucketMs);
    long[] due = new long[pages.length];
    long bucket = Long.MIN_VALUE;
    long taken = 0;
    for (int i : order) {
      long date = pages[i].nextFetch();
      if (date == FrontierRow.NEVER) {
        due[i] = FrontierRow.NEVER;
        continue;
      }
      long at = Math.max(date, now);
      long own = Math.floorDiv(at, bucketMs);
      if (bucket == Long.MIN_VALUE) {
        bucket = own;
      } else if (taken >= perBucket) {
        bucket = Math.max(own, bucket + step);
        taken = 0;
      } else if (own > bucket) {
        bucket = own;
        taken = 0;
      }
      taken++;
      due[i] = Math.max(at, bucket * bucketMs);
    }
    int[] ordered = new int[order.length];
    for (int i = 0; i < ordered.length; i++) {
      ordered[i] = order[i];
    }
    return new Plan(ordered, due);
  }
}
