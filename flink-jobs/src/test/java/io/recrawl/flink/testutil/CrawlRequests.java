package io.recrawl.flink.testutil;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.CrawlRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Checks on the crawl requests a job wrote: politeness is judged on the output itself. */
public final class CrawlRequests {

  private CrawlRequests() {}

  /** No two requests of one host closer than {@code minSpacingMs}. */
  public static void assertSpacedPerHost(List<CrawlRequest> requests, long minSpacingMs) {
    Map<String, List<CrawlRequest>> byHost =
        requests.stream().collect(Collectors.groupingBy(CrawlRequest::host));
    byHost.forEach(
        (host, rs) -> {
          List<CrawlRequest> sorted = new ArrayList<>(rs);
          sorted.sort(Comparator.comparingLong(CrawlRequest::time));
          for (int i = 1; i < sorted.size(); i++) {
            assertThat(sorted.get(i).time() - sorted.get(i - 1).time())
                .as("spacing of %s's requests", host)
                .isGreaterThanOrEqualTo(minSpacingMs);
          }
        });
  }
}
