package io.recrawl.flink.tools.frontier;

import io.recrawl.estimate.ChangeEvidence;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.PageKeys;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a row and turns it into the status events that bring its page into the engine: the URL,
 * host key, metadata and weight go through the job's own status codec ({@link StatusEventCodec}),
 * so a row is refused for what the job would refuse, with the same reason.
 *
 * <ul>
 *   <li>DISCOVERED: one DISCOVERED event.
 *   <li>FETCHED, REDIRECTION, ERROR: one event of that status at the last fetch time, with the
 *       row's metadata: its {@code signature}, {@code protocol.etag} and {@code
 *       protocol.last-modified} are the page's fetch evidence, as for any status event.
 *   <li>FETCH_ERROR: StormCrawler's {@code fetch.error.count} events (at least one, fewer than
 *       {@code recrawl.engine.fetch-error.max}, so that the page stays FETCH_ERROR), the last at
 *       the row's time and the others a millisecond apart before it: the engine takes one error
 *       delivered twice (the same time) for one.
 * </ul>
 */
final class PageImport {

  /**
   * The last fetch, ISO-8601, as the stand-alone {@code CrawlValueScheduler} and export keep it.
   */
  static final String LAST_FETCH_KEY = "recrawl.lastFetch";

  /** StormCrawler's count of fetch errors in a row. */
  static final String ERROR_COUNT_KEY = "fetch.error.count";

  /** The job's hash of the last signature and ETag, written by export: a re-import keeps them. */
  static final String SIGNATURE_HASH_KEY = "recrawl.signature-hash";

  static final String ETAG_HASH_KEY = "recrawl.etag-hash";

  /** The crawl of a page of a crawl other than the default one (URL Frontier's crawl ID). */
  static final String CRAWL_KEY = "recrawl.crawl";

  private final ImportSettings settings;
  private final StatusEventCodec codec;
  private final int maxFetchErrors;

  PageImport(ImportSettings settings, int maxFetchErrors) {
    this.settings = settings;
    this.codec = new StatusEventCodec(settings.mode(), -1, StatusEventCodec.DEFAULT_MAX_CHARS);
    this.maxFetchErrors = maxFetchErrors;
  }

  /** The page of a row, or the reason it is refused. */
  ImportedPage page(FrontierRow row) throws RowRejection {
    Map<String, List<String>> md = new LinkedHashMap<>(row.metadata());
    Double weight = null;
    if (settings.weightKey() != null && first(md, settings.weightKey()) != null) {
      String w = first(md, settings.weightKey());
      try {
        weight = Double.parseDouble(w.strip());
      } catch (NumberFormatException e) {
        throw new RowRejection(
            "bad_weight", "'" + settings.weightKey() + "' is not a number: " + w);
      }
    }
    long signatureHash = number(md, SIGNATURE_HASH_KEY);
    long etagHash = number(md, ETAG_HASH_KEY);
    md.remove(SIGNATURE_HASH_KEY);
    md.remove(ETAG_HASH_KEY);
    String crawl = first(md, CRAWL_KEY);
    md.remove(CRAWL_KEY);
    long time =
        row.status() == CrawlStatus.DISCOVERED ? settings.now() : lastFetch(md, row.nextFetch());
    StatusEvent raw =
        new StatusEvent(
            PageKeys.of(crawl, row.url()), "", row.status(), time, md, null, weight, null);
    Parsed<StatusEvent> parsed;
    try {
      parsed = codec.parse(StatusEventCodec.toJson(raw), settings.now());
    } catch (RuntimeException unwritable) {
      throw new RowRejection("bad_metadata", String.valueOf(unwritable.getMessage()));
    }
    if (!parsed.ok()) {
      DeadLetter d = parsed.deadLetter();
      throw new RowRejection(d.reason(), d.detail());
    }
    StatusEvent e = parsed.value();
    List<StatusEvent> events = new ArrayList<>();
    int n = 1;
    if (row.status() == CrawlStatus.FETCH_ERROR) {
      n = (int) Math.max(1, Math.min(maxFetchErrors - 1, number(md, ERROR_COUNT_KEY)));
    }
    for (int i = n - 1; i >= 0; i--) {
      events.add(i == 0 ? e : e.at(e.time() - i));
    }
    return new ImportedPage(
        row.line(),
        e.url(),
        e.host(),
        row.status(),
        row.nextFetch(),
        List.copyOf(events),
        signatureHash,
        (int) etagHash);
  }

  /**
   * The last fetch: the first of the keys that holds a date, else the next fetch date less the
   * fetch interval; never after the import's clock.
   */
  private long lastFetch(Map<String, List<String>> md, long nextFetch) throws RowRejection {
    for (String key : settings.lastFetchKeys()) {
      String v = first(md, key);
      if (v != null) {
        Long t = date(v);
        if (t == null) {
          throw new RowRejection("bad_time", "'" + key + "' is not a date: " + v);
        }
        return Math.max(1, Math.min(t, settings.now()));
      }
    }
    long from = nextFetch == FrontierRow.NEVER ? settings.now() : nextFetch;
    return Math.max(1, Math.min(from - settings.fetchIntervalMs(), settings.now()));
  }

  /**
   * A date: ISO-8601 (what StormCrawler and export write) first, since {@link
   * ChangeEvidence#parseDate} tries the HTTP dates first and a failed parse throws; else an HTTP
   * date ({@code protocol.date}).
   */
  static Long date(String v) {
    try {
      return StormCrawlerFields.time(v);
    } catch (RowRejection notIso) {
      return ChangeEvidence.parseDate(v);
    }
  }

  private static long number(Map<String, List<String>> md, String key) throws RowRejection {
    String v = first(md, key);
    if (v == null) {
      return 0;
    }
    try {
      return Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      throw new RowRejection("bad_metadata", "'" + key + "' is not an integer: " + v);
    }
  }

  private static String first(Map<String, List<String>> md, String key) {
    List<String> v = md.get(key);
    return v == null || v.isEmpty() ? null : v.get(0);
  }
}
