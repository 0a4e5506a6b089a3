package io.recrawl.flink.testutil;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.job.JobSinks;
import io.recrawl.flink.job.JobSources;
import io.recrawl.flink.job.RecrawlJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** The MiniCluster the ITCases share: one task manager with two slots, on RocksDB. */
public final class TestClusters {

  private TestClusters() {}

  /** A MiniCluster extension with {@code config}, which should name the RocksDB backend. */
  public static MiniClusterExtension miniCluster(Configuration config) {
    return new MiniClusterExtension(
        new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .setConfiguration(config)
            .build());
  }

  /** RocksDB only; restart strategy and checkpoints are left to each job. */
  public static Configuration rocksDb() {
    Configuration c = new Configuration();
    c.setString("state.backend.type", "rocksdb");
    return c;
  }

  /**
   * RocksDB, no Kryo fallback, no restarts (a failure fails the test), and optionally checkpoints.
   */
  public static Configuration strict(String checkpointInterval) {
    Configuration c = rocksDb();
    c.setString("pipeline.generic-types", "false");
    c.setString("restart-strategy.type", "none");
    if (checkpointInterval != null) {
      c.setString("execution.checkpointing.interval", checkpointInterval);
    }
    return c;
  }

  /**
   * Starts the production job of {@code config} (its own sources and sinks) on the MiniCluster,
   * checkpointing every 500 ms: checkpoints commit the exactly-once Kafka requests and finalise
   * file parts, so a test sees output within a second.
   */
  public static JobClient startJob(RecrawlConfig config, String name) throws Exception {
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(
            Configuration.fromMap(
                Map.of(
                    "execution.checkpointing.interval",
                    "500 ms",
                    "execution.checkpointing.dir",
                    checkpointDir(name).toUri().toString())));
    RecrawlJob.build(env, config, JobSources.fromConfig(config), JobSinks.fromConfig(config));
    return env.executeAsync(name);
  }

  /**
   * Cancels a job and waits until it has stopped: a job still cancelling may start another's race.
   */
  public static void cancelAndWait(JobClient job) throws Exception {
    job.cancel().get();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!stopped(job)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "job " + job.getJobID() + " did not stop within 60 s of its cancellation");
      }
      Thread.sleep(10);
    }
  }

  /** Whether the job has reached a terminal state; a MiniCluster already shut down runs no job. */
  private static boolean stopped(JobClient job) throws Exception {
    try {
      return job.getJobStatus().get().isGloballyTerminalState();
    } catch (IllegalStateException clusterDown) {
      return true;
    }
  }

  /**
   * A fresh directory for a job's checkpoints under {@code target/}, not in a JUnit temp dir: Flink
   * discards checkpoints asynchronously, even after the job has stopped, and a temp dir deleted at
   * the same moment fails the test ("Failed to delete temp directory").
   */
  public static Path checkpointDir(String name) throws IOException {
    return Files.createDirectories(
            Path.of("target", "it-checkpoints", name + "-" + UUID.randomUUID()))
        .toAbsolutePath();
  }
}
