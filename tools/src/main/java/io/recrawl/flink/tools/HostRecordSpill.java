package io.recrawl.flink.tools;

import io.recrawl.engine.HostState;
import io.recrawl.flink.scheduler.HostStateSerializer;
import io.recrawl.flink.tools.frontier.TempDir;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.core.memory.DataInputDeserializer;

/**
 * A savepoint's host records on disk, one file per key group, so that a reader holds only the hosts
 * of the key group its pages are in: the pages come key group by key group, as RocksDB stores them.
 */
final class HostRecordSpill implements AutoCloseable {

  private final Path dir;
  private BufferedWriter writer;
  private int writing = -1;
  private int loaded = -1;
  private Map<String, HostState> group = Map.of();
  private int mostHeld;

  HostRecordSpill() throws IOException {
    dir = TempDir.create(null, "recrawl-host-records");
  }

  /** Adds one host record (its serialized bytes in Base64) to its key group's file. */
  void add(int keyGroup, String host, String recordBase64) throws IOException {
    if (keyGroup != writing) {
      closeWriter();
      writer =
          Files.newBufferedWriter(
              file(keyGroup),
              StandardCharsets.UTF_8,
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND);
      writing = keyGroup;
    }
    writer.write(host);
    writer.write('\t');
    writer.write(recordBase64);
    writer.write('\n');
  }

  /** The record of {@code host}, or null; loads its key group's records if they are not held. */
  HostState get(int keyGroup, String host) throws IOException {
    closeWriter();
    if (keyGroup != loaded) {
      group = load(keyGroup);
      loaded = keyGroup;
      mostHeld = Math.max(mostHeld, group.size());
    }
    return group.get(host);
  }

  /** The most host records held at once. */
  int mostHeld() {
    return mostHeld;
  }

  private Map<String, HostState> load(int keyGroup) throws IOException {
    Map<String, HostState> records = new HashMap<>();
    Path f = file(keyGroup);
    if (!Files.exists(f)) {
      return records;
    }
    try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        int tab = line.indexOf('\t');
        records.put(
            line.substring(0, tab),
            HostStateSerializer.INSTANCE.deserialize(
                new DataInputDeserializer(Base64.getDecoder().decode(line.substring(tab + 1)))));
      }
    }
    return records;
  }

  private Path file(int keyGroup) {
    return dir.resolve("group-" + keyGroup);
  }

  private void closeWriter() throws IOException {
    if (writer != null) {
      writer.close();
      writer = null;
      writing = -1;
    }
  }

  @Override
  public void close() throws IOException {
    closeWriter();
    TempDir.delete(dir);
  }
}
