package io.recrawl.engine;

import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The status metadata a page carries into its next crawl request ({@code metadata.transfer}), as
 * StormCrawler's {@code metadata.transfer} carries it from parent to outlink.
 *
 * <p>A client's refetch date ({@link StatusEvent#REFETCH_AT_KEY}) is always kept, configured or
 * not: a front end returns it as the client gave it. It is the client's word on each status, not a
 * property of the page's copy, so it lasts until the next status: one that does not carry it (a
 * crawl whose front end was switched from the client's dates to crawl values) ends it.
 *
 * <p>Bounded, so that a crawl request always fits in a Kafka message whatever the crawler sends: a
 * value longer than {@code metadata.transfer.max-value-chars} is cut to it (never between the two
 * halves of a surrogate pair), and once the kept keys and values reach {@code
 * metadata.transfer.max-chars} (each key counting 6 characters more and each value 3 more, for
 * their quotes and separators in JSON) the further values are dropped. Keys are taken in
 * alphabetical order, so what is dropped does not depend on the JVM. Every value cut or dropped is
 * counted in the call's {@link EngineOutcome#metadataCut}.
 *
 * <p>One rule for what a status keeps: a status that brings a new copy of the page (a fetch that is
 * not a 304) replaces the kept keys with what it carries, and carrying none keeps none, since the
 * validators of the copy it replaced no longer hold. Every other status (a 304, a fetch error, a
 * redirection, an error) leaves the crawler's copy as it was: it replaces the keys it carries and
 * the rest keep their values. A server may leave the validators out of a 304 (RFC 9110), and
 * dropping them there, or on a failed fetch, would make the next request unconditional.
 */
final class MetadataTransfer {

  private final List<String> keys;
  private final boolean onlyClientDate;
  private final int maxValueChars;
  private final int maxChars;

  MetadataTransfer(EngineConfig cfg) {
    // A client's refetch date is always kept: a front end returns it as given.
    this.keys =
        java.util.stream.Stream.concat(
                cfg.metadataTransfer.stream(),
                java.util.stream.Stream.of(StatusEvent.REFETCH_AT_KEY))
            .distinct()
            .sorted()
            .toList();
    this.onlyClientDate = keys.size() == 1;
    this.maxValueChars = cfg.metadataMaxValueChars;
    this.maxChars = cfg.metadataMaxChars;
  }

  /**
   * Keeps on the page the event's values of the configured keys; unless the event brings a new copy
   * of the page, a key it does not carry keeps the page's previous values.
   */
  void keep(PageState p, StatusEvent e, EngineOutcome out) {
    if (onlyClientDate
        && p.metadata == null
        && !e.metadata().containsKey(StatusEvent.REFETCH_AT_KEY)) {
      return; // nothing to keep, nothing kept: the common case, without a look at the status code
    }
    Map<String, List<String>> still = newCopy(e) ? null : p.metadata;
    Map<String, List<String>> kept = null;
    int budget = maxChars;
    int cut = 0;
    for (String key : keys) {
      List<String> v = e.metadata().get(key);
      if (v == null && still != null && !key.equals(StatusEvent.REFETCH_AT_KEY)) {
        v = still.get(key);
      }
      if (v == null) {
        continue;
      }
      budget -= key.length() + 6;
      if (budget < 0) {
        cut += v.size();
        continue;
      }
      List<String> values = new ArrayList<>(v.size());
      for (String s : v) {
        String value = s;
        if (value.length() > maxValueChars) {
          value = cutTo(value, maxValueChars);
          cut++;
        }
        if (budget - value.length() - 3 < 0) {
          cut++; // dropped: the request is full
          continue;
        }
        budget -= value.length() + 3;
        values.add(value);
      }
      if (kept == null) {
        kept = new HashMap<>();
      }
      kept.put(key, List.copyOf(values));
    }
    p.metadata = kept;
    if (cut > 0) {
      out.metadataCut(cut);
    }
  }

  /** Whether the status brings a new copy of the page: a fetch, not a 304. */
  private static boolean newCopy(StatusEvent e) {
    Integer code = e.statusCode();
    return e.status() == CrawlStatus.FETCHED && (code == null || code != 304);
  }

  private static String cutTo(String s, int max) {
    int end = max;
    if (Character.isHighSurrogate(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(0, end);
  }
}
