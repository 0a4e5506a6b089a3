package io.recrawl.flink.scheduler;

import io.recrawl.engine.HostState;
import io.recrawl.engine.SlotQueues;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Binary form of a host's {@link HostState}: rate limits, pacing, demand curve, the host prior's
 * sums, politeness (blocks, back-off, learned capacity), trust in its change signals and slot-queue
 * heads. Layout 4; layouts 1 (builds before the host prior: no sums), 2 (before politeness: no
 * blocks) and 3 (before signal trust) are read and migrated on restore (see {@link Snapshot}).
 */
public final class HostStateSerializer extends TypeSerializerSingleton<HostState> {

  private static final long serialVersionUID = 1L;

  /** The layout this build writes. */
  static final int LAYOUT = 4;

  public static final HostStateSerializer INSTANCE = new HostStateSerializer(LAYOUT);

  /** Read layouts 1 and 2, for the migration of state written by earlier builds. */
  static final HostStateSerializer LAYOUT_1 = new HostStateSerializer(1);

  static final HostStateSerializer LAYOUT_2 = new HostStateSerializer(2);

  static final HostStateSerializer LAYOUT_3 = new HostStateSerializer(3);

  private final int layout;

  private HostStateSerializer(int layout) {
    this.layout = layout;
  }

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public HostState createInstance() {
    return new HostState();
  }

  @Override
  public HostState copy(HostState from) {
    HostState h = new HostState();
    h.overrideRate = from.overrideRate;
    h.evidenceRate = from.evidenceRate;
    h.evidenceUntil = from.evidenceUntil;
    h.lastRelease = from.lastRelease;
    h.wakeAt = from.wakeAt;
    h.pages = from.pages;
    h.inFlight = from.inFlight;
    h.curve = from.curve == null ? null : from.curve.clone();
    h.ledgerRate = from.ledgerRate;
    h.learnedRateSum = from.learnedRateSum;
    h.learnedPages = from.learnedPages;
    h.signalChangedHeld = from.signalChangedHeld;
    h.signalChangedMade = from.signalChangedMade;
    h.signalUnchangedHeld = from.signalUnchangedHeld;
    h.signalUnchangedMade = from.signalUnchangedMade;
    h.capacityRate = from.capacityRate;
    h.capacityStepAt = from.capacityStepAt;
    h.blockedUntil = from.blockedUntil;
    h.parkedUntil = from.parkedUntil;
    h.pushBacks = from.pushBacks;
    h.fetchesSincePushBack = from.fetchesSincePushBack;
    h.lastPushBack = from.lastPushBack;
    h.recentOutcomes = from.recentOutcomes;
    h.outcomeCount = from.outcomeCount;
    h.responseTimeRecent = from.responseTimeRecent;
    h.responseTimeBaseline = from.responseTimeBaseline;
    h.due = from.due.copy();
    h.ready = from.ready.copy();
    return h;
  }

  @Override
  public HostState copy(HostState from, HostState reuse) {
    return copy(from);
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(HostState h, DataOutputView out) throws IOException {
    out.writeDouble(h.overrideRate);
    out.writeDouble(h.evidenceRate);
    out.writeLong(h.evidenceUntil);
    out.writeLong(h.lastRelease);
    out.writeLong(h.wakeAt);
    out.writeInt(h.pages);
    out.writeInt(h.inFlight);
    if (h.curve == null) {
      VarInts.writeVarInt(out, 0);
    } else {
      VarInts.writeVarInt(out, h.curve.length + 1);
      for (double d : h.curve) {
        out.writeDouble(d);
      }
    }
    out.writeDouble(h.ledgerRate);
    if (layout >= 2) {
      out.writeDouble(h.learnedRateSum);
      VarInts.writeVarInt(out, h.learnedPages + 1); // + 1: LEARNED_UNKNOWN (-1) is stored as 0
    }
    if (layout >= 3) {
      writePoliteness(h, out);
    }
    if (layout >= 4) {
      writeSignalTrust(h, out);
    }
    writeQueues(h.due, out);
    writeQueues(h.ready, out);
  }

  /** Trust in the host's change signals: one byte for a host that sends none (most hosts). */
  private static void writeSignalTrust(HostState h, DataOutputView out) throws IOException {
    boolean any = h.signalChangedMade != 0 || h.signalUnchangedMade != 0;
    out.writeBoolean(any);
    if (any) {
      out.writeFloat(h.signalChangedHeld);
      out.writeFloat(h.signalChangedMade);
      out.writeFloat(h.signalUnchangedHeld);
      out.writeFloat(h.signalUnchangedMade);
    }
  }

  /**
   * A host that never pushed back, failed or reported a response time (most hosts) costs one byte;
   * the host record is rewritten on every event of the host.
   */
  private static void writePoliteness(HostState h, DataOutputView out) throws IOException {
    boolean any =
        h.capacityRate != 0
            || h.capacityStepAt != 0
            || h.blockedUntil != 0
            || h.parkedUntil != 0
            || h.pushBacks != 0
            || h.fetchesSincePushBack != 0
            || h.lastPushBack != 0
            || h.outcomeCount != 0
            || h.responseTimeBaseline != 0;
    out.writeBoolean(any);
    if (!any) {
      return;
    }
    out.writeDouble(h.capacityRate);
    out.writeLong(h.capacityStepAt);
    out.writeLong(h.blockedUntil);
    out.writeLong(h.parkedUntil);
    VarInts.writeVarInt(out, h.pushBacks);
    VarInts.writeVarInt(out, h.fetchesSincePushBack);
    out.writeLong(h.lastPushBack);
    out.writeShort(h.recentOutcomes);
    out.writeByte(h.outcomeCount);
    out.writeFloat(h.responseTimeRecent);
    out.writeFloat(h.responseTimeBaseline);
  }

  private static void readPoliteness(HostState h, DataInputView in) throws IOException {
    if (!in.readBoolean()) {
      return;
    }
    h.capacityRate = in.readDouble();
    h.capacityStepAt = in.readLong();
    h.blockedUntil = in.readLong();
    h.parkedUntil = in.readLong();
    h.pushBacks = VarInts.readVarInt(in);
    h.fetchesSincePushBack = VarInts.readVarInt(in);
    h.lastPushBack = in.readLong();
    h.recentOutcomes = in.readShort() & 0xFFFF;
    h.outcomeCount = in.readByte();
    h.responseTimeRecent = in.readFloat();
    h.responseTimeBaseline = in.readFloat();
  }

  /**
   * Bucket ids ascend: each is written as its distance from the previous one (a byte or two instead
   * of four); a head as is and a tail as its distance from the head. The host record is rewritten
   * on every event of the host, so its size is write volume.
   */
  private static void writeQueues(SlotQueues q, DataOutputView out) throws IOException {
    int n = q.bucketCount();
    VarInts.writeVarInt(out, n);
    long previous = 0;
    for (int i = 0; i < n; i++) {
      VarInts.writeVarLong(out, q.bucket(i) - previous);
      previous = q.bucket(i);
      VarInts.writeVarInt(out, q.head(i));
      VarInts.writeVarInt(out, q.tail(i) - q.head(i));
    }
  }

  @Override
  public HostState deserialize(DataInputView in) throws IOException {
    HostState h = new HostState();
    h.overrideRate = in.readDouble();
    h.evidenceRate = in.readDouble();
    h.evidenceUntil = in.readLong();
    h.lastRelease = in.readLong();
    h.wakeAt = in.readLong();
    h.pages = in.readInt();
    h.inFlight = in.readInt();
    int n = VarInts.readVarInt(in);
    if (n > 0) {
      h.curve = new double[n - 1];
      for (int i = 0; i < h.curve.length; i++) {
        h.curve[i] = in.readDouble();
      }
    }
    h.ledgerRate = in.readDouble();
    if (layout >= 2) {
      h.learnedRateSum = in.readDouble();
      h.learnedPages = VarInts.readVarInt(in) - 1;
    } else {
      h.learnedPages = HostState.LEARNED_UNKNOWN; // its pages' evidence was never summed
    }
    if (layout >= 3) {
      readPoliteness(h, in);
    }
    if (layout >= 4 && in.readBoolean()) {
      h.signalChangedHeld = in.readFloat();
      h.signalChangedMade = in.readFloat();
      h.signalUnchangedHeld = in.readFloat();
      h.signalUnchangedMade = in.readFloat();
    }
    h.due = readQueues(in);
    h.ready = readQueues(in);
    return h;
  }

  private static SlotQueues readQueues(DataInputView in) throws IOException {
    SlotQueues q = new SlotQueues();
    int n = VarInts.readVarInt(in);
    long previous = 0;
    for (int i = 0; i < n; i++) {
      long bucket = previous + VarInts.readVarLong(in);
      previous = bucket;
      int head = VarInts.readVarInt(in);
      q.append(bucket, head, head + VarInts.readVarInt(in));
    }
    return q;
  }

  @Override
  public HostState deserialize(HostState reuse, DataInputView in) throws IOException {
    return deserialize(in);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
  }

  @Override
  public TypeSerializerSnapshot<HostState> snapshotConfiguration() {
    return new Snapshot(layout);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HostStateSerializer && ((HostStateSerializer) o).layout == layout;
  }

  @Override
  public int hashCode() {
    return layout;
  }

  /** Resolves to this instance on deserialization, keeping the layout. */
  private Object readResolve() {
    return ofLayout(layout);
  }

  static HostStateSerializer ofLayout(int layout) {
    return layout == 1 ? LAYOUT_1 : layout == 2 ? LAYOUT_2 : layout == 3 ? LAYOUT_3 : INSTANCE;
  }

  /**
   * The serializer's snapshot: its layout (see {@link LayoutSnapshot}). Builds before the host
   * prior wrote it as {@code SimpleTypeSerializerSnapshot}, which reads as layout 1; state in an
   * earlier layout is compatible after migration (RocksDB rewrites it in the current layout on
   * restore).
   */
  public static final class Snapshot extends LayoutSnapshot<HostState> {

    /** For reading a snapshot back. */
    public Snapshot() {
      this(LAYOUT);
    }

    Snapshot(int layout) {
      super(layout);
    }

    @Override
    int currentLayout() {
      return LAYOUT;
    }

    @Override
    TypeSerializer<HostState> serializerOf(int layout) {
      return ofLayout(layout);
    }
  }
}
