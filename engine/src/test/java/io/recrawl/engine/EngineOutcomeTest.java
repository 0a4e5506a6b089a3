package io.recrawl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.CrawlRequest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The outcome of engine calls: what the caller applies, kept until it clears it. */
class EngineOutcomeTest {

  private static CrawlRequest request(int i) {
    return new CrawlRequest("http://a.example/p" + i, "a.example", Map.of(), i, i, 1, 1, i + 1);
  }

  @Test
  void releasesKeepTheirOrderReasonAndRateBeyondTheInitialCapacity() {
    EngineOutcome o = new EngineOutcome();
    for (int i = 0; i < 5; i++) {
      o.released(request(i), ReleaseReason.values()[i], 10 * i);
    }
    assertThat(o.releases()).extracting(CrawlRequest::url).endsWith("http://a.example/p4");
    for (int i = 0; i < 5; i++) {
      assertThat(o.reason(i)).isEqualTo(ReleaseReason.values()[i]);
      assertThat(o.hostMaxRate(i)).isEqualTo(10.0 * i);
    }
  }

  @Test
  void twoCallsMoveTheWakeUpFromWhereTheFirstFoundItToWhereTheLastLeftIt() {
    EngineOutcome o = new EngineOutcome();
    assertThat(o.wakeMoved()).isFalse();
    o.wakeMoved(100, 200);
    o.wakeMoved(200, 150);
    assertThat(o.wakeMoved()).isTrue();
    assertThat(o.wakeBefore()).isEqualTo(100);
    assertThat(o.wakeAfter()).isEqualTo(150);
  }

  @Test
  void countersAddUpAcrossCallsAndClearForgetsEverything() {
    EngineOutcome o = new EngineOutcome();
    o.released(request(1), ReleaseReason.DUE, 24);
    o.wakeMoved(1, 2);
    o.demandReplaced(null, new double[] {1});
    o.blocked(EngineOutcome.Block.OUTAGE);
    o.blocked(EngineOutcome.Block.OUTAGE);
    o.leaseExpired();
    o.hostParked();
    o.duplicate();
    o.staleStatus();
    o.metadataCut(3);
    o.metadataCut(2);
    o.pageRemoved();
    o.stateChanged(1, 1);
    o.stateChanged(-1, 0);
    o.refuse(EngineOutcome.HOST_FULL, "full");
    assertThat(o.blocks(EngineOutcome.Block.OUTAGE)).isEqualTo(2);
    assertThat(o.blocks(EngineOutcome.Block.TOO_MANY_REQUESTS)).isZero();
    assertThat(o.metadataCut()).isEqualTo(5);
    assertThat(o.pagesDelta()).isZero();
    assertThat(o.hostsDelta()).isEqualTo(1);
    assertThat(o.demandChanges()).isEqualTo(1);
    assertThat(o.demandBefore(0)).isNull();
    assertThat(o.refusal()).isEqualTo(EngineOutcome.HOST_FULL);

    o.clear();
    assertThat(o.releases()).isEmpty();
    assertThat(o.wakeMoved()).isFalse();
    assertThat(o.demandChanges()).isZero();
    assertThat(o.blocks(EngineOutcome.Block.OUTAGE)).isZero();
    assertThat(o.leaseExpiries() + o.parked() + o.duplicates() + o.staleStatuses()).isZero();
    assertThat(o.metadataCut() + o.pagesRemoved() + o.pagesDelta() + o.hostsDelta()).isZero();
    assertThat(o.refusal()).isNull();
    assertThat(o.refusalDetail()).isNull();
  }

  @Test
  void aStatusThatReleasesNothingStillReportsTheNewPageAndTheWakeUpItAsksFor() {
    HostEngine engine = new HostEngine(EngineConfig.with(Map.of()));
    InMemoryHostStore store = new InMemoryHostStore();
    EngineOutcome o = new EngineOutcome();
    EngineContext in = new EngineContext().begin("a.example", 1_000, 0);
    engine.onStatus(store, EngineTestSupport.discovered("http://a.example/", 1_000), in, o);
    assertThat(o.pagesDelta()).isEqualTo(1);
    assertThat(o.hostsDelta()).isEqualTo(1);
    assertThat(o.releases()).isEmpty(); // a new host's first pages go at its first wake-up
    assertThat(o.wakeMoved()).isTrue();
    assertThat(o.wakeBefore()).isEqualTo(Long.MAX_VALUE);
    assertThat(o.wakeAfter()).isEqualTo(store.host().wakeAt);

    o.clear();
    engine.onWake(store, in.begin("a.example", store.host().wakeAt, 0), o);
    assertThat(o.releases()).extracting(CrawlRequest::url).containsExactly("http://a.example/");
    assertThat(o.reason(0)).isEqualTo(ReleaseReason.FIRST_CRAWL);
  }
}
