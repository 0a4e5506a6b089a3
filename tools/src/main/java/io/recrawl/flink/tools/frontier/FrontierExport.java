package io.recrawl.flink.tools.frontier;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.HostEngine;
import io.recrawl.engine.HostState;
import io.recrawl.engine.PageExplanation;
import io.recrawl.engine.PageState;
import io.recrawl.engine.SlotQueues;
import io.recrawl.flink.scheduler.SchedulerState;
import io.recrawl.flink.tools.FrontierReader;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.PageKeys;
import java.io.IOException;
import java.io.Writer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/recrawl export --format ...}: a savepoint's frontier in the formats {@code import}
 * reads, so that an import of the export gives the same pages. Each URL keeps its status, its next
 * fetch date, and in its metadata what the job stores of it: its transferred metadata, its weight
 * ({@code recrawl.weight}), its last fetch ({@code recrawl.lastFetch}), its fetch errors in a row
 * ({@code fetch.error.count}), and the job's hashes of its last signature and ETag ({@code
 * recrawl.signature-hash}, {@code recrawl.etag-hash}).
 *
 * <p>The next fetch date is the page's planned time: for a page planned for a time (an imported
 * page, a retry) the start of its due bucket; for a page in flight its lease's end; otherwise when
 * its crawl value reaches its host's threshold (none when it never will, or when the page is in no
 * queue or an ERROR page that is not retried).
 */
public final class FrontierExport {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Bits of a slot key below its bucket (see {@code SlotQueues.key}). */
  private static final int SEQ_BITS = 30;

  private FrontierExport() {}

  /** Writes the frontier of {@code savepoint} to {@code out}; returns the number of URLs. */
  public static long write(
      String savepoint, Map<String, ?> engineSettings, FrontierFormat format, Long now, Writer out)
      throws Exception {
    EngineConfig cfg = EngineConfig.fromMap(engineSettings, "recrawl.engine.");
    HostEngine engine = new HostEngine(cfg);
    if (format == FrontierFormat.SQL_CSV) {
      out.write("url,status,nextfetchdate,metadata,bucket,host\n");
    } else if (format == FrontierFormat.SQL_TSV) {
      out.write("url\tstatus\tnextfetchdate\tmetadata\tbucket\thost\n");
    }
    long[] count = {0};
    FrontierReader.forEachHost(
        savepoint,
        null,
        (host, h, pages, lambda0) -> {
          if (h == null) {
            return;
          }
          long clock = now != null ? now : h.lastRelease;
          if (now == null) {
            for (Map.Entry<String, PageState> e : pages) {
              clock = Math.max(clock, e.getValue().lastFetch);
            }
          }
          for (Map.Entry<String, PageState> e : pages) {
            String key = SchedulerState.expandUrl(host, e.getKey());
            PageState p = e.getValue();
            long next = nextFetch(engine, p, h, lambda0, clock);
            out.write(pageRow(format, host, key, p, next));
            out.write('\n');
            count[0]++;
          }
        });
    return count[0];
  }

  /** The page's planned time, or {@link FrontierRow#NEVER}. */
  static long nextFetch(HostEngine engine, PageState p, HostState h, double lambda0, long clock) {
    if (p.inFlight()) {
      return p.leaseUntil;
    }
    if (p.slot < 0 || (p.status == CrawlStatus.ERROR.ordinal() && !p.forced)) {
      // In no queue, or an ERROR page waiting only to be purged: the engine never sends it.
      return FrontierRow.NEVER;
    }
    if (p.forced && SlotQueues.queueOf(p.slot) == 0) {
      long bucket = (p.slot >>> SEQ_BITS) & 0xFFFFFFFFL;
      return bucket * engine.config().bucketMs;
    }
    long due = PageExplanation.of(engine, p, h, lambda0, clock).due();
    return due == Long.MAX_VALUE ? FrontierRow.NEVER : due;
  }

  /** The metadata a page of {@code crawl} is exported with. */
  static Map<String, List<String>> metadata(PageState p, String crawl) {
    Map<String, List<String>> md = new LinkedHashMap<>();
    if (p.metadata != null) {
      md.putAll(p.metadata);
    }
    if (!PageKeys.DEFAULT_CRAWL.equals(crawl)) {
      md.put(PageImport.CRAWL_KEY, List.of(crawl));
    }
    md.put(ImportSettings.DEFAULT_WEIGHT_KEY, List.of(Float.toString(p.weight)));
    if (p.lastFetch != 0) {
      md.put(PageImport.LAST_FETCH_KEY, List.of(Instant.ofEpochMilli(p.lastFetch).toString()));
    }
    if (p.errors > 0) {
      md.put(PageImport.ERROR_COUNT_KEY, List.of(Integer.toString(p.errors)));
    }
    if (p.signatureHash != 0) {
      md.put(PageImport.SIGNATURE_HASH_KEY, List.of(Long.toString(p.signatureHash)));
    }
    if (p.etagHash != 0) {
      md.put(PageImport.ETAG_HASH_KEY, List.of(Integer.toString(p.etagHash)));
    }
    return md;
  }

  /**
   * The row of the page with key {@code pageKey}: its URL apart, its crawl (if not the default one)
   * in the metadata, as every format has metadata and none a crawl.
   */
  static String pageRow(FrontierFormat format, String host, String pageKey, PageState p, long next)
      throws IOException {
    return row(
        format,
        host,
        PageKeys.url(pageKey),
        CrawlStatus.values()[p.status],
        next,
        metadata(p, PageKeys.crawl(pageKey)));
  }

  /** A page's row in {@code format}, without its line end. */
  static String row(
      FrontierFormat format,
      String host,
      String url,
      CrawlStatus crawlStatus,
      long next,
      Map<String, List<String>> md)
      throws IOException {
    String status = crawlStatus.name();
    switch (format) {
      case OPENSEARCH -> {
        ObjectNode o = JSON.createObjectNode();
        o.put("url", url);
        o.put("status", status);
        if (next != FrontierRow.NEVER) {
          o.put("nextFetchDate", StormCrawlerFields.isoTime(next));
        }
        o.set("metadata", StormCrawlerFields.toOpenSearch(md));
        o.put("key", host);
        return JSON.writeValueAsString(o);
      }
      case SQL_CSV, SQL_TSV -> {
        List<String> f = new ArrayList<>();
        f.add(url);
        f.add(status);
        f.add(next == FrontierRow.NEVER ? null : StormCrawlerFields.sqlTime(next));
        f.add(StormCrawlerFields.toSqlText(md));
        f.add("0");
        f.add(host);
        List<String> quoted = new ArrayList<>();
        for (String s : f) {
          quoted.add(format == FrontierFormat.SQL_CSV ? SqlRows.csvField(s) : SqlRows.tsvField(s));
        }
        return String.join(format == FrontierFormat.SQL_CSV ? "," : "\t", quoted);
      }
      case SEEDS -> {
        return url + StormCrawlerFields.toTabText(md, true);
      }
      default -> throw new IllegalArgumentException(format.flag());
    }
  }
}
