package io.recrawl.flink.io.files;

import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;

/**
 * A directory of JSON-lines part files ({@code PREFIX-*.jsonl} in hourly sub-directories). Part
 * files are finalised at every checkpoint, so what is visible is exactly what has been
 * checkpointed.
 */
public final class JsonLinesFileSink {

  private JsonLinesFileSink() {}

  public static FileSink<String> create(String directory, String prefix) {
    return FileSink.forRowFormat(new Path(directory), new SimpleStringEncoder<String>("UTF-8"))
        .withRollingPolicy(OnCheckpointRollingPolicy.build())
        .withOutputFileConfig(
            OutputFileConfig.builder().withPartPrefix(prefix).withPartSuffix(".jsonl").build())
        .build();
  }
}
