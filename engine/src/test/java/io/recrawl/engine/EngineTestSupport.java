package io.recrawl.engine;

import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Builders shared by the engine tests. */
final class EngineTestSupport {

  static final long T0 = 1_700_000_000_000L;
  static final long MIN = 60_000L;
  static final long HOUR = 3_600_000L;
  static final long DAY = EngineConfig.DAY_MS;

  private EngineTestSupport() {}

  static StatusEvent event(String url, CrawlStatus status, long time, Boolean changed) {
    String host = url.replaceFirst("^https?://", "").replaceFirst("/.*$", "");
    return new StatusEvent(url, host, status, time, Map.of(), changed, null, null);
  }

  static StatusEvent discovered(String url, long time) {
    return event(url, CrawlStatus.DISCOVERED, time, null);
  }

  static StatusEvent fetched(String url, long time, boolean changed) {
    return event(url, CrawlStatus.FETCHED, time, changed);
  }

  /** Collects what the engine says of each release: the request and why it went. */
  static final class Reasons implements Consumer<EngineOutcome> {
    final List<CrawlRequest> requests = new ArrayList<>();
    final List<ReleaseReason> reasons = new ArrayList<>();
    final List<Double> hostMaxRates = new ArrayList<>();

    @Override
    public void accept(EngineOutcome o) {
      for (int i = 0; i < o.releases().size(); i++) {
        requests.add(o.releases().get(i));
        reasons.add(o.reason(i));
        hostMaxRates.add(o.hostMaxRate(i));
      }
    }

    /** "url REASON", one per release, in order. */
    List<String> lines() {
      List<String> out = new ArrayList<>();
      for (int i = 0; i < requests.size(); i++) {
        out.add(requests.get(i).url() + " " + reasons.get(i));
      }
      return out;
    }

    /** The requests released for {@code reason}. */
    List<CrawlRequest> releasedFor(ReleaseReason reason) {
      List<CrawlRequest> out = new ArrayList<>();
      for (int i = 0; i < requests.size(); i++) {
        if (reasons.get(i) == reason) {
          out.add(requests.get(i));
        }
      }
      return out;
    }
  }

  /** Collects releases. */
  static final class Sink implements java.util.function.Consumer<CrawlRequest> {
    final List<CrawlRequest> out = new ArrayList<>();

    @Override
    public void accept(CrawlRequest r) {
      out.add(r);
    }
  }
}
