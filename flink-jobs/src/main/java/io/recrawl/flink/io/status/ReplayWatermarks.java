package io.recrawl.flink.io.status;

import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Event time of a bounded replay, the same whatever the machine's speed: a watermark after every
 * event that moves it (the largest time so far less the out-of-orderness), and at the end of the
 * input the last event's time itself, then the end of time.
 *
 * <p>Flink's periodic watermarks are emitted on a processing-time interval, so how far event time
 * had got when an event arrived, and where it stood when the file ended, depended on how fast the
 * file was read (docs/decisions/deterministic-replay.md). Here the watermarks are a function of the
 * file alone. They are exact only if this operator sees every event in order, one subtask reading
 * the files ({@link StatusSources#files} sets parallelism 1); the end of time is passed on but
 * fires no scheduler timer ({@code HostSchedulerOperator}), so the replay ends at the last event's
 * time, not beyond.
 *
 * <p>Events get their own time as timestamp, dead letters none (they never move a watermark).
 * Watermarks from upstream are ignored, but for the end of time.
 */
public final class ReplayWatermarks extends AbstractStreamOperator<Parsed<StatusEvent>>
    implements OneInputStreamOperator<Parsed<StatusEvent>, Parsed<StatusEvent>> {

  private static final long serialVersionUID = 1L;

  private final long outOfOrdernessMs;
  private transient long maxTime;
  private transient long emitted;

  public ReplayWatermarks(long outOfOrdernessMs) {
    if (outOfOrdernessMs < 0) {
      throw new IllegalArgumentException("out-of-orderness must be >= 0, got " + outOfOrdernessMs);
    }
    this.outOfOrdernessMs = outOfOrdernessMs;
  }

  @Override
  public void open() throws Exception {
    super.open();
    maxTime = Long.MIN_VALUE;
    emitted = Long.MIN_VALUE;
  }

  @Override
  public void processElement(StreamRecord<Parsed<StatusEvent>> record) throws Exception {
    Parsed<StatusEvent> p = record.getValue();
    if (!p.ok()) {
      output.collect(record.replace(p, Long.MIN_VALUE));
      return;
    }
    long time = p.value().time();
    output.collect(record.replace(p, time));
    if (time > maxTime) {
      maxTime = time;
      emit(time - outOfOrdernessMs - 1);
    }
  }

  @Override
  public void processWatermark(Watermark mark) throws Exception {
    if (mark.getTimestamp() == Long.MAX_VALUE) {
      if (maxTime != Long.MIN_VALUE) {
        emit(maxTime); // every event is in: event time is the last one's
      }
      emit(Long.MAX_VALUE);
    }
  }

  private void emit(long watermark) {
    if (watermark > emitted) {
      emitted = watermark;
      output.emitWatermark(new Watermark(watermark));
    }
  }
}
