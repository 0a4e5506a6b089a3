package io.recrawl.flink.launch;

import io.recrawl.flink.config.ConfigException;
import io.recrawl.flink.config.FlinkSettings;
import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.flink.job.JobSinks;
import io.recrawl.flink.job.JobSources;
import io.recrawl.flink.job.RecrawlJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.state.rocksdb.RocksDBConfigurableOptions;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * {@code recrawl run --config FILE [--flink-config FILE] [-Dkey=value ...] [--check]}: loads and
 * checks the configuration, then runs the job. Under {@code bin/recrawl} that is a local
 * MiniCluster with RocksDB state and checkpoints in the work directory; under {@code flink run} it
 * is the cluster.
 */
public final class RunCommand {

  private RunCommand() {}

  public static int run(String[] args) throws Exception {
    Path configFile = null;
    Path flinkConfigFile = null;
    boolean checkOnly = false;
    String fromSavepoint = null;
    boolean fromLatestCheckpoint = false;
    Map<String, Object> overrides = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--config") && i + 1 < args.length) {
        configFile = Path.of(args[++i]);
      } else if (a.equals("--flink-config") && i + 1 < args.length) {
        flinkConfigFile = Path.of(args[++i]);
      } else if (a.equals("--check")) {
        checkOnly = true;
      } else if (a.equals("--from-savepoint") && i + 1 < args.length) {
        fromSavepoint = args[++i];
      } else if (a.equals("--from-latest-checkpoint")) {
        fromLatestCheckpoint = true;
      } else if (a.startsWith("-D") && a.contains("=")) {
        overrides.put(a.substring(2, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
      } else {
        return usage("unexpected argument '" + a + "'");
      }
    }
    if (configFile == null) {
      return usage("--config FILE is required");
    }
    if (fromSavepoint != null && fromLatestCheckpoint) {
      return usage("--from-savepoint and --from-latest-checkpoint exclude each other");
    }
    RecrawlConfig config;
    Configuration flink;
    try {
      config = RecrawlConfig.load(configFile, overrides);
      if (flinkConfigFile == null) {
        // By default, the Flink settings sit next to the job configuration
        // (config/flink-config.yaml).
        Path sibling = configFile.toAbsolutePath().resolveSibling("flink-config.yaml");
        flinkConfigFile = Files.exists(sibling) ? sibling : null;
      }
      flink = flinkConfigFile == null ? new Configuration() : FlinkSettings.load(flinkConfigFile);
    } catch (ConfigException e) {
      System.err.println("recrawl run: configuration refused: " + e.getMessage());
      return 2;
    } catch (java.io.IOException e) {
      System.err.println("recrawl run: cannot read " + e.getMessage());
      return 2;
    }
    System.err.println(
        "recrawl run: configuration "
            + configFile
            + (flinkConfigFile == null ? "" : ", Flink settings " + flinkConfigFile));
    config.effective().forEach((k, v) -> System.err.println("  " + k + ": " + v));
    if (checkOnly) {
      System.err.println("recrawl run: configuration OK");
      return 0;
    }
    StreamExecutionEnvironment env;
    try {
      String restoreFrom =
          fromLatestCheckpoint ? LocalRestore.latestCheckpoint(config, flink) : fromSavepoint;
      if (restoreFrom != null) {
        System.err.println("recrawl run: starting from " + restoreFrom);
        flink.set(StateRecoveryOptions.SAVEPOINT_PATH, restoreFrom);
      }
      env = environment(config, flink);
    } catch (ConfigException e) {
      System.err.println("recrawl run: configuration refused: " + e.getMessage());
      return 2;
    }
    RecrawlJob.build(env, config, JobSources.fromConfig(config), JobSinks.fromConfig(config));
    if (!(env instanceof LocalStreamEnvironment)) {
      env.execute(config.get(RecrawlOptions.JOB_NAME));
      return 0;
    }
    LocalRestore.runUntilStopped(
        env, config.get(RecrawlOptions.JOB_NAME), workDir(config), configFile, System.err);
    return 0;
  }

  static Path workDir(RecrawlConfig config) {
    return Path.of(config.get(RecrawlOptions.WORK_DIR)).toAbsolutePath();
  }

  /**
   * The cluster's environment under {@code flink run}; otherwise a local MiniCluster whose RocksDB
   * files and checkpoints default to the work directory.
   */
  static StreamExecutionEnvironment environment(RecrawlConfig config, Configuration flink) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
    if (!(env instanceof LocalStreamEnvironment)) {
      return env;
    }
    Path work = workDir(config);
    Configuration local = localConfiguration(flink, work);
    System.err.println("recrawl run: local MiniCluster, work directory " + work);
    System.err.println("recrawl run: " + metrics(local));
    String seeds = config.get(RecrawlOptions.INPUT_SEEDS);
    if (!seeds.isEmpty() && !seeds.contains("://") && !Files.exists(Path.of(seeds))) {
      // Locally a missing seed file is a mistake in the configuration, not something to fail the
      // job with.
      throw new ConfigException(
          RecrawlOptions.INPUT_SEEDS.name(), "no such file: " + Path.of(seeds).toAbsolutePath());
    }
    if (!config.kafkaInput()) {
      // Locally, make the input directory, so that there is somewhere to drop status files.
      Path input = Path.of(config.get(RecrawlOptions.INPUT_PATH));
      try {
        if (!Files.exists(input)) {
          Files.createDirectories(input);
        }
        System.err.println(
            "recrawl run: reading JSON-lines status files from " + input.toAbsolutePath());
      } catch (java.io.IOException e) {
        throw new ConfigException(
            RecrawlOptions.INPUT_PATH.name(), "cannot create " + input + ": " + e.getMessage());
      }
    }
    return StreamExecutionEnvironment.createLocalEnvironment(local);
  }

  /**
   * The local MiniCluster's settings: the given Flink settings, with RocksDB (bloom filters on),
   * checkpoints every 10 s and retained on cancellation, no Kryo, and state and checkpoints under
   * the work directory wherever they say nothing (the same defaults as {@code
   * config/flink-config.yaml}).
   */
  public static Configuration localConfiguration(Configuration flink, Path work) {
    Configuration local = new Configuration(flink);
    if (!local.contains(StateBackendOptions.STATE_BACKEND)) {
      local.set(StateBackendOptions.STATE_BACKEND, "rocksdb");
      local.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
    }
    if (!local.contains(RocksDBConfigurableOptions.USE_BLOOM_FILTER)) {
      local.set(RocksDBConfigurableOptions.USE_BLOOM_FILTER, true);
    }
    if (!local.contains(CheckpointingOptions.CHECKPOINTING_INTERVAL)) {
      local.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, java.time.Duration.ofSeconds(10));
    }
    if (!local.contains(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION)) {
      // A run that fails or is cancelled keeps its latest checkpoint to start again from.
      local.set(
          CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
          ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
    }
    if (!local.contains(PipelineOptions.GENERIC_TYPES)) {
      local.set(PipelineOptions.GENERIC_TYPES, false);
    }
    if (!local.contains(CheckpointingOptions.CHECKPOINTS_DIRECTORY)) {
      local.set(
          CheckpointingOptions.CHECKPOINTS_DIRECTORY,
          work.resolve("checkpoints").toUri().toString());
    }
    if (!local.contains(RocksDBOptions.LOCAL_DIRECTORIES)) {
      local.set(RocksDBOptions.LOCAL_DIRECTORIES, work.resolve("rocksdb").toString());
    }
    return local;
  }

  /**
   * Turns the Prometheus reporter on in the local settings (see {@link PrometheusEndpoint}) and
   * says where the metrics are.
   */
  public static String metrics(Configuration local) {
    try {
      int port = PrometheusEndpoint.enable(local, PrometheusEndpoint.DEFAULT_PORTS);
      return port < 0
          ? "metrics go to the reporters of the Flink settings"
          : "Prometheus metrics at " + PrometheusEndpoint.url(port);
    } catch (IllegalStateException | NumberFormatException e) {
      local.removeKey(PrometheusEndpoint.PREFIX + "factory.class");
      return "no Prometheus metrics: " + e.getMessage();
    }
  }

  public static final String USAGE =
      String.join(
          "\n",
          "usage: bin/recrawl run --config FILE [--flink-config FILE] [-Dkey=value ...] [--check]",
          "                       [--from-savepoint PATH | --from-latest-checkpoint]",
          "",
          "Runs the scheduler job: on a local MiniCluster with RocksDB under recrawl.work-dir, or on the",
          "cluster when submitted with flink run. A local run stops on Ctrl-C with a savepoint in",
          "<recrawl.work-dir>/savepoints and prints the command that starts from it.",
          "",
          "options:",
          "  --config FILE             the job's settings (config/recrawl.yaml lists every key); required",
          "  --flink-config FILE       Flink's settings (default: flink-config.yaml next to --config, if",
          "                            there; else RocksDB and 10 s checkpoints under recrawl.work-dir)",
          "  -Dkey=value               a job setting, over the file's",
          "  --check                   check the settings, print them and stop",
          "  --from-savepoint PATH     start from a savepoint (or a retained checkpoint's directory)",
          "  --from-latest-checkpoint  start from the newest checkpoint retained under the checkpoint",
          "                            directory (local: <recrawl.work-dir>/checkpoints)",
          "  --help                    this text",
          "",
          "examples:",
          "  bin/recrawl run --config config/recrawl.yaml --check",
          "  bin/recrawl run --config trial.yaml -Drecrawl.controller.budget=2000",
          "  bin/recrawl run --config trial.yaml --from-savepoint work/savepoints/savepoint-1a2b3c-0d4e5f");

  private static int usage(String problem) {
    System.err.println("recrawl run: " + problem);
    System.err.println(USAGE);
    return 2;
  }
}
