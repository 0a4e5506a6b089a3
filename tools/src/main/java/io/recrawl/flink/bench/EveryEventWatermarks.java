package io.recrawl.flink.bench;

import io.recrawl.wire.StatusEvent;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.TimestampAssignerSupplier;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;

/**
 * Watermarks for an in-order status input, one after every event: the scheduler's event time then
 * trails its input by one event, not by what the source produces between periodic watermarks, so
 * the time a status is applied at is within one event's spacing of its own (see {@link
 * RecoveryChecks}).
 */
final class EveryEventWatermarks implements WatermarkStrategy<StatusEvent> {

  private static final long serialVersionUID = 1L;

  @Override
  public WatermarkGenerator<StatusEvent> createWatermarkGenerator(
      WatermarkGeneratorSupplier.Context context) {
    return new WatermarkGenerator<>() {
      @Override
      public void onEvent(StatusEvent e, long timestamp, WatermarkOutput output) {
        output.emitWatermark(new Watermark(timestamp - 1));
      }

      @Override
      public void onPeriodicEmit(WatermarkOutput output) {}
    };
  }

  @Override
  public TimestampAssigner<StatusEvent> createTimestampAssigner(
      TimestampAssignerSupplier.Context context) {
    return (e, ts) -> e.time();
  }
}
