package io.recrawl.engine;

import static io.recrawl.engine.EngineTestSupport.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.recrawl.engine.local.LocalFrontier;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalFrontierTest {

  @Test
  void theBacklogForTheBudgetCountsALimitedHostOnlyUpToWhatItsLimitFetchesInTheWindow() {
    LocalFrontier f = new LocalFrontier(EngineConfig.with(Map.of("lease", "1 d")));
    Sink out = new Sink();
    f.setHostRate("slow.example", 48, out); // one fetch per 30 minutes
    for (int p = 0; p < 50; p++) {
      for (String host : new String[] {"fast.example", "slow.example"}) {
        f.onStatus(
            new StatusEvent(
                "http://" + host + "/p" + p,
                host,
                CrawlStatus.DISCOVERED,
                T0,
                Map.of(),
                null,
                1.0,
                null),
            out);
      }
    }
    f.advanceTo(T0 + 12 * HOUR, out); // no status comes back: everything released is in flight
    long fast = out.out.stream().filter(r -> r.host().equals("fast.example")).count();
    long slow = out.out.stream().filter(r -> r.host().equals("slow.example")).count();
    assertThat(fast).isEqualTo(50);
    assertThat(slow).isGreaterThan(10); // paced, but more than the window's one
    double window = 1.0 / 48; // 30 minutes: the slow host fetches one in it
    assertThat(f.inFlightForBudget(window)).isCloseTo(fast + 1, within(1e-9));
  }
}
