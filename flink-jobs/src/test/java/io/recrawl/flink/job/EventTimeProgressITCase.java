package io.recrawl.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.StatusEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Event time keeps moving while no status event arrives: the status input goes idle and the control
 * stream's wall-clock ticks carry the watermark, so an event-time timer set after the last event
 * fires. The job is unbounded here, as in production.
 */
class EventTimeProgressITCase {

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = TestClusters.miniCluster(TestClusters.strict(null));

  @TempDir Path dir;

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void aTimerAfterTheLastEventFiresOnTicks() throws Exception {
    // The event lies a little ahead of the wall clock, so that its timer can only fire once ticks
    // (wall-clock time) pass it; a watermark jumping to the end of time would fire it at once.
    long eventTime = System.currentTimeMillis() + 8_000;
    Files.writeString(
        dir.resolve("status.jsonl"),
        "{\"url\":\"http://a.org/\",\"status\":\"FETCHED\",\"time\":" + eventTime + "}\n");
    RecrawlConfig config =
        RecrawlConfig.fromMap(
            Map.of(
                "recrawl.input.path", dir.toString(),
                "recrawl.input.monitor-interval-ms", 200, // unbounded: the status input never ends
                "recrawl.watermark.out-of-orderness-ms", 0,
                "recrawl.watermark.idleness-ms", 500,
                "recrawl.control.tick-interval-ms", 200,
                "recrawl.parallelism", 1));

    CloseableIterator<CrawlRequest>[] out = new CloseableIterator[1];
    JobSinks sinks =
        new JobSinks() {
          @Override
          public void requests(DataStream<CrawlRequest> requests) {
            out[0] = requests.collectAsync();
          }

          @Override
          public void deadLetters(DataStream<DeadLetter> deadLetters) {
            deadLetters.sinkTo(new DiscardingSink<>());
          }

          @Override
          public void globalLambdas(DataStream<ControlMessage> lambdas) {
            lambdas.sinkTo(new DiscardingSink<>());
          }
        };
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    RecrawlJob.build(
        env,
        config,
        JobSources.fromConfig(config),
        sinks,
        (byHost, control, c) ->
            byHost
                .connect(control.broadcast(LAMBDA))
                .process(new ReleaseLater(), WireTypes.CRAWL_REQUEST));
    JobClient job = env.executeAsync("event-time-progress");
    try (CloseableIterator<CrawlRequest> requests = out[0]) {
      assertThat(requests.hasNext()).isTrue(); // blocks until the timer fired
      CrawlRequest r = requests.next();
      long receivedAt = System.currentTimeMillis();
      assertThat(r.url()).isEqualTo("http://a.org/");
      assertThat(r.time()).isEqualTo(eventTime + ReleaseLater.DELAY_MS);
      assertThat(receivedAt)
          .as("released by wall-clock ticks, not by an end-of-input watermark")
          .isGreaterThanOrEqualTo(r.time());
    } finally {
      job.cancel().get();
    }
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void withoutTicksAnIdleInputDoesNotJumpToTheEndOfTime() throws Exception {
    long eventTime = System.currentTimeMillis() - 60_000;
    Files.writeString(
        dir.resolve("status.jsonl"),
        "{\"url\":\"http://a.org/\",\"status\":\"FETCHED\",\"time\":" + eventTime + "}\n");
    RecrawlConfig config =
        RecrawlConfig.fromMap(
            Map.of(
                "recrawl.input.path", dir.toString(),
                "recrawl.input.monitor-interval-ms", 200,
                "recrawl.watermark.out-of-orderness-ms", 0,
                "recrawl.watermark.idleness-ms", 500,
                "recrawl.control.tick-interval-ms", 0,
                "recrawl.parallelism", 1));
    CloseableIterator<CrawlRequest>[] out = new CloseableIterator[1];
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    RecrawlJob.build(
        env,
        config,
        JobSources.fromConfig(config),
        collecting(out),
        (byHost, control, c) ->
            byHost
                .connect(control.broadcast(LAMBDA))
                .process(new ReleaseLater(), WireTypes.CRAWL_REQUEST));
    JobClient job = env.executeAsync("no-ticks");
    try {
      // The timer lies 1 s of event time after the only event; with no ticks and no more events,
      // event time must stay put, however long the input is idle.
      var next = java.util.concurrent.CompletableFuture.supplyAsync(out[0]::hasNext);
      assertThatThrownBy(() -> next.get(8, TimeUnit.SECONDS))
          .isInstanceOf(java.util.concurrent.TimeoutException.class);
      assertThat(job.getJobStatus().get()).isEqualTo(org.apache.flink.api.common.JobStatus.RUNNING);
    } finally {
      job.cancel().get();
      out[0].close();
    }
  }

  private static JobSinks collecting(CloseableIterator<CrawlRequest>[] out) {
    return new JobSinks() {
      @Override
      public void requests(DataStream<CrawlRequest> requests) {
        out[0] = requests.collectAsync();
      }

      @Override
      public void deadLetters(DataStream<DeadLetter> deadLetters) {
        deadLetters.sinkTo(new DiscardingSink<>());
      }

      @Override
      public void globalLambdas(DataStream<ControlMessage> lambdas) {
        lambdas.sinkTo(new DiscardingSink<>());
      }
    };
  }

  static final MapStateDescriptor<String, Double> LAMBDA =
      new MapStateDescriptor<>("lambda0", Types.STRING, Types.DOUBLE);

  /** Test-only: each event becomes a request when event time passes event time + 1 s. */
  static final class ReleaseLater
      extends KeyedBroadcastProcessFunction<String, StatusEvent, ControlMessage, CrawlRequest> {
    private static final long serialVersionUID = 1L;
    static final long DELAY_MS = 1_000;
    private transient StatusEvent last;

    @Override
    public void processElement(StatusEvent e, ReadOnlyContext ctx, Collector<CrawlRequest> out) {
      last = e; // one event in this test; a real operator keeps keyed state
      ctx.timerService().registerEventTimeTimer(e.time() + DELAY_MS);
    }

    @Override
    public void processBroadcastElement(
        ControlMessage m, Context ctx, Collector<CrawlRequest> out) {}

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<CrawlRequest> out) {
      out.collect(
          new CrawlRequest(
              last.url(),
              ctx.getCurrentKey(),
              last.metadata(),
              timestamp,
              timestamp,
              0,
              0,
              timestamp + 1));
    }
  }
}
