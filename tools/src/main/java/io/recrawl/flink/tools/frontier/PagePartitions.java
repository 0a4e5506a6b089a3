package io.recrawl.flink.tools.frontier;

import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checked pages spilled to disk in partitions by host, so that an import holds one partition in
 * memory at a time instead of the whole frontier. Every URL of a host, and so every copy of a URL,
 * lands in the same partition, in the order it was added.
 */
final class PagePartitions implements AutoCloseable {

  /** What a partition gives back: a page and the row it was read from. */
  interface PageSink {
    void accept(ImportedPage page, String raw) throws IOException;
  }

  private static final CrawlStatus[] STATUSES = CrawlStatus.values();

  private final Path dir;
  private final DataOutputStream[] out;

  /** Partitions in a new temporary directory under {@code parent} (null: the system's). */
  PagePartitions(int partitions, Path parent) throws IOException {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
    }
    dir = TempDir.create(parent, "recrawl-import-rows-");
    out = new DataOutputStream[partitions];
  }

  /** The number of partitions that fits {@code inputBytes} of rows at {@code partitionBytes}. */
  static int countFor(long inputBytes, long partitionBytes) {
    long n = (inputBytes + partitionBytes - 1) / Math.max(1, partitionBytes);
    return (int) Math.max(1, Math.min(MAX_PARTITIONS, n));
  }

  /**
   * Each partition is an open file: this many at most, well under the common limit of 1,024 open
   * files a process; a larger input gets larger partitions.
   */
  static final int MAX_PARTITIONS = 512;

  int count() {
    return out.length;
  }

  /** The partition of a host key. */
  int partitionOf(String host) {
    return Math.floorMod(host.hashCode(), out.length);
  }

  void add(ImportedPage page, String raw) throws IOException {
    int i = partitionOf(page.host());
    if (out[i] == null) {
      out[i] =
          new DataOutputStream(
              new BufferedOutputStream(Files.newOutputStream(file(i)), BUFFER_BYTES));
    }
    write(out[i], page, raw);
  }

  private static final int BUFFER_BYTES = 1 << 14;

  /**
   * Reads partition {@code i} back, in the order its pages were added; ends its writing. A
   * partition can be read again; the files go when the partitions are closed.
   */
  void read(int i, PageSink sink) throws IOException {
    if (out[i] == null) {
      return; // no page fell in it
    }
    out[i].close(); // closing it again is nothing
    try (DataInputStream in =
        new DataInputStream(new BufferedInputStream(Files.newInputStream(file(i)), 1 << 16))) {
      while (true) {
        long line;
        try {
          line = in.readLong();
        } catch (EOFException end) {
          return;
        }
        readPage(in, line, sink);
      }
    }
  }

  private Path file(int i) {
    return dir.resolve(String.format("rows-%04d.bin", i));
  }

  @Override
  public void close() throws IOException {
    for (DataOutputStream o : out) {
      if (o != null) {
        o.close();
      }
    }
    TempDir.delete(dir);
  }

  // ------------------------------------------------------------------ the record

  static void write(DataOutputStream o, ImportedPage p, String raw) throws IOException {
    o.writeLong(p.line());
    writeString(o, p.url());
    writeString(o, p.host());
    o.writeByte(p.status().ordinal());
    o.writeLong(p.nextFetch());
    o.writeLong(p.signatureHash());
    o.writeInt(p.etagHash());
    writeString(o, raw);
    o.writeInt(p.events().size());
    for (StatusEvent e : p.events()) {
      writeString(o, e.url());
      writeString(o, e.host());
      o.writeByte(e.status().ordinal());
      o.writeLong(e.time());
      o.writeInt(e.metadata().size());
      for (Map.Entry<String, List<String>> m : e.metadata().entrySet()) {
        writeString(o, m.getKey());
        o.writeInt(m.getValue().size());
        for (String v : m.getValue()) {
          writeString(o, v);
        }
      }
      o.writeByte(e.changed() == null ? -1 : e.changed() ? 1 : 0);
      o.writeBoolean(e.weight() != null);
      if (e.weight() != null) {
        o.writeDouble(e.weight());
      }
      o.writeBoolean(e.httpStatus() != null);
      if (e.httpStatus() != null) {
        o.writeInt(e.httpStatus());
      }
    }
  }

  private static void readPage(DataInputStream in, long line, PageSink sink) throws IOException {
    String url = readString(in);
    String host = readString(in);
    CrawlStatus status = STATUSES[in.readByte()];
    long nextFetch = in.readLong();
    long signatureHash = in.readLong();
    int etagHash = in.readInt();
    String raw = readString(in);
    int n = in.readInt();
    List<StatusEvent> events = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      String eUrl = readString(in);
      String eHost = readString(in);
      CrawlStatus eStatus = STATUSES[in.readByte()];
      long time = in.readLong();
      int keys = in.readInt();
      Map<String, List<String>> metadata = new LinkedHashMap<>(Math.max(4, keys * 2));
      for (int j = 0; j < keys; j++) {
        String key = readString(in);
        int values = in.readInt();
        List<String> vs = new ArrayList<>(values);
        for (int v = 0; v < values; v++) {
          vs.add(readString(in));
        }
        metadata.put(key, vs);
      }
      byte changed = in.readByte();
      Double weight = in.readBoolean() ? in.readDouble() : null;
      Integer httpStatus = in.readBoolean() ? in.readInt() : null;
      events.add(
          new StatusEvent(
              eUrl,
              eHost,
              eStatus,
              time,
              metadata,
              changed < 0 ? null : changed == 1,
              weight,
              httpStatus));
    }
    sink.accept(
        new ImportedPage(line, url, host, status, nextFetch, events, signatureHash, etagHash), raw);
  }

  // Lengths as ints: a row or a metadata value may pass writeUTF's 64 KB.
  private static void writeString(DataOutputStream o, String s) throws IOException {
    if (s == null) {
      o.writeInt(-1);
      return;
    }
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    o.writeInt(b.length);
    o.write(b);
  }

  private static String readString(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      return null;
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }
}
