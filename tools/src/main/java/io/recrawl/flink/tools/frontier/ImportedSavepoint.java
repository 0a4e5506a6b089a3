package io.recrawl.flink.tools.frontier;

import io.recrawl.flink.scheduler.SchedulerState;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.state.api.OperatorIdentifier;
import org.apache.flink.state.api.OperatorTransformation;
import org.apache.flink.state.api.SavepointWriter;
import org.apache.flink.state.api.StateBootstrapTransformation;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;

/**
 * Collects imported hosts in spill files and writes them as a savepoint of the scheduler with the
 * State Processor API. The hosts are spilled in chunks so that the writing job reads them in
 * parallel and never holds them in its job graph, and it writes them through RocksDB, on disk, so
 * that its heap does not hold them either.
 */
final class ImportedSavepoint implements AutoCloseable {

  private static final int HOSTS_PER_CHUNK = 2_000;

  static final TypeInformation<Tuple2<String, byte[]>> RECORDS =
      Types.TUPLE(Types.STRING, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

  private final Path spill;
  private DataOutputStream chunk;
  private int chunks;
  private int inChunk;

  /** Spills under {@code tmpDir} (null: the system's temporary directory). */
  ImportedSavepoint(Path tmpDir) throws IOException {
    spill = TempDir.create(tmpDir, "recrawl-import-");
  }

  /** Adds one host's records. */
  void add(String host, RecordingHostStore state) throws IOException {
    if (chunk == null || inChunk == HOSTS_PER_CHUNK) {
      if (chunk != null) {
        chunk.close();
      }
      chunk =
          new DataOutputStream(
              new BufferedOutputStream(Files.newOutputStream(chunkFile(spill, chunks++)), 1 << 16));
      inChunk = 0;
    }
    byte[] bytes = HostRecords.write(host, state);
    chunk.writeUTF(host);
    chunk.writeInt(bytes.length);
    chunk.write(bytes);
    inChunk++;
  }

  /**
   * Writes the savepoint to {@code dir} (a path or URI) and returns it.
   *
   * @param maxParallelism the job's {@code recrawl.max-parallelism} (a restore must use the same)
   * @param settingsEntry the engine settings the state was built with
   * @param watermark the import's clock
   */
  String write(
      String dir, int maxParallelism, int parallelism, String settingsEntry, long watermark)
      throws Exception {
    if (chunk != null) {
      chunk.close();
      chunk = null;
    }
    Configuration conf = new Configuration();
    // RocksDB's working files go beside the spill, not to a temporary directory that may be small.
    conf.set(CoreOptions.TMP_DIRS, spill.toString());
    // Snappy, as the job's RocksDB compresses its files: pages and slots repeat URL paths.
    conf.set(ExecutionOptions.SNAPSHOT_COMPRESSION, true);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(parallelism);
    DataStream<Tuple2<String, byte[]>> hosts =
        env.fromSequence(0, Math.max(0, chunks - 1))
            .flatMap(new ReadChunk(spill.toString(), chunks))
            .returns(RECORDS)
            .name("imported-hosts");
    StateBootstrapTransformation<Tuple2<String, byte[]>> scheduler =
        OperatorTransformation.bootstrapWith(hosts)
            .keyBy((KeySelector<Tuple2<String, byte[]>, String>) r -> r.f0, Types.STRING)
            .transform(new ImportedStateBootstrap(settingsEntry, watermark));
    SavepointWriter.newSavepoint(env, new EmbeddedRocksDBStateBackend(), maxParallelism)
        .withOperator(OperatorIdentifier.forUid(SchedulerState.OPERATOR_UID), scheduler)
        .write(dir);
    env.execute("recrawl-import");
    return dir;
  }

  private static Path chunkFile(Path dir, int i) {
    return dir.resolve(String.format("hosts-%05d.bin", i));
  }

  @Override
  public void close() throws IOException {
    if (chunk != null) {
      chunk.close();
    }
    TempDir.delete(spill);
  }

  /** Reads one spill chunk's hosts. */
  private static final class ReadChunk implements FlatMapFunction<Long, Tuple2<String, byte[]>> {
    private static final long serialVersionUID = 1L;
    private final String dir;
    private final int chunks;

    ReadChunk(String dir, int chunks) {
      this.dir = dir;
      this.chunks = chunks;
    }

    @Override
    public void flatMap(Long i, Collector<Tuple2<String, byte[]>> out) throws IOException {
      if (i >= chunks) {
        return; // no host at all
      }
      try (DataInputStream in =
          new DataInputStream(
              new BufferedInputStream(
                  Files.newInputStream(chunkFile(Path.of(dir), i.intValue())), 1 << 16))) {
        while (true) {
          String host;
          try {
            host = in.readUTF();
          } catch (EOFException end) {
            return;
          }
          byte[] bytes = new byte[in.readInt()];
          in.readFully(bytes);
          out.collect(Tuple2.of(host, bytes));
        }
      }
    }
  }
}
