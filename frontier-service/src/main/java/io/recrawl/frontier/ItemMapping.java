package io.recrawl.frontier;

import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.HostKeys;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A URL Frontier item as the status event the job reads. The event is written with the job's codec
 * and read back by it, so what the job would refuse is refused here, with the job's reason.
 */
final class ItemMapping {

  /** The client's refetch date, seconds since the epoch, kept in the event's metadata. */
  static final String REFETCH_DATE_KEY = "urlfrontier.refetchable_from_date";

  /** An item mapped: the record to send, or why it is refused. */
  record Mapped(String crawlId, StatusEvent event, String json, DeadLetter refused) {
    boolean ok() {
      return refused == null;
    }
  }

  private final StatusEventCodec codec;

  ItemMapping(HostKeys.Mode mode) {
    this.codec =
        new StatusEventCodec(
            mode, StatusEventCodec.DEFAULT_MAX_FUTURE_MS, StatusEventCodec.DEFAULT_MAX_CHARS);
  }

  Mapped map(URLItem item, long now) {
    boolean known = item.hasKnown();
    URLInfo info = known ? item.getKnown().getInfo() : item.getDiscovered().getInfo();
    String crawlId = CrawlIds.normalise(info.getCrawlID());
    Map<String, List<String>> metadata = new LinkedHashMap<>();
    for (Map.Entry<String, StringList> e : info.getMetadataMap().entrySet()) {
      metadata.put(e.getKey(), List.copyOf(e.getValue().getValuesList()));
    }
    if (!crawlId.equals(CrawlIds.DEFAULT)) {
      metadata.put(CrawlIds.KEY, List.of(crawlId));
    }
    CrawlStatus status = CrawlStatus.DISCOVERED;
    Integer httpStatus = null;
    if (known) {
      long date = item.getKnown().getRefetchableFromDate();
      metadata.put(REFETCH_DATE_KEY, List.of(Long.toString(date)));
      httpStatus = KnownStatus.httpStatus(metadata);
      status = KnownStatus.of(metadata, httpStatus, date);
    }
    StatusEvent draft =
        new StatusEvent(info.getUrl(), "", status, now, metadata, null, null, httpStatus);
    String json = StatusEventCodec.toJson(draft);
    Parsed<StatusEvent> parsed = codec.parse(json, now);
    return parsed.ok()
        ? new Mapped(crawlId, parsed.value(), json, null)
        : new Mapped(crawlId, null, json, parsed.deadLetter());
  }
}
