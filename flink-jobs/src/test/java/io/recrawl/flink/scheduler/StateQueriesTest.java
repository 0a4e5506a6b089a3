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
  void behindAnOutOfOrderSourceAQueryIsAnsweredOnceTheStatusesAreReadPastIt() throws Exception {
    // A minute of out-of-orderness: event time runs a minute behind the statuses read.
    try (SchedulerHarness s = SchedulerHarness.withStatusLateness(settings(), MIN)) {
      s.status("http://a.example/1", CrawlStatus.DISCOVERED, T0);
      ask(s, StateQuery.Op.STATS, null, "a.example", T0 + MIN);
      s.status("http://a.example/2", CrawlStatus.DISCOVERED, T0 + MIN - 1); // sent before it
      s.advance(T0 - 1); // the newest status read is at T0 + MIN - 1: not past the query
      assertThat(answers(s)).isEmpty();
      s.advance(T0); // a status past the query was read
      assertThat(answers(s))
          .singleElement()
          .satisfies(
              a -> {
                assertThat(a.count()).isEqualTo(2);
                assertThat(a.asOf()).isEqualTo(T0 + MIN);
              });
    }
  }

  @Test
  void aDeletionAnsweredAheadOfEventTimeLeavesTheHostsOtherPagesOnSchedule() throws Exception {
    try (SchedulerHarness s = SchedulerHarness.withStatusLateness(settings(), 10 * MIN)) {
      s.status(event(PageKeys.of("news", "http://b.example/n"), T0));
      s.status("http://b.example/d", CrawlStatus.DISCOVERED, T0);
      s.advance(T0 - 1);
      assertThat(s.newRequests()).isEmpty(); // b's wake-up waits at T0

      ask(s, StateQuery.Op.DELETE_CRAWL, "news", null, T0 + 5 * MIN); // ahead of event time
      assertThat(answers(s)).extracting(QueryAnswer::count).containsExactly(1L);
      s.advance(T0 + MIN);
      assertThat(s.newRequests())
          .extracting(io.recrawl.wire.CrawlRequest::url)
          .containsExactly("http://b.example/d");
    }
  }

  @Test
  void aDeletionHoldsAsOfEveryRequestReleasedBeforeItEvenOneStampedAfterTheQuery()
      throws Exception {
    try (SchedulerHarness s =
        SchedulerHarness.withStatusLateness(settings("lease", "1 d"), 10 * MIN)) {
      s.status("http://b.example/1", CrawlStatus.DISCOVERED, T0);
      s.advance(T0 + 2 * MIN);
      assertThat(s.newRequests()).hasSize(1); // b is known: its next page may go at once
      s.status("http://b.example/2", CrawlStatus.DISCOVERED, T0 + 8 * MIN); // ahead of event time
      List<io.recrawl.wire.CrawlRequest> out = s.newRequests();
      assertThat(out)
          .singleElement()
          .satisfies(r -> assertThat(r.time()).isGreaterThan(T0 + 3 * MIN));

      ask(s, StateQuery.Op.DELETE_CRAWL, "DEFAULT", null, T0 + 3 * MIN);
      assertThat(answers(s))
          .singleElement()
          .satisfies(a -> assertThat(a.asOf()).isGreaterThanOrEqualTo(out.get(0).time()));
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

  private static final int HOSTS = 24;
  private static final int PAGES = 500;

  /** Hosts of {@link #PAGES} pages each, and one page of crawl "news" on each. */
  private static void manyPages(SchedulerHarness s) throws Exception {
    for (int h = 0; h < HOSTS; h++) {
      for (int i = 0; i < PAGES; i++) {
        s.status("http://h" + h + ".example/" + i, CrawlStatus.DISCOVERED, T0);
      }
      s.status(event(PageKeys.of("news", "http://h" + h + ".example/old"), T0));
    }
  }

  /** Runs the walk's slices to its answer; returns how many there were. */
  private static int slicesToTheEnd(SchedulerHarness s) throws Exception {
    int slices = 0;
    while (s.nextCallback()) {
      slices++;
    }
    return slices;
  }

  @Test
  void aQueryOfEveryHostWalksInSlicesBetweenWhichStatusesAndCheckpointsGoOn() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      manyPages(s);
      s.runCallbacks = false;
      ask(s, StateQuery.Op.STATS, null, null, T0 + MIN);
      s.advance(T0 + MIN);
      assertThat(answers(s)).as("not in the call that started it").isEmpty();
      assertThat(s.nextCallback()).isTrue();
      assertThat(answers(s)).isEmpty();
      s.snapshot(); // a checkpoint between two slices
      int pages = HOSTS * (PAGES + 1);
      assertThat(slicesToTheEnd(s) + 1).isGreaterThanOrEqualTo(pages / StateQueries.SLICE_PAGES);
      assertThat(answers(s)).singleElement().satisfies(a -> assertThat(a.count()).isEqualTo(pages));
    }
  }

  @Test
  void aWalkSeesEachHostAsItWasWhenAskedWhateverComesBeforeItsSlice() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(settings())) {
      manyPages(s);
      s.advance(T0 + MIN);
      s.runCallbacks = false;
      ask(s, StateQuery.Op.DELETE_CRAWL, "news", null, T0 + MIN);
      ask(s, StateQuery.Op.COUNT_URLS, "DEFAULT", null, T0 + MIN);
      ask(s, StateQuery.Op.COUNT_URLS, "DEFAULT", null, T0 + MIN + 1); // asked again: joins it
      s.advance(T0 + MIN + 1);
      assertThat(s.nextCallback()).isTrue(); // the deletion's first slice
      // Before the rest: every host gets a page of each crawl, asked after the queries.
      for (int h = 0; h < HOSTS; h++) {
        s.status("http://h" + h + ".example/late", CrawlStatus.DISCOVERED, T0 + 2 * MIN);
        s.status(event(PageKeys.of("news", "http://h" + h + ".example/late"), T0 + 2 * MIN));
      }
      slicesToTheEnd(s);
      assertThat(answers(s))
          .extracting(QueryAnswer::count)
          .containsExactly((long) HOSTS, (long) HOSTS * PAGES, (long) HOSTS * PAGES);
      s.runCallbacks = true;
      ask(s, StateQuery.Op.COUNT_URLS, "news", null, T0 + 2 * MIN);
      s.advance(T0 + 2 * MIN);
      assertThat(answers(s).get(3).count())
          .as("the news pages come after the deletion")
          .isEqualTo(HOSTS);
    }
  }

  private static io.recrawl.wire.StatusEvent event(String key, long time) {
    io.recrawl.wire.StatusEvent e =
        SchedulerHarness.event(PageKeys.url(key), CrawlStatus.DISCOVERED, time);
    return new io.recrawl.wire.StatusEvent(
        key, e.host(), e.status(), e.time(), e.metadata(), null, null, null);
  }
}
