package io.recrawl.frontier;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.recrawl.flink.cli.RunCommand;
import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.job.JobSinks;
import io.recrawl.flink.job.JobSources;
import io.recrawl.flink.job.RecrawlJob;
import io.recrawl.kafka.KafkaCommand;
import io.recrawl.kafka.TrialBroker;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A trial broker, the job on a local MiniCluster with RocksDB with the embedded settings of {@code
 * bin/recrawl frontier}, and the service on a free port, in this JVM, with a gRPC channel to the
 * service: what the tests and {@code bin/recrawl bench frontier} run.
 */
final class EmbeddedFrontier implements AutoCloseable {

  final FrontierSettings settings;
  final TrialBroker broker;
  final JobClient job;
  final FrontierServer server;
  final ManagedChannel channel;

  EmbeddedFrontier(Path dir, Map<String, Object> jobOverrides) throws Exception {
    this(dir, jobOverrides, null);
  }

  /**
   * @param restoreFrom a checkpoint or savepoint of the job to start from (as {@code bin/recrawl
   *     frontier} starts from the latest checkpoint in its directory), or null
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
    int kafkaPort = freePort();
    broker = TrialBroker.start(dir.resolve("kafka"), kafkaPort, freePort());
    broker.createTopics(KafkaCommand.topics(2));
    settings =
        service.apply(
            FrontierSettings.defaults(broker.bootstrapServers())
                .withPort(0)
                .withDefaultDelaySeconds(5));
    Map<String, Object> conf = FrontierCommand.jobSettings(settings, dir);
    conf.put("recrawl.parallelism", 2);
    conf.putAll(jobOverrides);
    RecrawlConfig config = RecrawlConfig.fromMap(conf);
    Configuration local =
        RunCommand.localConfiguration(new Configuration(), dir.resolve("job").toAbsolutePath());
    FrontierCommand.FLINK_SETTINGS.forEach(local::setString);
    if (restoreFrom != null) {
      local.set(StateRecoveryOptions.SAVEPOINT_PATH, restoreFrom);
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(local);
    RecrawlJob.build(env, config, JobSources.fromConfig(config), JobSinks.fromConfig(config));
    job = env.executeAsync("recrawl-frontier");
    server = FrontierServer.start(settings);
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

  @Override
  public void close() throws Exception {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.close();
    job.cancel().get(30, TimeUnit.SECONDS);
    broker.close();
  }
}
