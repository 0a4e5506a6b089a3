package io.recrawl.flink.tools.frontier;

import io.recrawl.engine.HostState;
import io.recrawl.engine.PageState;
import io.recrawl.flink.scheduler.SchedulerState;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.state.api.functions.KeyedStateBootstrapFunction;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;

/**
 * Writes imported hosts into the scheduler's state, as the operator ({@code
 * recrawl-host-scheduler}) keeps it: per host its record, pages and slots, and its one event-time
 * timer (the host's wake-up); and the operator state a restore reads, {@code engine-settings} (the
 * settings the state was built with, checked on restore) and {@code watermark} (the import's clock:
 * every status before it has been read). Nothing is in flight, so no lease slots.
 */
final class ImportedStateBootstrap
    extends KeyedStateBootstrapFunction<String, Tuple2<String, byte[]>>
    implements CheckpointedFunction {

  private static final long serialVersionUID = 1L;

  private final String settingsEntry;
  private final long watermark;

  private transient ValueState<HostState> host;
  private transient MapState<String, PageState> pages;
  private transient MapState<Long, String> slots;
  private transient ListState<Long> watermarkState;
  private transient ListState<String> settingsState;

  ImportedStateBootstrap(String settingsEntry, long watermark) {
    this.settingsEntry = settingsEntry;
    this.watermark = watermark;
  }

  @Override
  public void open(OpenContext ctx) {
    host = getRuntimeContext().getState(SchedulerState.hostDescriptor());
    pages = getRuntimeContext().getMapState(SchedulerState.pagesDescriptor());
    slots = getRuntimeContext().getMapState(SchedulerState.slotsDescriptor());
  }

  @Override
  public void processElement(Tuple2<String, byte[]> records, Context ctx) throws Exception {
    HostState h =
        HostRecords.read(
            records.f1,
            (url, page) -> {
              try {
                pages.put(url, page);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            },
            (key, url) -> {
              try {
                slots.put(key, url);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    host.update(h);
    if (h.wakeAt != Long.MAX_VALUE) {
      ctx.timerService().registerEventTimeTimer(h.wakeAt);
    }
  }

  @Override
  public void initializeState(FunctionInitializationContext ctx) throws Exception {
    watermarkState =
        ctx.getOperatorStateStore().getUnionListState(SchedulerState.watermarkDescriptor());
    settingsState =
        ctx.getOperatorStateStore().getUnionListState(SchedulerState.engineSettingsDescriptor());
  }

  @Override
  public void snapshotState(FunctionSnapshotContext ctx) throws Exception {
    watermarkState.update(List.of(watermark));
    settingsState.update(List.of(settingsEntry));
  }
}
