package io.recrawl.engine;

import static io.recrawl.engine.EngineTestSupport.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.engine.local.LocalFrontier;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Conditional requests over many recrawls in a row: a page that never changes, on a server whose
 * 304 repeats no validator (RFC 9110 lets it leave out Last-Modified; Python's http.server does).
 * The page's validators must outlive each 304, so that every recrawl after the first is
 * conditional.
 */
class ConditionalRecrawlTest {

  private static final String URL = "http://a.example/page";
  private static final String LAST_MODIFIED = "Sat, 01 Nov 2025 10:00:00 GMT";
  private static final String LAST_MODIFIED_ISO = "2025-11-01T10:00:00Z";
  private static final String ETAG = "\"v1\"";

  /**
   * The crawler and the server: a request with a validator (If-Modified-Since from {@code
   * last-modified}, If-None-Match from {@code protocol.etag}) is answered 304 with no headers; one
   * without is a 200 with both, reported as the status updater reports it. Every status carries the
   * depth StormCrawler tracks, also a transferred key.
   */
  private static StatusEvent fetch(CrawlRequest r, long time) {
    Map<String, List<String>> md = new HashMap<>();
    md.put("depth", List.of("0"));
    boolean conditional =
        r.metadata().containsKey("last-modified") || r.metadata().containsKey("protocol.etag");
    if (conditional) {
      md.put("fetch.statusCode", List.of("304"));
      return new StatusEvent(URL, "a.example", CrawlStatus.FETCHED, time, md, null, null, 304);
    }
    md.put("fetch.statusCode", List.of("200"));
    md.put("protocol.last-modified", List.of(LAST_MODIFIED));
    md.put("last-modified", List.of(LAST_MODIFIED_ISO));
    md.put("protocol.etag", List.of(ETAG));
    md.put("signature", List.of("s1"));
    return new StatusEvent(URL, "a.example", CrawlStatus.FETCHED, time, md, null, null, 200);
  }

  /** The requests for the page over ten days, each answered a minute after it went out. */
  private static List<CrawlRequest> crawl(List<String> transfer) {
    LocalFrontier f =
        new LocalFrontier(
            EngineConfig.with(
                Map.of("metadata.transfer", transfer, "revisit.max-interval", "1 d")));
    f.setGlobalLambda(1e5); // only the revisit floor recrawls the page: once a day
    Sink sink = new Sink();
    f.onStatus(discovered(URL, T0), sink);
    List<CrawlRequest> requests = new ArrayList<>();
    int answered = 0;
    for (long t = T0; t <= T0 + 10 * DAY; t += MIN) {
      f.advanceTo(t, sink);
      while (answered < sink.out.size()) {
        CrawlRequest r = sink.out.get(answered++);
        requests.add(r);
        f.onStatus(fetch(r, t + MIN), sink);
      }
    }
    return requests;
  }

  @Test
  void everyRecrawlAfterTheFirstAsksIfModifiedSince() {
    List<CrawlRequest> requests = crawl(List.of("depth", "last-modified"));
    assertThat(requests).hasSizeGreaterThanOrEqualTo(8);
    assertThat(requests.get(0).metadata()).doesNotContainKey("last-modified");
    for (int i = 1; i < requests.size(); i++) {
      assertThat(requests.get(i).metadata())
          .as("recrawl %d of %d", i, requests.size() - 1)
          .containsEntry("last-modified", List.of(LAST_MODIFIED_ISO));
    }
  }

  @Test
  void everyRecrawlAfterTheFirstAsksIfNoneMatch() {
    List<CrawlRequest> requests = crawl(List.of("depth", "protocol.etag"));
    assertThat(requests).hasSizeGreaterThanOrEqualTo(8);
    for (int i = 1; i < requests.size(); i++) {
      assertThat(requests.get(i).metadata())
          .as("recrawl %d of %d", i, requests.size() - 1)
          .containsEntry("protocol.etag", List.of(ETAG));
    }
  }
}
