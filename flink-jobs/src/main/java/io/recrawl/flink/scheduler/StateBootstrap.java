package io.recrawl.flink.scheduler;

import io.recrawl.engine.EngineConfig;
import java.util.Map;

/**
 * What a savepoint written outside the job (the State Processor API: {@code bin/recrawl import})
 * puts in the scheduler's operator state so that a restore from it takes the ordinary path: the
 * {@code engine-settings} entry the restore checks its settings against.
 */
public final class StateBootstrap {

  private StateBootstrap() {}

  /**
   * The {@code engine-settings} entry of keyed state written with these engine settings, keyed by
   * host keys of this partition mode (its configuration name).
   */
  public static String engineSettingsEntry(Map<String, ?> engineSettings, String partitionMode) {
    return StateSettings.format(
        StateSettings.of(EngineConfig.fromMap(engineSettings, "recrawl.engine."), partitionMode));
  }
}
