package io.recrawl.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.io.control.ControlSources;
import io.recrawl.flink.io.status.StatusSources;
import io.recrawl.flink.testutil.JsonLines;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deterministic replay: one bounded replay (JSON-lines status files read once, no ticks) run with
 * different parallelism, watermark intervals and source speeds gives the same requests, host by
 * host, and ends at the last event's time.
 */
class ReplayDeterminismITCase {

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = TestClusters.miniCluster(TestClusters.strict(null));

  /** 2025-01-01T00:00:00Z. */
  private static final long T0 = 1_735_689_600_000L;

  private static final long MIN = 60_000L;
  private static final long HOUR = 60 * MIN;

  @TempDir Path dir;

  /**
   * Three hours of statuses for 20 hosts of 5 pages: all discovered in the first minute, then three
   * pages of each fetched every 15 to 45 minutes, a little out of order; the crawler never answers
   * for the other two, which go again as their leases run out.
   */
  private Path timeline() throws Exception {
    Random rnd = new Random(19);
    List<long[]> events = new ArrayList<>(); // time, host, page, kind (0 discovered, 1 fetched)
    for (int h = 0; h < 20; h++) {
      for (int p = 0; p < 5; p++) {
        long t = T0 + rnd.nextInt(60_000);
        events.add(new long[] {t, h, p, 0});
        for (t += 15 * MIN + rnd.nextInt(30 * (int) MIN);
            p < 3 && t < T0 + 3 * HOUR;
            t += 15 * MIN + rnd.nextInt(30 * (int) MIN)) {
          events.add(new long[] {t, h, p, 1});
        }
      }
    }
    // In time order but for a jitter of up to 20 s (the out-of-orderness allowed is a minute).
    events.sort(Comparator.comparingLong(e -> e[0] + (e[0] * 31 + e[1] * 7 + e[2]) % 20_000));
    StringBuilder lines = new StringBuilder();
    for (long[] e : events) {
      lines
          .append("{\"url\":\"https://h")
          .append(e[1])
          .append(".example/")
          .append(e[2])
          .append("\",\"status\":\"")
          .append(e[3] == 0 ? "DISCOVERED" : "FETCHED")
          .append("\",\"time\":")
          .append(e[0])
          .append(e[3] == 0 ? "" : ",\"changed\":" + (rnd.nextBoolean()))
          .append("}\n");
    }
    Path input = Files.createDirectories(dir.resolve("in"));
    Files.writeString(input.resolve("status.jsonl"), lines);
    return input;
  }

  /** One run's requests: per host, each request's time and URL in order. */
  private Map<String, List<String>> replay(
      Path input, String name, int parallelism, long watermarkIntervalMs, long sleepEvery)
      throws Exception {
    Path out = dir.resolve("out-" + name);
    RecrawlConfig config =
        RecrawlConfig.fromMap(
            Map.of(
                "recrawl.input.path",
                input.toString(),
                "recrawl.input.monitor-interval-ms",
                0,
                "recrawl.control.tick-interval-ms",
                0,
                "recrawl.output.path",
                out.toString(),
                "recrawl.deadletters.path",
                dir.resolve("dead-" + name).toString(),
                "recrawl.parallelism",
                parallelism));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.getConfig().setAutoWatermarkInterval(watermarkIntervalMs);
    JobSources sources = JobSources.fromConfig(config);
    JobSources throttled =
        new JobSources() {
          @Override
          public DataStream<Parsed<StatusEvent>> statusEvents(StreamExecutionEnvironment e) {
            DataStream<Parsed<StatusEvent>> events = StatusSources.fromConfig(e, config);
            return events
                .map(new Slow<Parsed<StatusEvent>>(sleepEvery, 2), events.getType())
                .setParallelism(1);
          }

          @Override
          public DataStream<Parsed<ControlMessage>> control(StreamExecutionEnvironment e) {
            // The control message (the static lambda) late: after much of the file was read.
            DataStream<Parsed<ControlMessage>> c = ControlSources.fromConfig(e, config);
            return c.map(new Slow<Parsed<ControlMessage>>(1, 500), c.getType()).setParallelism(1);
          }
        };
    RecrawlJob.build(
        env, config, sleepEvery > 0 ? throttled : sources, JobSinks.fromConfig(config));
    env.execute("replay-" + name);
    Map<String, List<String>> byHost = new TreeMap<>();
    List<CrawlRequest> requests =
        JsonLines.readAll(out).stream().map(l -> CrawlRequestCodec.parse(l, 0).value()).toList();
    for (CrawlRequest r : requests) {
      byHost.computeIfAbsent(r.host(), h -> new ArrayList<>()).add(r.time() + " " + r.url());
    }
    byHost.values().forEach(l -> l.sort(null));
    return byHost;
  }

  /** Sleeps {@code ms} every {@code every} records. */
  static final class Slow<T> implements MapFunction<T, T> {
    private static final long serialVersionUID = 1L;
    private final long every;
    private final long ms;
    private long n;

    Slow(long every, long ms) {
      this.every = every;
      this.ms = ms;
    }

    @Override
    public T map(T value) throws Exception {
      if (every > 0 && ++n % every == 0) {
        Thread.sleep(ms);
      }
      return value;
    }
  }

  @Test
  void oneReplayGivesTheSameRequestsWhateverTheSpeedAndParallelism() throws Exception {
    Path input = timeline();
    Map<String, List<String>> reference = replay(input, "p1-fast", 1, 200, 0);
    long requests = reference.values().stream().mapToLong(List::size).sum();
    assertThat(reference).hasSize(20);
    assertThat(requests).as("more than the first releases: the replay ran on").isGreaterThan(120);
    // It ends at the last event's time, not beyond (no release at the end of time).
    assertThat(
            reference.values().stream()
                .flatMap(List::stream)
                .mapToLong(s -> Long.parseLong(s.substring(0, s.indexOf(' '))))
                .max()
                .orElseThrow())
        .isLessThanOrEqualTo(T0 + 3 * HOUR + MIN);
    Map<String, Map<String, List<String>>> others = new HashMap<>();
    others.put("p2-fast", replay(input, "p2-fast", 2, 200, 0));
    others.put("p1-slow", replay(input, "p1-slow", 1, 1, 40));
    others.put("p2-slow", replay(input, "p2-slow", 2, 5, 25));
    others.forEach((name, run) -> assertThat(run).as(name).isEqualTo(reference));
  }
}
