package io.recrawl.frontier;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.flink.job.JobSinks;
import io.recrawl.flink.job.JobSources;
import io.recrawl.flink.job.RecrawlJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The recrawl job on a local MiniCluster for the embedded frontier: RocksDB state and retained
 * checkpoints under a work directory, started from the newest checkpoint when there is one.
 */
final class EmbeddedJob {

  private EmbeddedJob() {}

  /**
   * The job settings of the embedded frontier, before the user's. Requests go out at least once: a
   * request is readable as soon as the job releases it, not at the next checkpoint, and the job's
   * lease and the service's delay already cover a request sent twice. Watermarks follow wall-clock
   * closely, so a host's timer is not held back by a late watermark.
   */
  static Map<String, Object> defaults(String bootstrap, Path work) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("recrawl.input.type", "kafka");
    m.put("recrawl.output.type", "kafka");
    m.put("recrawl.output.delivery", "at-least-once");
    m.put("recrawl.deadletters.type", "kafka");
    m.put("recrawl.kafka.bootstrap.servers", bootstrap);
    m.put("recrawl.kafka.group.id", "recrawl-frontier-job");
    m.put("recrawl.kafka.starting-offsets", "earliest");
    m.put("recrawl.watermark.out-of-orderness-ms", 50);
    m.put("recrawl.watermark.idleness-ms", 100);
    m.put("recrawl.control.tick-interval-ms", 50);
    m.put("recrawl.metadata.transfer", List.of(CrawlIds.KEY));
    m.put("recrawl.global-lambda", 2e-9);
    m.put("recrawl.parallelism", 1);
    m.put("recrawl.work-dir", work.toString());
    m.put("recrawl.engine.due.bucket", "100 ms");
    // URL Frontier's default delay_requestable: a URL no client reports on goes out again then.
    m.put("recrawl.engine.lease", "30 s");
    return m;
  }

  /** The MiniCluster's settings: RocksDB, retained checkpoints every {@code checkpointMs}. */
  static Configuration flinkSettings(Path work, long checkpointMs) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("state.backend.type", "rocksdb");
    m.put("execution.checkpointing.incremental", "true");
    m.put("state.backend.rocksdb.use-bloom-filter", "true");
    m.put("execution.checkpointing.interval", checkpointMs + " ms");
    m.put("execution.checkpointing.dir", work.resolve("checkpoints").toUri().toString());
    m.put("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION");
    m.put("state.backend.rocksdb.localdir", work.resolve("rocksdb").toString());
    m.put("pipeline.generic-types", "false");
    // A new host's first page goes at its first timer, which fires once the watermark passes it:
    // watermarks (and the idleness that lets a quiet partition stop holding them) every 50 ms.
    m.put("pipeline.auto-watermark-interval", "50 ms");
    // Records leave an operator within 5 ms, not the default 100.
    m.put("execution.buffer-timeout.interval", "5 ms");
    return Configuration.fromMap(m);
  }

  /** Starts the job, from the given checkpoint if any. */
  static JobClient start(RecrawlConfig config, Path work, long checkpointMs, Optional<Path> from)
      throws Exception {
    Configuration flink = flinkSettings(work, checkpointMs);
    from.ifPresent(p -> flink.setString("execution.state-recovery.path", p.toString()));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(flink);
    RecrawlJob.build(env, config, JobSources.fromConfig(config), JobSinks.fromConfig(config));
    return env.executeAsync(config.get(RecrawlOptions.JOB_NAME) + "-frontier");
  }

  /** The newest {@code <job id>/chk-N} with its {@code _metadata}. */
  static Optional<Path> latestCheckpoint(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (Stream<Path> jobs = Files.list(dir)) {
      List<Path> chks =
          jobs.filter(Files::isDirectory)
              .flatMap(EmbeddedJob::children)
              .filter(p -> p.getFileName().toString().startsWith("chk-"))
              .filter(p -> Files.exists(p.resolve("_metadata")))
              .toList();
      return chks.stream().max(Comparator.comparing(EmbeddedJob::modified));
    }
  }

  private static Stream<Path> children(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList().stream();
    } catch (IOException e) {
      return Stream.empty();
    }
  }

  private static FileTime modified(Path chk) {
    try {
      return Files.getLastModifiedTime(chk.resolve("_metadata"));
    } catch (IOException e) {
      return FileTime.fromMillis(0);
    }
  }
}
