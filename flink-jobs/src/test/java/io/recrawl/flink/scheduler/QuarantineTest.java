package io.recrawl.flink.scheduler;

import static io.recrawl.flink.scheduler.SchedulerHarness.DAY;
import static io.recrawl.flink.scheduler.SchedulerHarness.MIN;
import static io.recrawl.flink.scheduler.SchedulerHarness.T0;
import static io.recrawl.flink.scheduler.SchedulerHarness.settings;
import static io.recrawl.wire.CrawlStatus.DISCOVERED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.DeadLetter;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.RocksDBKeyedStateBackend;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.junit.jupiter.api.Test;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/**
 * A host whose state cannot be read, or whose wake-up throws, is quarantined when {@code
 * recrawl.quarantine.max-hosts} allows: its keyed state is cleared, it is dead-lettered with its
 * key and counted, and the other hosts go on. Without it, the job fails as before.
 */
class QuarantineTest {

  private static final Map<String, Object> ENGINE = settings();
  private static final String A = "https://a.example/";
  private static final String B = "https://b.example/";

  /** A savepoint in which a.example's host record is garbage and b.example's is sound. */
  private static OperatorSubtaskState savepointWithACorruptHost() throws Exception {
    try (SchedulerHarness s = new SchedulerHarness(ENGINE)) {
      s.status(A, DISCOVERED, T0);
      s.status(B, DISCOVERED, T0);
      s.advance(T0 + MIN);
      assertThat(s.newRequests()).hasSize(2);
      s.snapshot(); // writes the host records back to RocksDB
      corruptHostRecord(s, "a.example");
      return s.snapshot();
    }
  }

  /** Overwrites the host record of {@code host} in the harness's RocksDB with bytes too short. */
  private static void corruptHostRecord(SchedulerHarness s, String host) throws Exception {
    var backend = ((AbstractStreamOperator<?>) s.h.getOperator()).getKeyedStateBackend();
    Field dbField = RocksDBKeyedStateBackend.class.getDeclaredField("db");
    dbField.setAccessible(true);
    RocksDB db = (RocksDB) dbField.get(backend);
    Method cf =
        RocksDBKeyedStateBackend.class.getDeclaredMethod("getColumnFamilyHandle", String.class);
    cf.setAccessible(true);
    ColumnFamilyHandle hosts = (ColumnFamilyHandle) cf.invoke(backend, "host");
    byte[] name = host.getBytes(StandardCharsets.UTF_8);
    int corrupted = 0;
    try (RocksIterator it = db.newIterator(hosts)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        if (contains(it.key(), name)) {
          db.put(hosts, it.key(), new byte[] {1, 2, 3});
          corrupted++;
        }
      }
    }
    assertThat(corrupted).isEqualTo(1);
  }

  private static boolean contains(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  @Test
  void aCorruptHostRecordInASavepointIsQuarantinedAndTheJobGoesOn() throws Exception {
    OperatorSubtaskState saved = savepointWithACorruptHost();
    HostSchedulerFunction fn = new HostSchedulerFunction(ENGINE, 0.0, false).quarantining(5);
    try (SchedulerHarness s = new SchedulerHarness(fn, saved, true)) {
      s.control(ControlMessage.tick(T0 + MIN)); // rebuilds the ledger: reads every host record
      s.status(A, DISCOVERED, T0 + 2 * MIN); // a.example starts afresh
      s.advance(T0 + DAY);
      assertThat(s.newRequests()).extracting(CrawlRequest::url).contains(A, B);
      assertThat(s.deadLetters())
          .extracting(DeadLetter::reason, DeadLetter::raw)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(SchedulerOutputs.HOST_QUARANTINED, "a.example"));
      assertThat(s.deadLetters().get(0).detail()).contains("a.example");
      assertThat(s.fn.metrics().hostsQuarantined.getCount()).isEqualTo(1);
      assertThat(s.fn.metrics().hosts).isEqualTo(2);
    }
  }

  @Test
  void aQueryOverEveryHostQuarantinesAHostThatFailsAndAnswersForTheRest() throws Exception {
    FailingFunction fn = new FailingFunction(ENGINE);
    fn.quarantining(1);
    try (SchedulerHarness s = new SchedulerHarness(fn, null, true)) {
      s.status(A, DISCOVERED, T0);
      s.status(B, DISCOVERED, T0);
      s.advance(T0 + MIN);
      fn.failAt = 0; // the deletion's first engine call, on whichever host comes first
      s.control(
          ControlMessage.query(
              io.recrawl.wire.StateQuery.of(
                  "q", io.recrawl.wire.StateQuery.Op.DELETE_CRAWL, T0 + MIN, "DEFAULT", null)));
      assertThat(fn.failed).isTrue();
      var answers = s.h.getSideOutput(SchedulerOutputs.ANSWERS);
      assertThat(answers).hasSize(1);
      io.recrawl.wire.QueryAnswer a =
          io.recrawl.wire.QueryCodec.parseAnswer(answers.peek().getValue(), 0).value();
      assertThat(a.error()).isNull();
      assertThat(a.count()).isEqualTo(1); // the other host's page
      assertThat(s.deadLetters())
          .extracting(DeadLetter::reason)
          .containsExactly(SchedulerOutputs.HOST_QUARANTINED);
      assertThat(s.keyedStateEntries()).isZero();
    }
  }

  @Test
  void byDefaultACorruptHostRecordFailsTheJob() throws Exception {
    OperatorSubtaskState saved = savepointWithACorruptHost();
    assertThatThrownBy(
            () -> {
              try (SchedulerHarness s = new SchedulerHarness(ENGINE, saved)) {
                s.control(ControlMessage.tick(T0 + MIN));
                s.status(A, DISCOVERED, T0 + 2 * MIN);
              }
            })
        .hasStackTraceContaining("a.example");
  }

  @Test
  void aWakeUpThatThrowsQuarantinesItsHost() throws Exception {
    FailingFunction fn = new FailingFunction(ENGINE);
    fn.quarantining(1);
    try (SchedulerHarness s = new SchedulerHarness(fn, null, true)) {
      s.status(A, DISCOVERED, T0);
      fn.failAt = 0; // the wake-up's first read of the store
      s.advance(T0 + MIN);
      assertThat(fn.failed).isTrue();
      assertThat(s.newRequests()).isEmpty();
      assertThat(s.deadLetters())
          .extracting(DeadLetter::reason)
          .containsExactly(SchedulerOutputs.HOST_QUARANTINED);
      assertThat(s.keyedStateEntries()).isZero();
      s.status(B, DISCOVERED, T0 + 2 * MIN); // the job goes on
      s.advance(T0 + 3 * MIN);
      assertThat(s.newRequests()).extracting(CrawlRequest::url).containsExactly(B);
    }
  }

  @Test
  void quarantinesStopAtTheirLimit() throws Exception {
    FailingFunction fn = new FailingFunction(ENGINE);
    fn.quarantining(1);
    try (SchedulerHarness s = new SchedulerHarness(fn, null, true)) {
      s.status(A, DISCOVERED, T0);
      s.status(B, DISCOVERED, T0);
      fn.failAt = 0;
      s.advance(T0 + MIN); // a.example quarantined, b.example released
      assertThat(s.newRequests()).extracting(CrawlRequest::url).containsExactly(B);
      fn.failAt = 0;
      // b.example's lease check: one host more than the limit fails the job
      assertThatThrownBy(() -> s.advance(T0 + DAY)).hasStackTraceContaining("injected failure");
      assertThat(s.fn.metrics().hostsQuarantined.getCount()).isEqualTo(1);
    }
  }
}
