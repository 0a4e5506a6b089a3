package io.recrawl.crawler;

import io.recrawl.schedule.ConfReader;
import io.recrawl.schedule.DefaultConf;
import io.recrawl.schedule.PageHistory;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Turns what a StormCrawler status tuple says into the wire's {@link StatusEvent}: which metadata
 * travels, under which names the change evidence goes, and the HTTP status and weight fields.
 * Storm-free, so that it is tested without a topology.
 */
public final class StatusEvents {

  /** Keys the Flink job reads as change evidence, under the names it reads them by. */
  static final String SIGNATURE = StatusEvent.SIGNATURE_KEY;

  static final String STATUS_CODE = StatusEvent.STATUS_CODE_KEY;
  static final String ETAG = StatusEvent.ETAG_KEY;
  static final String LAST_MODIFIED = StatusEvent.LAST_MODIFIED_KEY;
  static final String DATE = StatusEvent.DATE_KEY;

  /**
   * The server's signals to slow down, under the names the job reads. StormCrawler 2.4's okhttp and
   * httpclient protocols store every response header lower-cased ({@code retry-after}), and the
   * FetcherBolt puts them under {@code protocol.md.prefix}; the name is still matched
   * case-insensitively, for protocols that keep the server's spelling.
   */
  static final String RETRY_AFTER = "protocol.retry-after";

  /**
   * robots.txt's Crawl-delay, seconds. StormCrawler 2.4 does not put it in the metadata (the
   * FetcherBolt only applies it to its queue): a value the crawler added itself is sent, otherwise
   * the one in the robots rules the protocol cached in this worker ({@link RobotsCrawlDelay}).
   */
  static final String CRAWL_DELAY = "robots.crawl.delay";

  /** Keys StormCrawler's MetadataTransfer tracks on every URL (metadata.track.path/depth). */
  private static final List<String> TRACKED = List.of("url.path", "depth", "max.depth");

  private final Set<String> carried;
  private final String weightKey;
  private final boolean setLastModified;
  private final String protocolPrefix;
  private final Function<String, Double> crawlDelay;

  /**
   * Without a robots crawl-delay lookup: only a {@code robots.crawl.delay} already in the metadata
   * is sent.
   *
   * @param transferAndPersist StormCrawler's {@code metadata.transfer} and {@code metadata.persist}
   *     lists: what an existing crawler keeps about a URL also reaches the job
   */
  public StatusEvents(CrawlerSettings settings, List<String> transferAndPersist) {
    this(settings, transferAndPersist, url -> null);
  }

  /**
   * @param transferAndPersist StormCrawler's {@code metadata.transfer} and {@code metadata.persist}
   *     lists: what an existing crawler keeps about a URL also reaches the job
   * @param crawlDelay a fetched URL's robots.txt crawl-delay in seconds, or null if unknown; asked
   *     only when the metadata has none
   */
  public StatusEvents(
      CrawlerSettings settings,
      List<String> transferAndPersist,
      Function<String, Double> crawlDelay) {
    this(
        settings.metadataKeys(),
        settings.weightKey(),
        settings.setLastModified(),
        settings.protocolPrefix(),
        transferAndPersist,
        crawlDelay);
  }

  private StatusEvents(
      List<String> metadataKeys,
      String weightKey,
      boolean setLastModified,
      String protocolPrefix,
      List<String> transferAndPersist,
      Function<String, Double> crawlDelay) {
    this.crawlDelay = crawlDelay;
    Set<String> keys = new LinkedHashSet<>(transferAndPersist);
    keys.addAll(TRACKED);
    keys.addAll(metadataKeys);
    keys.add(StatusEvent.CHANGE_RATE_KEY);
    this.carried = Collections.unmodifiableSet(keys);
    this.weightKey = weightKey;
    this.setLastModified = setLastModified;
    this.protocolPrefix = protocolPrefix;
  }

  /**
   * The events of a crawler's configuration alone, without its Kafka settings, and with the robots
   * crawl-delay this worker's protocol cached: for a status updater that sends its statuses
   * elsewhere than Kafka (urlfrontier-crawler's, to a URL Frontier server).
   */
  public static StatusEvents fromConf(Map<String, ?> conf) {
    ConfReader r = new ConfReader(conf, DefaultConf.CRAWLER);
    List<String> carried = new ArrayList<>(stormList(conf, "metadata.transfer"));
    carried.addAll(stormList(conf, "metadata.persist"));
    return new StatusEvents(
        r.list(CrawlerSettings.METADATA_KEYS),
        r.string(CrawlerSettings.WEIGHT_KEY),
        r.bool(CrawlerSettings.SET_LAST_MODIFIED),
        r.string(CrawlerSettings.PROTOCOL_PREFIX),
        carried,
        RobotsCrawlDelay::seconds);
  }

  /**
   * The event for one status tuple.
   *
   * @param status StormCrawler's status name (the same names as {@link CrawlStatus})
   * @param metadata the tuple's metadata, unfiltered
   * @param host the URL's host key
   * @param now event time: when the status bolt saw it, epoch ms (StormCrawler keeps no fetch time;
   *     the status reaches this bolt seconds after the fetch)
   */
  public StatusEvent toEvent(
      String url, String status, Map<String, String[]> metadata, String host, long now) {
    CrawlStatus s = CrawlStatus.valueOf(status);
    Map<String, List<String>> md = new LinkedHashMap<>();
    for (String key : carried) {
      copy(metadata, key, md, key);
    }
    Integer httpStatus = null;
    // A DISCOVERED outlink's metadata is its parent's transfer keys: any fetch evidence in it
    // describes the parent page, so it is not sent.
    if (s != CrawlStatus.DISCOVERED) {
      copy(metadata, SIGNATURE, md, SIGNATURE);
      copy(metadata, STATUS_CODE, md, STATUS_CODE);
      // The job reads headers under the default prefix, whatever protocol.md.prefix is.
      copy(metadata, protocolPrefix + "etag", md, ETAG);
      copy(metadata, protocolPrefix + "last-modified", md, LAST_MODIFIED);
      copy(metadata, protocolPrefix + "date", md, DATE);
      httpStatus = httpStatus(first(metadata, STATUS_CODE));
      String lastModified = first(metadata, protocolPrefix + "last-modified");
      if (lastModified == null && httpStatus != null && httpStatus == 304) {
        // A 304 need not repeat Last-Modified (RFC 9110 15.4.5): it says that the date the request
        // asked with is still the page's, and the tuple holds the request's metadata. Without
        // it, the next request would ask unconditionally.
        lastModified = first(metadata, PageHistory.IF_MODIFIED_SINCE);
      }
      String ifModifiedSince = PageHistory.ifModifiedSince(lastModified);
      if (setLastModified && ifModifiedSince != null) {
        // Sent back in a crawl request (recrawl.metadata.transfer: [last-modified]), it makes the
        // protocol ask If-Modified-Since, and an unchanged page answers 304 without a body.
        md.put(PageHistory.IF_MODIFIED_SINCE, List.of(ifModifiedSince));
      }
      // The server's own limits: 429 and 503 travel in http_status, with their Retry-After.
      copyIgnoreCase(metadata, protocolPrefix + "retry-after", md, RETRY_AFTER);
      copy(metadata, CRAWL_DELAY, md, CRAWL_DELAY);
      if (!md.containsKey(CRAWL_DELAY)) {
        Double seconds = crawlDelay.apply(url);
        if (seconds != null && seconds > 0 && Double.isFinite(seconds)) {
          md.put(CRAWL_DELAY, List.of(seconds(seconds)));
        }
      }
    }
    // A weight that is not a positive number is left out: the job keeps the page's current one.
    Double weight = PageHistory.positive(first(metadata, weightKey));
    return new StatusEvent(
        url, host, s, now, Collections.unmodifiableMap(md), null, weight, httpStatus);
  }

  /** A StormCrawler list key (a list, or one string), empty when not set. */
  private static List<String> stormList(Map<String, ?> conf, String key) {
    Object v = conf.get(key);
    if (v == null) {
      return List.of();
    }
    Collection<?> items = v instanceof Collection<?> c ? c : List.of(v);
    return items.stream().map(String::valueOf).toList();
  }

  private static void copy(
      Map<String, String[]> from, String key, Map<String, List<String>> to, String as) {
    String[] values = from.get(key);
    if (values != null && values.length > 0) {
      List<String> kept = new ArrayList<>(values.length);
      for (String v : values) {
        if (v != null) {
          kept.add(v);
        }
      }
      if (!kept.isEmpty()) {
        to.put(as, List.copyOf(kept));
      }
    }
  }

  /** Copies the first key equal to {@code key} ignoring case (the exact spelling first). */
  private static void copyIgnoreCase(
      Map<String, String[]> from, String key, Map<String, List<String>> to, String as) {
    copy(from, key, to, as);
    if (to.containsKey(as)) {
      return;
    }
    for (String k : from.keySet()) {
      if (k != null && k.equalsIgnoreCase(key)) {
        copy(from, k, to, as);
        if (to.containsKey(as)) {
          return;
        }
      }
    }
  }

  /** Seconds as the shortest text: {@code 2}, {@code 0.5}. */
  private static String seconds(double s) {
    return s == Math.rint(s) && s < 1e15 ? Long.toString((long) s) : Double.toString(s);
  }

  private static String first(Map<String, String[]> md, String key) {
    String[] v = md.get(key);
    return v == null || v.length == 0 ? null : v[0];
  }

  /** Only a code the wire accepts (100-599) is sent; anything else stays in the metadata only. */
  private static Integer httpStatus(String code) {
    if (code == null) {
      return null;
    }
    try {
      int c = Integer.parseInt(code.trim());
      return c >= 100 && c <= 599 ? c : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
