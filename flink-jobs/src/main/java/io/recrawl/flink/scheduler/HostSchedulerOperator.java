package io.recrawl.flink.scheduler;

import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.StatusEvent;
import java.util.List;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithKeyedOperator;

/**
 * Flink's keyed-broadcast operator around a {@link HostSchedulerFunction}, with write-back host
 * records: the function keeps changed host records on the heap and this operator has them written
 * to keyed state before every checkpoint barrier and at the end of input, so every checkpoint and
 * savepoint holds them (see {@link HostRecordCache}). A function never does this by itself: only an
 * operator sees the barrier coming, and only an operator can switch between keys to write.
 */
public final class HostSchedulerOperator
    extends CoBroadcastWithKeyedOperator<String, StatusEvent, ControlMessage, CrawlRequest> {

  private static final long serialVersionUID = 1L;

  public HostSchedulerOperator(HostSchedulerFunction function) {
    super(
        function, List.of(SchedulerState.globalDescriptor(), SchedulerState.hostRatesDescriptor()));
  }

  private HostSchedulerFunction scheduler() {
    return (HostSchedulerFunction) userFunction;
  }

  @Override
  public void open() throws Exception {
    super.open();
    scheduler().writeBackHostRecords(this);
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    scheduler().flushHostRecords();
    super.prepareSnapshotPreBarrier(checkpointId);
  }

  @Override
  public void finish() throws Exception {
    scheduler().flushHostRecords();
    super.finish();
  }
}
