package io.recrawl.frontier;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.job.JobSinks;
import io.recrawl.flink.job.JobSources;
import io.recrawl.flink.job.RecrawlJob;
import io.recrawl.flink.launch.RunCommand;
import io.recrawl.kafka.KafkaCommand;
import io.recrawl.kafka.TrialBroker;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The embedded frontier: a trial broker, the job on a local MiniCluster with RocksDB, and the
 * service, in this JVM, with their state under one directory. {@code bin/recrawl frontier} runs it,
 * and so do the tests and {@code bin/recrawl bench frontier}, with a gRPC channel to the service.
 */
final class EmbeddedFrontier implements AutoCloseable {

  /**
   * How an embedded frontier starts.
   *
   * @param dir the work directory: {@code kafka/}, {@code job/} (state, checkpoints, savepoints),
   *     {@code job.yaml}
   * @param kafkaPort the broker's port (0: a free one)
   * @param controllerPort the broker's KRaft controller port (0: a free one)
   * @param partitions partitions of each of the crawl's topics
   * @param jobSettings job settings over the embedded ones ({@link FrontierCommand#jobSettings})
   * @param restoreFrom a savepoint or retained checkpoint to start the job from, or null
   * @param metrics whether the job serves Prometheus metrics
   */
  record Launch(
      Path dir,
      int kafkaPort,
      int controllerPort,
      int partitions,
      Map<String, Object> jobSettings,
      Path restoreFrom,
      boolean metrics) {}

  final FrontierSettings settings;
  final TrialBroker broker;
  final JobClient job;
  final FrontierServer server;
  final ManagedChannel channel;
  final Path configFile;
  private final Path dir;

  /** A test's frontier: free ports, two partitions, parallelism 2, a 5 s default delay. */
  EmbeddedFrontier(Path dir, Map<String, Object> jobOverrides) throws Exception {
    this(dir, jobOverrides, null);
  }

  /**
   * @param restoreFrom a checkpoint or savepoint of the job to start from, or null
   */
  EmbeddedFrontier(Path dir, Map<String, Object> jobOverrides, String restoreFrom)
      throws Exception {
    this(dir, jobOverrides, restoreFrom, s -> s);
  }

  /**
   * @param service changes the service's settings (modes, delays)
   */
  EmbeddedFrontier(
      Path dir,
      Map<String, Object> jobOverrides,
      String restoreFrom,
      java.util.function.UnaryOperator<FrontierSettings> service)
      throws Exception {
    this(
        new Launch(
            dir,
            freePort(),
            freePort(),
            2,
            withParallelism2(jobOverrides),
            restoreFrom == null ? null : Path.of(restoreFrom),
            false),
        bootstrap ->
            service.apply(
                FrontierSettings.defaults(bootstrap).withPort(0).withDefaultDelaySeconds(5)));
  }

  private static Map<String, Object> withParallelism2(Map<String, Object> overrides) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("recrawl.parallelism", 2);
    m.putAll(overrides);
    return m;
  }

  /**
   * Starts the broker, the job and the service.
   *
   * @param service the service's settings, given the broker's address
   * @throws io.recrawl.flink.config.ConfigException a job setting is refused (naming its key)
   */
  EmbeddedFrontier(Launch launch, java.util.function.Function<String, FrontierSettings> service)
      throws Exception {
    this.dir = launch.dir();
    broker = TrialBroker.start(dir.resolve("kafka"), launch.kafkaPort(), launch.controllerPort());
    try {
      broker.createTopics(KafkaCommand.topics(launch.partitions()));
      settings = service.apply(broker.bootstrapServers());
      configFile = writeJobConfig(dir, settings, launch.jobSettings());
      RecrawlConfig config = RecrawlConfig.load(configFile);
      Configuration local =
          RunCommand.localConfiguration(new Configuration(), dir.resolve("job").toAbsolutePath());
      FrontierCommand.FLINK_SETTINGS.forEach(local::setString);
      if (launch.metrics()) {
        RunCommand.metrics(local);
      }
      if (launch.restoreFrom() != null) {
        local.set(StateRecoveryOptions.SAVEPOINT_PATH, launch.restoreFrom().toString());
      }
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(local);
      RecrawlJob.build(env, config, JobSources.fromConfig(config), JobSinks.fromConfig(config));
      job = env.executeAsync("recrawl-frontier");
    } catch (Exception | Error e) {
      broker.close();
      throw e;
    }
    try {
      server = FrontierServer.start(settings);
    } catch (Exception | Error e) {
      job.cancel();
      broker.close();
      throw e;
    }
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
  }

  URLFrontierGrpc.URLFrontierBlockingStub blocking() {
    return URLFrontierGrpc.newBlockingStub(channel);
  }

  URLFrontierGrpc.URLFrontierStub async() {
    return URLFrontierGrpc.newStub(channel);
  }

  static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /**
   * An orderly stop, as on SIGTERM or Ctrl-C: the service first, so that nothing more is acked,
   * then the job with a savepoint under {@code job/savepoints} (the next start resumes from it),
   * then the broker. Without a savepoint the job's retained checkpoint stays to resume from.
   *
   * @return the savepoint's path, or null
   */
  Path stopWithSavepoint(PrintStream log) {
    Path savepoint = null;
    try {
      channel.shutdownNow();
      server.close();
      String location =
          job.stopWithSavepoint(
                  false,
                  dir.resolve("job").resolve("savepoints").toUri().toString(),
                  SavepointFormatType.CANONICAL)
              .get(5, TimeUnit.MINUTES);
      savepoint = location.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location);
      log.println("recrawl frontier: stopped with a savepoint in " + savepoint);
    } catch (Exception e) {
      log.println(
          "recrawl frontier: no savepoint ("
              + e
              + "); the next start resumes from the latest checkpoint");
    } finally {
      broker.close();
    }
    return savepoint;
  }

  /** A test's stop: the job cancelled, its latest checkpoint retained. */
  @Override
  public void close() throws Exception {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.close();
    job.cancel().get(30, TimeUnit.SECONDS);
    broker.close();
  }

  /** The job's settings in {@code dir/job.yaml}, with the Flink settings beside it. */
  private static Path writeJobConfig(Path dir, FrontierSettings s, Map<String, Object> overrides)
      throws IOException {
    Map<String, Object> m = FrontierCommand.jobSettings(s, dir);
    m.putAll(overrides);
    StringBuilder yaml =
        new StringBuilder("# written by bin/recrawl frontier; -Dkey=value changes it\n");
    m.forEach((k, v) -> yaml.append(k).append(": ").append(v).append('\n'));
    Files.createDirectories(dir);
    Path file = dir.resolve("job.yaml");
    Files.writeString(file, yaml);
    StringBuilder flink = new StringBuilder("# written by bin/recrawl frontier\n");
    FrontierCommand.FLINK_SETTINGS.forEach(
        (k, v) -> flink.append(k).append(": ").append(v).append('\n'));
    Files.writeString(dir.resolve("flink-config.yaml"), flink);
    return file;
  }
}
