package io.recrawl.flink.scheduler;

import static io.recrawl.flink.scheduler.SchedulerHarness.HOUR;
import static io.recrawl.flink.scheduler.SchedulerHarness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With metadata.transfer, a 1 MB metadata value makes a bounded crawl request, and the cut is
 * counted in recrawl.metadataCut.
 */
class BoundedRequestsTest {

  @Test
  void aMegabyteOfTransferredMetadataMakesABoundedRequestAndIsCounted() throws Exception {
    try (SchedulerHarness h =
        new SchedulerHarness(
            SchedulerHarness.settings("metadata.transfer", List.of("blob", "depth")))) {
      h.status(
          new StatusEvent(
              "http://a.org/p",
              "a.org",
              CrawlStatus.DISCOVERED,
              T0,
              Map.of("blob", List.of("€".repeat(1_000_000)), "depth", List.of("1")),
              null,
              null,
              null));
      h.advance(T0 + HOUR);
      CrawlRequest r = h.newRequests().get(0);
      assertThat(r.metadata().get("blob").get(0)).hasSize(4096);
      assertThat(r.metadata().get("depth")).containsExactly("1");
      assertThat(CrawlRequestCodec.toJson(r).getBytes(StandardCharsets.UTF_8).length)
          .isLessThan(4096 * 3 + 512);
      assertThat(h.fn.metrics().metadataCut.getCount()).isEqualTo(1);
    }
  }
}
