package io.recrawl.frontier;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.kafka.TrialBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.core.execution.JobClient;

/**
 * {@code bin/recrawl frontier} on one machine: a Kafka broker, the job on a local MiniCluster and
 * the service, all in this JVM, with their data under one work directory. Started again on the same
 * directory, the broker keeps its records and the job resumes from its newest checkpoint.
 */
public final class EmbeddedFrontier implements AutoCloseable {

  private final TrialBroker broker;
  private final JobClient job;
  private final FrontierServer server;
  private final Optional<Path> restoredFrom;

  private EmbeddedFrontier(
      TrialBroker broker, JobClient job, FrontierServer server, Optional<Path> restoredFrom) {
    this.broker = broker;
    this.job = job;
    this.server = server;
    this.restoredFrom = restoredFrom;
  }

  /**
   * @param work the work directory
   * @param port the gRPC port; 0 picks a free one
   * @param jobOverrides job settings over the embedded defaults
   * @param checkpointMs the job's checkpoint interval
   */
  public static EmbeddedFrontier start(
      Path work, int port, Map<String, ?> jobOverrides, long checkpointMs) throws Exception {
    Path dir = work.toAbsolutePath();
    TrialBroker broker = TrialBroker.start(dir.resolve("kafka"), 0, 0);
    JobClient job = null;
    try {
      broker.createTopics(
          Map.of(
              "crawl.status", 2,
              "crawl.requests", 2,
              "crawl.control", 1,
              "crawl.deadletters", 1,
              "crawl.decisions", 1));
      Map<String, Object> settings =
          new LinkedHashMap<>(EmbeddedJob.defaults(broker.bootstrapServers(), dir.resolve("job")));
      settings.putAll(jobOverrides);
      RecrawlConfig config = RecrawlConfig.fromMap(settings);
      Optional<Path> from = EmbeddedJob.latestCheckpoint(dir.resolve("job").resolve("checkpoints"));
      job = EmbeddedJob.start(config, dir.resolve("job"), checkpointMs, from);
      FrontierServer server =
          FrontierServer.start(FrontierSettings.defaults(broker.bootstrapServers(), port));
      return new EmbeddedFrontier(broker, job, server, from);
    } catch (Exception | Error e) {
      if (job != null) {
        job.cancel().get();
      }
      broker.close();
      throw e;
    }
  }

  /** The checkpoint the job started from; empty on a first start. */
  public Optional<Path> restoredFrom() {
    return restoredFrom;
  }

  public int port() {
    return server.port();
  }

  public String bootstrapServers() {
    return broker.bootstrapServers();
  }

  public JobClient job() {
    return job;
  }

  public FrontierService service() {
    return server.service();
  }

  /**
   * Stops the service, then the job (its checkpoints are retained) and the broker. A restart on the
   * same directory resumes from the newest checkpoint.
   */
  @Override
  public void close() throws Exception {
    try {
      server.close();
    } finally {
      try {
        job.cancel().get();
        waitStopped(Duration.ofSeconds(60));
      } finally {
        broker.close();
      }
    }
  }

  private void waitStopped(Duration max) throws Exception {
    long deadline = System.nanoTime() + max.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if (job.getJobStatus().get().isGloballyTerminalState()) {
          return;
        }
      } catch (java.util.concurrent.ExecutionException | IllegalStateException gone) {
        // the per-job MiniCluster has shut down with the job
        return;
      }
      Thread.sleep(20);
    }
  }
}
