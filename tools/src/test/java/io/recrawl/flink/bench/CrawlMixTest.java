package io.recrawl.flink.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CrawlMixTest {

  private final CrawlMix mix = new CrawlMix(1_000, 10, 1, 5, CrawlMix.Shape.DEFAULT);

  @Test
  void theDefaultMixHasItsShares() {
    long events = 1_000 + 10L * Math.round(mix.eventsPerFetch() * CrawlMix.PERIOD);
    Map<CrawlStatus, Long> byStatus = new EnumMap<>(CrawlStatus.class);
    long tooMany = 0;
    long knownLinks = 0;
    long newLinks = 0;
    Set<Long> seen = new HashSet<>();
    long lastTime = Long.MIN_VALUE;
    for (long i = 0; i < events; i++) {
      StatusEvent e = mix.map(i);
      assertThat(e.time()).isGreaterThan(lastTime);
      lastTime = e.time();
      byStatus.merge(e.status(), 1L, Long::sum);
      long u = mix.urlOf(i);
      assertThat(e.url()).isEqualTo(mix.url(u));
      assertThat(e.host()).isEqualTo(CrawlMix.host(mix.hostOf(u)));
      if (e.status() == CrawlStatus.FETCH_ERROR && e.httpStatus() == 429) {
        tooMany++;
      }
      if (e.status() != CrawlStatus.DISCOVERED) {
        assertThat(seen).as("a fetch is of a known URL").contains(u);
      } else if (i >= 1_000) {
        if (seen.contains(u)) {
          knownLinks++;
        } else {
          newLinks++;
        }
      }
      seen.add(u);
      assertThat(mix.urlsAfter(i + 1)).isEqualTo(seen.size());
    }
    long fetches = 10L * CrawlMix.PERIOD;
    assertThat(mix.fetchesIn(events)).isEqualTo(fetches);
    assertThat(byStatus.get(CrawlStatus.FETCHED)).isEqualTo(fetches * 93 / 100);
    assertThat(byStatus.get(CrawlStatus.FETCH_ERROR)).isEqualTo(fetches * 7 / 100);
    assertThat(tooMany).isEqualTo(fetches * 2 / 100);
    assertThat(newLinks).isEqualTo(fetches * 93 / 100 * 4);
    // Known links are drawn from the URLs known before the fetch: 80 % of 20.
    assertThat(knownLinks).isEqualTo(fetches * 93 / 100 * 16);
    assertThat(mix.eventsPerFetch()).isEqualTo(1 + 0.93 * 20);
  }

  @Test
  void hostRunsGroupConsecutiveUrls() {
    CrawlMix runs = new CrawlMix(100, 4, 5, 1, CrawlMix.Shape.DEFAULT);
    assertThat(runs.hostOf(0)).isEqualTo(runs.hostOf(4)).isZero();
    assertThat(runs.hostOf(5)).isEqualTo(1);
    assertThat(runs.hostOf(20)).isZero();
  }
}
