package io.recrawl.flink.testutil;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
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

  /** RocksDB, no Kryo fallback, no restarts (a failure fails the test), and optionally checkpoints. */
  public static Configuration strict(String checkpointInterval) {
    Configuration c = rocksDb();
    c.setString("pipeline.generic-types", "false");
    c.setString("restart-strategy.type", "none");
    if (checkpointInterval != null) {
      c.setString("execution.checkpointing.interval", checkpointInterval);
    }
    return c;
  }
}
