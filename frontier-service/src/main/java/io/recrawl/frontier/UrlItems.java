package io.recrawl.frontier;

import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.PageKeys;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A URL Frontier item as the job's status event. A discovered item is DISCOVERED; a known item is
 * the outcome of its fetch, read from the metadata StormCrawler's URL Frontier status updater
 * sends: its {@code fetch.statusCode}, or the error keys when the fetch got no answer. A known item
 * whose {@code refetchable_from_date} is 0 is never to be fetched again: ERROR. The change evidence
 * ({@code signature}, ETag, Last-Modified, Date) travels in the metadata as the job reads it, and
 * {@code recrawl.weight} is the page's weight.
 */
final class UrlItems {

  /** StormCrawler's metadata keys of a fetch that got no HTTP answer. */
  static final List<String> ERROR_KEYS = List.of("error.cause", "fetch.exception");

  private UrlItems() {}

  /** The item's URL. */
  static String url(URLItem item) {
    return info(item).getUrl();
  }

  /** The item's crawl; the default crawl for an empty one. */
  static String crawl(URLItem item) {
    return PageKeys.crawlOrDefault(info(item).getCrawlID());
  }

  /**
   * The item as a status event at {@code now}, epoch ms, in its crawl (the event's URL is the page
   * key, see {@link PageKeys}); the codec checks it. In the {@code client} mode a known item's
   * refetch date travels as {@link StatusEvent#REFETCH_AT_KEY}, which the job keeps, and only a
   * date of 0 makes a page ERROR.
   */
  static StatusEvent toEvent(URLItem item, long now, FrontierSettings.RefetchMode mode) {
    URLInfo info = info(item);
    Map<String, List<String>> md = new LinkedHashMap<>();
    for (Map.Entry<String, StringList> e : info.getMetadataMap().entrySet()) {
      md.put(e.getKey(), List.copyOf(e.getValue().getValuesList()));
    }
    md.remove(StatusEvent.REFETCH_AT_KEY); // only the client mode sets it
    long refetchFrom = item.hasKnown() ? item.getKnown().getRefetchableFromDate() : 0;
    CrawlStatus status =
        item.hasDiscovered()
            ? CrawlStatus.DISCOVERED
            : refetchFrom == 0 ? CrawlStatus.ERROR : fetchStatus(md);
    if (mode == FrontierSettings.RefetchMode.CLIENT && refetchFrom > 0) {
      md.put(StatusEvent.REFETCH_AT_KEY, List.of(Long.toString(refetchFrom * 1_000)));
      if (status == CrawlStatus.ERROR) {
        // The client's date decides here: a 404 it wants again at a date is not gone (ERROR is
        // the job's "never"), or the job would report it gone and release it at the date.
        status = CrawlStatus.FETCHED;
      }
    }
    return new StatusEvent(
        PageKeys.of(crawl(item), info.getUrl()), "", status, now, md, null, weight(md), null);
  }

  /**
   * The page's weight, from {@code recrawl.weight} as a seed line gives it (the last value), or
   * null: a client that sets it on a discovery (or on a fetch, to change it) weighs its pages as
   * the job's seed file does; the codec refuses one that is not above zero.
   *
   * @throws IllegalArgumentException it is not a number
   */
  static Double weight(Map<String, List<String>> md) {
    List<String> w = md.get(StatusEventCodec.WEIGHT_KEY);
    if (w == null || w.isEmpty()) {
      return null;
    }
    String v = w.get(w.size() - 1).strip();
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "bad_weight: '" + StatusEventCodec.WEIGHT_KEY + "' must be a number, got '" + v + "'");
    }
  }

  /** A fetch's status from its metadata, as StormCrawler's fetcher sets it. */
  static CrawlStatus fetchStatus(Map<String, List<String>> md) {
    List<String> code = md.get(StatusEvent.STATUS_CODE_KEY);
    if (code == null || code.isEmpty()) {
      for (String key : ERROR_KEYS) {
        if (md.containsKey(key)) {
          return CrawlStatus.FETCH_ERROR;
        }
      }
      return CrawlStatus.FETCHED;
    }
    int c;
    try {
      c = Integer.parseInt(code.get(code.size() - 1).trim());
    } catch (NumberFormatException e) {
      return CrawlStatus.FETCH_ERROR;
    }
    if ((c >= 200 && c < 300) || c == 304) {
      return CrawlStatus.FETCHED;
    }
    if (c >= 300 && c < 400) {
      return CrawlStatus.REDIRECTION;
    }
    if (c == 429 || c >= 500 || c < 100) {
      return CrawlStatus.FETCH_ERROR; // worth trying again: the server or the network failed
    }
    return CrawlStatus.ERROR; // the page is not there for this crawler (404, 410, 403, ...)
  }

  /** A released page as URL Frontier's {@code URLInfo}, without the job's own metadata keys. */
  static URLInfo info(String pageKey, String host, Map<String, List<String>> metadata) {
    URLInfo.Builder b =
        URLInfo.newBuilder()
            .setUrl(PageKeys.url(pageKey))
            .setKey(host)
            .setCrawlID(PageKeys.crawl(pageKey));
    if (metadata != null) {
      for (Map.Entry<String, List<String>> e : metadata.entrySet()) {
        if (e.getKey().equals(StatusEvent.REFETCH_AT_KEY)) {
          continue; // the job's own: the date is the item's
        }
        b.putMetadata(e.getKey(), StringList.newBuilder().addAllValues(e.getValue()).build());
      }
    }
    return b.build();
  }

  private static URLInfo info(URLItem item) {
    return item.hasDiscovered() ? item.getDiscovered().getInfo() : item.getKnown().getInfo();
  }
}
