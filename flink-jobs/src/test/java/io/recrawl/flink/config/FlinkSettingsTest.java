package io.recrawl.flink.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.testutil.RepoFiles;
import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.state.rocksdb.RocksDBConfigurableOptions;
import org.junit.jupiter.api.Test;

class FlinkSettingsTest {

  @Test
  void theShippedFlinkConfigSelectsRocksDbCheckpointsAndNoKryo() throws Exception {
    Configuration c = FlinkSettings.load(RepoFiles.file("config/flink-config.yaml"));
    assertThat(c.get(StateBackendOptions.STATE_BACKEND)).isEqualTo("rocksdb");
    assertThat(c.get(RocksDBConfigurableOptions.USE_BLOOM_FILTER)).isTrue();
    assertThat(c.get(CheckpointingOptions.INCREMENTAL_CHECKPOINTS)).isTrue();
    assertThat(c.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
        .isEqualTo(Duration.ofSeconds(10));
    assertThat(c.get(PipelineOptions.GENERIC_TYPES)).isFalse();
    assertThat(c.get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("exponential-delay");
    assertThat(c.get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF))
        .isEqualTo(Duration.ofMinutes(1));
  }
}
