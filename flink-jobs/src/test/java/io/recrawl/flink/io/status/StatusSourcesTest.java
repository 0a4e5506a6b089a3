package io.recrawl.flink.io.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.junit.jupiter.api.Test;

class StatusSourcesTest {

  private static Parsed<StatusEvent> event(long time) {
    return Parsed.ok(
        new StatusEvent(
            "http://a.org/", "a.org", CrawlStatus.FETCHED, time, Map.of(), null, null, null));
  }

  @Test
  void eventTimeIsTheEventsTimeAndDeadLettersNeverMoveTheWatermark() {
    RecrawlConfig config =
        RecrawlConfig.fromMap(
            Map.of(
                "recrawl.watermark.out-of-orderness-ms",
                1_000,
                "recrawl.watermark.idleness-ms",
                0));
    WatermarkStrategy<Parsed<StatusEvent>> strategy = StatusSources.watermarks(config);
    TimestampAssigner<Parsed<StatusEvent>> assigner = strategy.createTimestampAssigner(null);
    WatermarkGenerator<Parsed<StatusEvent>> generator = strategy.createWatermarkGenerator(null);
    List<Long> watermarks = new ArrayList<>();
    WatermarkOutput out =
        new WatermarkOutput() {
          @Override
          public void emitWatermark(Watermark w) {
            watermarks.add(w.getTimestamp());
          }

          @Override
          public void markIdle() {}

          @Override
          public void markActive() {}
        };

    Parsed<StatusEvent> e = event(10_000);
    Parsed<StatusEvent> dead =
        Parsed.rejected(new DeadLetter("x", "malformed_json", "", 99_999_999));
    assertThat(assigner.extractTimestamp(e, 5)).isEqualTo(10_000);
    assertThat(assigner.extractTimestamp(dead, 50_000)).isEqualTo(Long.MIN_VALUE);

    generator.onEvent(e, 10_000, out);
    generator.onEvent(dead, assigner.extractTimestamp(dead, 50_000), out);
    generator.onPeriodicEmit(out);
    assertThat(watermarks).last().isEqualTo(10_000L - 1_000 - 1);
  }
}
