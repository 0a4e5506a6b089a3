package io.recrawl.flink.tools.frontier;

import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.List;

/**
 * A row checked and turned into what the engine is fed: the status events that leave the page in
 * its status with its evidence, and the time its store would fetch it next.
 *
 * @param line the row's line
 * @param url the URL in the job's spelling
 * @param host its host key, as the job computes it
 * @param status the row's status
 * @param nextFetch the next fetch date, epoch ms, or {@link FrontierRow#NEVER}
 * @param events the events to apply, in order
 * @param signatureHash the job's own signature hash from an export of it, or 0
 * @param etagHash the job's own ETag hash from an export of it, or 0
 */
public record ImportedPage(
    long line,
    String url,
    String host,
    CrawlStatus status,
    long nextFetch,
    List<StatusEvent> events,
    long signatureHash,
    int etagHash) {

  /** The time of its last event that is not a discovery, or Long.MAX_VALUE. */
  long fetchTime() {
    return status == CrawlStatus.DISCOVERED ? Long.MAX_VALUE : events.get(0).time();
  }
}
