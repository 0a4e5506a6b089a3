package io.recrawl.flink.scheduler;

import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/** Unsigned LEB128 variable-length longs: epoch times take 6 bytes instead of 8, zero takes one. */
final class VarInts {

  private VarInts() {}

  static void writeVarLong(DataOutputView out, long v) throws IOException {
    while ((v & ~0x7FL) != 0) {
      out.writeByte((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.writeByte((int) v);
  }

  static long readVarLong(DataInputView in) throws IOException {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = in.readByte();
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IOException("malformed varint");
  }

  static void writeVarInt(DataOutputView out, int v) throws IOException {
    writeVarLong(out, v & 0xFFFFFFFFL);
  }

  static int readVarInt(DataInputView in) throws IOException {
    return (int) readVarLong(in);
  }
}
