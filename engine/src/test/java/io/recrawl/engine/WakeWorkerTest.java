package io.recrawl.engine;

import static io.recrawl.engine.EngineTestSupport.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.engine.local.LocalFrontier;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Wake-ups computed on a second thread give exactly what one thread gives. */
class WakeWorkerTest {

  private record Pending(long time, long seq, StatusEvent event) {}

  @Test
  void aFrontierWithAWakeWorkerReleasesTheSameRequestsAndKeepsTheSameLedger() {
    EngineConfig cfg = EngineConfig.with(Map.of("lease", "6 h"));
    LocalFrontier one = new LocalFrontier(cfg);
    LocalFrontier two = new LocalFrontier(cfg);
    two.useWakeWorker(true);
    GlobalLambdaController controller = new GlobalLambdaController(cfg.grid, 4_000, 1.0 / 24);
    Random random = new Random(11);
    List<StatusEvent> seeds = new ArrayList<>();
    for (int h = 0; h < 300; h++) {
      for (int p = 0; p < 1 + random.nextInt(30); p++) {
        seeds.add(
            new StatusEvent(
                "http://h" + h + ".example/p" + p,
                "h" + h + ".example",
                CrawlStatus.DISCOVERED,
                T0,
                Map.of(),
                null,
                0.1 + random.nextDouble() * 10,
                null));
      }
      if (h % 3 == 0) { // a third of the hosts limited, as in the simulator's workloads
        double rate = 2 + random.nextInt(40);
        one.setHostRate("h" + h + ".example", rate, r -> {});
        two.setHostRate("h" + h + ".example", rate, r -> {});
      }
    }
    Sink outOne = new Sink();
    Sink outTwo = new Sink();
    for (StatusEvent e : seeds) {
      one.onStatus(e, outOne);
      two.onStatus(e, outTwo);
    }
    PriorityQueue<Pending> fetches =
        new PriorityQueue<>(
            (a, b) -> a.time != b.time ? Long.compare(a.time, b.time) : Long.compare(a.seq, b.seq));
    long seq = 0;
    int seen = 0;
    try {
      for (long t = T0; t < T0 + 4 * DAY; t += MIN) {
        if ((t - T0) % HOUR == 0) {
          double lambda = controller.update(one.ledger().snapshot(), Double.NaN);
          one.setGlobalLambda(lambda);
          two.setGlobalLambda(lambda);
        }
        while (!fetches.isEmpty() && fetches.peek().time <= t) {
          StatusEvent e = fetches.poll().event;
          one.onStatus(e, outOne);
          two.onStatus(e, outTwo);
        }
        one.advanceTo(t, outOne);
        two.advanceTo(t, outTwo);
        assertThat(outTwo.out).isEqualTo(outOne.out);
        for (; seen < outOne.out.size(); seen++) {
          CrawlRequest r = outOne.out.get(seen);
          long at = t + random.nextInt(180) * MIN;
          fetches.add(
              new Pending(
                  at,
                  seq++,
                  new StatusEvent(
                      r.url(),
                      r.host(),
                      CrawlStatus.FETCHED,
                      at,
                      Map.of(),
                      random.nextBoolean(),
                      null,
                      200)));
        }
      }
    } finally {
      two.close();
    }
    assertThat(outOne.out.size()).isGreaterThan(5_000);
    assertThat(two.ledger().snapshot()).containsExactly(one.ledger().snapshot());
  }
}
