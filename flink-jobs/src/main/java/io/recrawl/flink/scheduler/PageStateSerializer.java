package io.recrawl.flink.scheduler;

import io.recrawl.engine.PageState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Compact binary form of a URL's {@link PageState}: a flag word says which optional fields follow,
 * so a never-fetched page is ~20 bytes and a fetched one ~45 (times as varints, absent fields
 * skipped). Per-URL state is the bulk of RocksDB, so every byte counts.
 *
 * <p>Layouts: 1, the first; 2 adds {@link PageState#errorSince} under a flag that layout 1 never
 * sets; 3 adds the change evidence of the grid posterior ({@link PageState#evidenceUnchanged} and
 * the three after it) under a flag that layouts 1 and 2 never set. So this build reads every
 * earlier layout as it is, without migrating state.
 */
public final class PageStateSerializer extends TypeSerializerSingleton<PageState> {

  private static final long serialVersionUID = 1L;

  /** The layout this build writes. */
  static final int LAYOUT = 3;

  public static final PageStateSerializer INSTANCE = new PageStateSerializer();

  private static final int FORCED = 1;
  private static final int LAST_FETCH = 1 << 1;
  private static final int LEASE = 1 << 2;
  private static final int SIGNATURE = 1 << 3;
  private static final int ETAG = 1 << 4;
  private static final int SLOT = 1 << 5;
  private static final int METADATA = 1 << 6;
  private static final int CURVE_RATE = 1 << 7;
  private static final int ERRORS = 1 << 8;
  private static final int DEFAULT_WEIGHT = 1 << 9;
  private static final int EXPIRIES = 1 << 10;
  private static final int AGE_FROM = 1 << 11;
  private static final int CURVE_SHAPE = 1 << 12;
  private static final int ERROR_SINCE = 1 << 13;
  private static final int EVIDENCE = 1 << 14;

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public PageState createInstance() {
    return new PageState();
  }

  @Override
  public PageState copy(PageState from) {
    PageState p = new PageState();
    p.weight = from.weight;
    p.lastFetch = from.lastFetch;
    p.ageFrom = from.ageFrom;
    p.changeShape = from.changeShape;
    p.changeRate = from.changeRate;
    p.curveRate = from.curveRate;
    p.curveShape = from.curveShape;
    p.evidenceUnchanged = from.evidenceUnchanged;
    p.evidenceChanged = from.evidenceChanged;
    p.evidenceLnGap = from.evidenceLnGap;
    p.evidenceDated = from.evidenceDated;
    p.signatureHash = from.signatureHash;
    p.etagHash = from.etagHash;
    p.status = from.status;
    p.errors = from.errors;
    p.errorSince = from.errorSince;
    p.expiries = from.expiries;
    p.forced = from.forced;
    p.leaseUntil = from.leaseUntil;
    p.slot = from.slot;
    p.metadata = from.metadata == null ? null : copyMetadata(from.metadata);
    return p;
  }

  @Override
  public PageState copy(PageState from, PageState reuse) {
    return copy(from);
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(PageState p, DataOutputView out) throws IOException {
    int flags = 0;
    if (p.forced) {
      flags |= FORCED;
    }
    if (p.lastFetch != 0) {
      flags |= LAST_FETCH;
    }
    if (p.leaseUntil != 0) {
      flags |= LEASE;
    }
    if (p.signatureHash != 0) {
      flags |= SIGNATURE;
    }
    if (p.etagHash != 0) {
      flags |= ETAG;
    }
    if (p.slot >= 0) {
      flags |= SLOT;
    }
    if (p.metadata != null) {
      flags |= METADATA;
    }
    if (p.curveRate != 0f) {
      flags |= CURVE_RATE;
    }
    if (p.errors != 0) {
      flags |= ERRORS;
    }
    if (p.weight == 1.0f) {
      flags |= DEFAULT_WEIGHT;
    }
    if (p.expiries != 0) {
      flags |= EXPIRIES;
    }
    if (p.ageFrom != 0) {
      flags |= AGE_FROM;
    }
    if (p.curveShape != 0f) {
      flags |= CURVE_SHAPE;
    }
    if (p.errorSince != 0) {
      flags |= ERROR_SINCE;
    }
    if (p.evidenceUnchanged != 0f
        || p.evidenceChanged != 0f
        || p.evidenceLnGap != 0f
        || p.evidenceDated != 0f) {
      flags |= EVIDENCE;
    }
    VarInts.writeVarInt(out, flags);
    out.writeByte(p.status);
    if ((flags & DEFAULT_WEIGHT) == 0) {
      out.writeFloat(p.weight);
    }
    out.writeFloat(p.changeShape);
    out.writeFloat(p.changeRate);
    if ((flags & CURVE_RATE) != 0) {
      out.writeFloat(p.curveRate);
    }
    if ((flags & CURVE_SHAPE) != 0) {
      out.writeFloat(p.curveShape);
    }
    if ((flags & EVIDENCE) != 0) {
      out.writeFloat(p.evidenceUnchanged);
      out.writeFloat(p.evidenceChanged);
      out.writeFloat(p.evidenceLnGap);
      out.writeFloat(p.evidenceDated);
    }
    if ((flags & ERRORS) != 0) {
      out.writeByte(p.errors);
    }
    if ((flags & EXPIRIES) != 0) {
      out.writeByte(p.expiries);
    }
    if ((flags & LAST_FETCH) != 0) {
      VarInts.writeVarLong(out, p.lastFetch);
    }
    if ((flags & AGE_FROM) != 0) {
      VarInts.writeVarLong(out, p.ageFrom);
    }
    if ((flags & LEASE) != 0) {
      VarInts.writeVarLong(out, p.leaseUntil);
    }
    if ((flags & ERROR_SINCE) != 0) {
      VarInts.writeVarLong(out, p.errorSince);
    }
    if ((flags & SIGNATURE) != 0) {
      out.writeLong(p.signatureHash);
    }
    if ((flags & ETAG) != 0) {
      out.writeInt(p.etagHash);
    }
    if ((flags & SLOT) != 0) {
      out.writeLong(p.slot); // queue bits sit at the top: a varint would be longer
    }
    if ((flags & METADATA) != 0) {
      VarInts.writeVarInt(out, p.metadata.size());
      for (Map.Entry<String, List<String>> e : p.metadata.entrySet()) {
        StringValue.writeString(e.getKey(), out);
        VarInts.writeVarInt(out, e.getValue().size());
        for (String v : e.getValue()) {
          StringValue.writeString(v, out); // no 64 KB limit, unlike writeUTF
        }
      }
    }
  }

  @Override
  public PageState deserialize(DataInputView in) throws IOException {
    PageState p = new PageState();
    int flags = VarInts.readVarInt(in);
    p.status = in.readByte();
    p.weight = (flags & DEFAULT_WEIGHT) != 0 ? 1.0f : in.readFloat();
    p.changeShape = in.readFloat();
    p.changeRate = in.readFloat();
    p.curveRate = (flags & CURVE_RATE) != 0 ? in.readFloat() : 0f;
    p.curveShape = (flags & CURVE_SHAPE) != 0 ? in.readFloat() : 0f;
    if ((flags & EVIDENCE) != 0) {
      p.evidenceUnchanged = in.readFloat();
      p.evidenceChanged = in.readFloat();
      p.evidenceLnGap = in.readFloat();
      p.evidenceDated = in.readFloat();
    }
    p.errors = (flags & ERRORS) != 0 ? in.readByte() : 0;
    p.expiries = (flags & EXPIRIES) != 0 ? in.readByte() : 0;
    p.forced = (flags & FORCED) != 0;
    p.lastFetch = (flags & LAST_FETCH) != 0 ? VarInts.readVarLong(in) : 0;
    p.ageFrom = (flags & AGE_FROM) != 0 ? VarInts.readVarLong(in) : 0;
    p.leaseUntil = (flags & LEASE) != 0 ? VarInts.readVarLong(in) : 0;
    p.errorSince = (flags & ERROR_SINCE) != 0 ? VarInts.readVarLong(in) : 0;
    p.signatureHash = (flags & SIGNATURE) != 0 ? in.readLong() : 0;
    p.etagHash = (flags & ETAG) != 0 ? in.readInt() : 0;
    p.slot = (flags & SLOT) != 0 ? in.readLong() : -1;
    if ((flags & METADATA) != 0) {
      int n = VarInts.readVarInt(in);
      Map<String, List<String>> md = new HashMap<>(n * 2);
      for (int i = 0; i < n; i++) {
        String key = StringValue.readString(in);
        int m = VarInts.readVarInt(in);
        List<String> values = new ArrayList<>(m);
        for (int j = 0; j < m; j++) {
          values.add(StringValue.readString(in));
        }
        md.put(key, List.copyOf(values));
      }
      p.metadata = md;
    }
    return p;
  }

  @Override
  public PageState deserialize(PageState reuse, DataInputView in) throws IOException {
    return deserialize(in);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
  }

  @Override
  public TypeSerializerSnapshot<PageState> snapshotConfiguration() {
    return new Snapshot();
  }

  private static Map<String, List<String>> copyMetadata(Map<String, List<String>> md) {
    Map<String, List<String>> out = new HashMap<>(md.size() * 2);
    md.forEach((k, v) -> out.put(k, List.copyOf(v)));
    return out;
  }

  /**
   * The serializer's snapshot: its layout. A change of the binary form adds a layout, keeps reading
   * the old ones, and adds a savepoint fixture (see docs/operations.md, "Upgrades").
   */
  public static final class Snapshot extends LayoutSnapshot<PageState> {
    /** For reading a snapshot back. */
    public Snapshot() {
      super(LAYOUT);
    }

    @Override
    int currentLayout() {
      return LAYOUT;
    }

    @Override
    TypeSerializer<PageState> serializerOf(int layout) {
      return INSTANCE;
    }

    @Override
    boolean readsAsIs(int oldLayout) {
      return true; // every layout only added flags (see the class comment)
    }
  }
}
