package io.recrawl.engine;

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
 * not: a front end returns it as the client gave it.
 *
 * <p>Bounded, so that a crawl request always fits in a Kafka message whatever the crawler sends: a
 * value longer than {@code metadata.transfer.max-value-chars} is cut to it (never between the two
 * halves of a surrogate pair), and once the kept keys and values reach {@code
 * metadata.transfer.max-chars} (each key counting 6 characters more and each value 3 more, for
 * their quotes and separators in JSON) the further values are dropped. Keys are taken in
 * alphabetical order, so what is dropped does not depend on the JVM. Every value cut or dropped is
 * counted in the call's {@link EngineOutcome#metadataCut}.
 *
 * <p>A 304 keeps what it does not repeat: it says the version the request validated is still
 * current, so the validators the request carried (a {@code last-modified}, an ETag) still hold, and
 * a server may leave them out of a 304 (RFC 9110). Dropping them would make the next request
 * unconditional, and conditional requests would work only every other time.
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
   * Keeps on the page the event's values of the configured keys (replacing what it kept); after a
   * 304, a key the event does not carry keeps the page's previous values.
   */
  void keep(PageState p, StatusEvent e, EngineOutcome out) {
    if (onlyClientDate
        && p.metadata == null
        && !e.metadata().containsKey(StatusEvent.REFETCH_AT_KEY)) {
      return; // nothing to keep, nothing kept: the common case, without a look at the status code
    }
    Integer code = e.statusCode();
    Map<String, List<String>> still = code != null && code == 304 ? p.metadata : null;
    Map<String, List<String>> kept = null;
    int budget = maxChars;
    int cut = 0;
    for (String key : keys) {
      List<String> v = e.metadata().get(key);
      if (v == null && still != null) {
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
    if (kept != null) {
      p.metadata = kept;
    }
    if (cut > 0) {
      out.metadataCut(cut);
    }
  }

  private static String cutTo(String s, int max) {
    int end = max;
    if (Character.isHighSurrogate(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(0, end);
  }
}
