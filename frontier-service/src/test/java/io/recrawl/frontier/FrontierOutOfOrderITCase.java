package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.CountUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.DeleteCrawlMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service in front of a job whose status source waits a minute for late events (the job's
 * default), with statuses flowing: event time runs a minute behind them, and queries and deletions
 * must still answer within a client's deadline.
 */
class FrontierOutOfOrderITCase {

  @TempDir Path dir;

  private static final int DEADLINE_S = 15;

  @Test
  void queriesAndDeletionsAnswerWithinTheDeadlineAndADeletedCrawlIsNotHandedOut() throws Exception {
    try (EmbeddedFrontier frontier =
        new EmbeddedFrontier(
            dir,
            Map.of(
                "recrawl.watermark.out-of-orderness-ms", 60_000,
                "recrawl.watermark.idleness-ms", 5_000))) {
      FrontierClient client = new FrontierClient(frontier);
      AtomicBoolean stop = new AtomicBoolean();
      Thread feed =
          new Thread(
              () -> {
                for (int i = 0; !stop.get(); i++) {
                  try {
                    client.put(
                        List.of(
                            FrontierClient.discovered(
                                "feed", "http://h" + i % 16 + ".example/" + i)));
                    Thread.sleep(20);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              "status-feed");
      feed.start();
      try {
        List<URLItem> old = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
          old.add(FrontierClient.discovered("old", "http://d" + i % 3 + ".example/" + i));
        }
        client.put(old);
        URLFrontierGrpc.URLFrontierBlockingStub soon =
            frontier.blocking().withDeadlineAfter(DEADLINE_S, TimeUnit.SECONDS);
        assertThat(soon.countURLs(CountUrlParams.newBuilder().setCrawlID("old").build()).getValue())
            .isEqualTo(10); // every URL put before the query counts
        assertThat(
                frontier
                    .blocking()
                    .withDeadlineAfter(DEADLINE_S, TimeUnit.SECONDS)
                    .deleteCrawl(DeleteCrawlMessage.newBuilder().setValue("old").build())
                    .getValue())
            .isEqualTo(10);
        assertThat(
                client.getSoon(
                    GetParams.newBuilder().setCrawlID("old").setMaxUrlsPerQueue(100).build(),
                    3_000))
            .isEmpty();
      } finally {
        stop.set(true);
        feed.join();
      }
    }
  }
}
