package io.recrawl.wire;

/**
 * A question to the job's state, or a change of it, from a front end such as the URL Frontier
 * service. It travels on the control topic ({@code type: query}) and is answered once the job's
 * event time has passed its {@link #time}: by then every status sent before it has been applied.
 * The subtask that owns {@link #host} answers a query for one host; every subtask answers one for
 * all hosts, each for its own ({@link QueryAnswer#parts}).
 *
 * @param id the correlation id the answers carry
 * @param op what is asked
 * @param time when it was asked, epoch ms (event time)
 * @param crawl the crawl, null = every crawl (see {@link PageKeys})
 * @param host the host key, null = every host
 * @param url the URL, for {@link Op#URL_STATUS}
 * @param start the first result, for lists
 * @param size at most this many results, for lists
 * @param includeInactive lists: also hosts with nothing due
 * @param until {@link Op#BLOCK_HOST}: the end of the block, epoch ms
 * @param filter {@link Op#COUNT_URLS} and {@link Op#LIST_URLS}: only URLs that contain it; null =
 *     all
 * @param ignoreCase whether the filter ignores case
 * @param after lists by cursor, {@code start} 0: {@link Op#LIST_URLS}, only pages after this
 *     position ({@link #cursor(String, String)}), in the order of host key then page key; {@link
 *     Op#LIST_HOSTS}, only host keys after this one; null = by {@code start}
 */
public record StateQuery(
    String id,
    Op op,
    long time,
    String crawl,
    String host,
    String url,
    long start,
    long size,
    boolean includeInactive,
    long until,
    String filter,
    boolean ignoreCase,
    String after) {

  /** The most results one answer lists. */
  public static final int MAX_RESULTS = 1_000;

  /** What a query asks. */
  public enum Op {
    /** Pages, pages in flight and hosts of a crawl (or one host). */
    STATS,
    /** Host keys in key order, paginated. */
    LIST_HOSTS,
    /** The crawls that have pages. */
    LIST_CRAWLS,
    /** Pages, optionally filtered. */
    COUNT_URLS,
    /** One page. */
    URL_STATUS,
    /** Pages, paginated. */
    LIST_URLS,
    /** Removes the pages of a crawl on one host; answers how many. */
    DELETE_HOST,
    /** Removes the pages of a crawl on every host; answers how many. */
    DELETE_CRAWL,
    /** Nothing goes to the host before {@link #until}, as after a Retry-After. */
    BLOCK_HOST;

    /** Whether the query changes state. */
    public boolean changes() {
      return this == DELETE_HOST || this == DELETE_CRAWL || this == BLOCK_HOST;
    }

    /** Whether one host is named, so that one subtask answers. */
    public boolean needsHost() {
      return this == URL_STATUS || this == DELETE_HOST || this == BLOCK_HOST;
    }
  }

  public StateQuery {
    if (id == null || op == null) {
      throw new IllegalArgumentException("a query needs an id and an op");
    }
    if (op.needsHost() && host == null) {
      throw new IllegalArgumentException(op + " needs a host");
    }
    if (op == Op.URL_STATUS && url == null) {
      throw new IllegalArgumentException("URL_STATUS needs a url");
    }
    if (start < 0 || size < 0 || start + size > MAX_RESULTS) {
      throw new IllegalArgumentException(
          "start and size must be >= 0 and start + size at most " + MAX_RESULTS);
    }
  }

  /**
   * The status of one URL; its host is the URL's, which the reader keys ({@code ""} until then).
   */
  public static StateQuery urlStatus(String id, long time, String crawl, String url) {
    return new StateQuery(
        id, Op.URL_STATUS, time, crawl, "", url, 0, 0, false, 0, null, false, null);
  }

  /** A query of {@code op} with no list, filter or block parameters. */
  public static StateQuery of(String id, Op op, long time, String crawl, String host) {
    return new StateQuery(id, op, time, crawl, host, null, 0, 0, false, 0, null, false, null);
  }

  /** Whether {@code other} asks what this query asks: the same, its id and time apart. */
  public boolean asksAs(StateQuery other) {
    return withIdAndTime("", 0).equals(other.withIdAndTime("", 0));
  }

  private StateQuery withIdAndTime(String newId, long newTime) {
    return new StateQuery(
        newId,
        op,
        newTime,
        crawl,
        host,
        url,
        start,
        size,
        includeInactive,
        until,
        filter,
        ignoreCase,
        after);
  }

  /** This query listing {@code size} results from {@code start}. */
  public StateQuery listing(long from, long count, boolean inactiveToo) {
    return new StateQuery(
        id, op, time, crawl, host, url, from, count, inactiveToo, until, filter, ignoreCase, after);
  }

  /** This query of the URLs that contain {@code text} (null = all). */
  public StateQuery filtered(String text, boolean anyCase) {
    return new StateQuery(
        id, op, time, crawl, host, url, start, size, includeInactive, until, text, anyCase, after);
  }

  /** This query with {@link #until}. */
  public StateQuery until(long end) {
    return new StateQuery(
        id,
        op,
        time,
        crawl,
        host,
        url,
        start,
        size,
        includeInactive,
        end,
        filter,
        ignoreCase,
        after);
  }

  /** The position just after page {@code pageKey} of host {@code host}; ("", "") is the start. */
  public static String cursor(String host, String pageKey) {
    return host + '\n' + pageKey;
  }

  /** This list, {@code count} results after {@code position} (see {@link #after()}). */
  public StateQuery after(String position, long count) {
    return new StateQuery(
        id,
        op,
        time,
        crawl,
        host,
        url,
        0,
        count,
        includeInactive,
        until,
        filter,
        ignoreCase,
        position);
  }

  /** Whether a URL passes the filter. */
  public boolean matches(String url) {
    if (filter == null || filter.isEmpty()) {
      return true;
    }
    return ignoreCase
        ? url.toLowerCase(java.util.Locale.ROOT).contains(filter.toLowerCase(java.util.Locale.ROOT))
        : url.contains(filter);
  }
}
