package io.recrawl.flink.testing;

import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Forwards records unchanged and watermarks no further than a fixed time. A bounded test input
 * ends with the final (Long.MAX_VALUE) watermark, which would fire every timer up to the end of
 * time: a scheduler re-releases leased pages forever. Capped, a simulation stops at its end time.
 */
public final class WatermarkCap<T> extends AbstractStreamOperator<T> implements OneInputStreamOperator<T, T> {

  private static final long serialVersionUID = 1L;

  private final long cap;

  public WatermarkCap(long cap) {
    this.cap = cap;
  }

  @Override
  public void processElement(StreamRecord<T> element) {
    output.collect(element);
  }

  @Override
  public void processWatermark(Watermark mark) throws Exception {
    super.processWatermark(mark.getTimestamp() > cap ? new Watermark(cap) : mark);
  }
}
