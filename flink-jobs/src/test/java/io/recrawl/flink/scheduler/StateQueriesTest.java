package io.recrawl.flink.scheduler;

import static io.recrawl.flink.scheduler.SchedulerHarness.MIN;
import static io.recrawl.flink.scheduler.SchedulerHarness.T0;
import static io.recrawl.flink.scheduler.SchedulerHarness.settings;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.PageKeys;
import io.recrawl.wire.QueryAnswer;
import io.recrawl.wire.QueryCodec;
import io.recrawl.wire.StateQuery;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.junit.jupiter.api.Test;

/** Front-end queries, answered by the operator from keyed state once event time has passed them. */
class StateQueriesTest {

  private static List<QueryAnswer> answers(SchedulerHarness s) {
    List<QueryAnswer> out = new ArrayList<>();
    var q = s.h.getSideOutput(SchedulerOutputs.ANSWERS);
    if (q != null) {
      for (StreamRecord<String> r : q) {
        out.add(QueryCodec.parseAnswer(r.getValue(), 0).value());
      }
    }
    return out;
  }

  private static void ask(SchedulerHarness s, StateQuery.Op op, String crawl, String host, long at)
      throws Exception {
    s.control(ControlMessage.query(StateQuery.of(op + "@" + at, op, at, crawl, host)));
  }

  @Test
  void aQueryIsAnsweredOnlyOnceEventTimeHasPassedItSoThatEarlierStatusesCount() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      s.status("http://a.example/1", CrawlStatus.DISCOVERED, T0);
      ask(s, StateQuery.Op.STATS, null, "a.example", T0 + MIN);
      s.status("http://a.example/2", CrawlStatus.DISCOVERED, T0 + MIN - 1); // sent before it
      s.advance(T0 + MIN - 1);
      assertThat(answers(s)).isEmpty();
      s.advance(T0 + MIN);
      assertThat(answers(s))
          .singleElement()
          .satisfies(
              a -> {
                assertThat(a.count()).isEqualTo(2);
                assertThat(a.hosts()).isEqualTo(1);
                assertThat(a.parts()).isEqualTo(1);
                assertThat(a.asOf()).isEqualTo(T0 + MIN);
              });
    }
  }

  @Test
  void deletionsCountWhatTheyRemoveAndLeaveNoStateNorTimerBehind() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      for (int i = 0; i < 3; i++) {
        s.status(event(PageKeys.of("news", "http://b.example/" + i), T0));
      }
      s.status("http://b.example/default", CrawlStatus.DISCOVERED, T0);
      s.status("http://c.example/", CrawlStatus.DISCOVERED, T0);
      s.advance(T0 + MIN); // some go out: in flight when deleted
      assertThat(s.newRequests()).isNotEmpty();

      ask(s, StateQuery.Op.DELETE_CRAWL, "news", null, T0 + MIN);
      ask(s, StateQuery.Op.LIST_CRAWLS, null, null, T0 + MIN);
      ask(s, StateQuery.Op.DELETE_HOST, "DEFAULT", "b.example", T0 + MIN);
      ask(s, StateQuery.Op.DELETE_HOST, "DEFAULT", "c.example", T0 + MIN);
      List<QueryAnswer> a = answers(s);
      assertThat(a).extracting(QueryAnswer::count).containsExactly(3L, 1L, 1L, 1L);
      assertThat(a.get(1).names()).containsExactly("DEFAULT");
      assertThat(s.keyedStateEntries()).isZero();
      assertThat(s.timers()).isZero();
      s.advance(T0 + 60 * MIN);
      assertThat(s.newRequests()).isEmpty();
    }
  }

  private static io.recrawl.wire.StatusEvent event(String key, long time) {
    io.recrawl.wire.StatusEvent e =
        SchedulerHarness.event(PageKeys.url(key), CrawlStatus.DISCOVERED, time);
    return new io.recrawl.wire.StatusEvent(
        key, e.host(), e.status(), e.time(), e.metadata(), null, null, null);
  }
}
