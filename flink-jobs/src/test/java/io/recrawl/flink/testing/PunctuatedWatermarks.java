package io.recrawl.flink.testing;

import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;

/** Test inputs are sorted by time: a watermark after every record keeps event time moving smoothly. */
public final class PunctuatedWatermarks {

  private PunctuatedWatermarks() {}

  public static <T> WatermarkStrategy<T> of(SerializableTimestampAssigner<T> time) {
    return WatermarkStrategy.<T>forGenerator(
            ctx ->
                new WatermarkGenerator<T>() {
                  private long max = Long.MIN_VALUE;

                  @Override
                  public void onEvent(T event, long ts, WatermarkOutput out) {
                    if (ts > max) {
                      max = ts;
                      out.emitWatermark(new Watermark(ts - 1));
                    }
                  }

                  @Override
                  public void onPeriodicEmit(WatermarkOutput out) {}
                })
        .withTimestampAssigner(ctx -> time);
  }

}
