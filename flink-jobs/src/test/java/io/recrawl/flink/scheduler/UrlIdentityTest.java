package io.recrawl.flink.scheduler;

import static io.recrawl.flink.scheduler.SchedulerHarness.HOUR;
import static io.recrawl.flink.scheduler.SchedulerHarness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A page is one URL however it is spelled, and its stored form is unambiguous. */
class UrlIdentityTest {

  private final StatusEventCodec codec = StatusEventCodec.withDefaults();

  private Parsed<StatusEvent> discovered(String url) {
    return codec.parse(
        StatusEventCodec.toJson(
            new StatusEvent(
                url, "x", io.recrawl.wire.CrawlStatus.DISCOVERED, T0, Map.of(), null, null, null)),
        T0);
  }

  @Test
  void aPageSpelledFourWaysIsOnePageAndComesBackAsOneUrl() throws Exception {
    try (SchedulerHarness h = new SchedulerHarness(Map.of())) {
      for (String url :
          List.of(
              "HTTP://Example.COM",
              "http://example.com:80/",
              "http://example.com./",
              "http://example.com/")) {
        Parsed<StatusEvent> p = discovered(url);
        assertThat(p.ok()).as(url).isTrue();
        h.status(p.value());
      }
      h.advance(T0 + HOUR);
      assertThat(h.newRequests())
          .extracting(CrawlRequest::url)
          .containsExactly("http://example.com/");
    }
  }

  @Test
  void aStatusWhoseUrlStartsWithU0001NeverReachesStateWhereItWouldReadBackAsAnotherUrl()
      throws Exception {
    assertThat(discovered("\u0001http://example.com/a").deadLetter().reason()).isEqualTo("bad_url");
    assertThat(discovered("\u0002https://example.com/a").deadLetter().reason())
        .isEqualTo("bad_url");
    // What it was stored as before: the https marker and another URL.
    assertThat(
            SchedulerState.expandUrl(
                "example.com",
                SchedulerState.compactUrl("example.com", "\u0001http://example.com/a")))
        .isEqualTo("https://example.comhttp://example.com/a");
    // Every URL the codec accepts is stored compact and reads back as itself.
    for (String url :
        List.of("http://example.com/a", "https://example.com/", "http://example.com:8080/x")) {
      StatusEvent e = discovered(url).value();
      String stored = SchedulerState.compactUrl(e.host(), e.url());
      assertThat(SchedulerState.expandUrl(e.host(), stored)).isEqualTo(url);
    }
  }
}
