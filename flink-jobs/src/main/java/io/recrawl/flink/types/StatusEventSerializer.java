package io.recrawl.flink.types;

import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.io.IOException;
import java.util.Map;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/** Compact binary form of a {@link StatusEvent}; no Kryo. */
public final class StatusEventSerializer extends WireSerializer<StatusEvent> {

  private static final long serialVersionUID = 1L;
  public static final StatusEventSerializer INSTANCE = new StatusEventSerializer();

  private static final int HAS_CHANGED = 1;
  private static final int CHANGED = 2;
  private static final int HAS_WEIGHT = 4;
  private static final int HAS_HTTP_STATUS = 8;
  private static final CrawlStatus[] STATUSES = CrawlStatus.values();

  @Override
  public StatusEvent createInstance() {
    return new StatusEvent("", "", CrawlStatus.DISCOVERED, 0, Map.of(), null, null, null);
  }

  @Override
  public void serialize(StatusEvent e, DataOutputView out) throws IOException {
    Fields.writeString(e.url(), out);
    Fields.writeString(e.host(), out);
    out.writeByte(e.status().ordinal());
    out.writeLong(e.time());
    Fields.writeMetadata(e.metadata(), out);
    int flags = 0;
    if (e.changed() != null) {
      flags |= HAS_CHANGED | (e.changed() ? CHANGED : 0);
    }
    flags |= e.weight() != null ? HAS_WEIGHT : 0;
    flags |= e.httpStatus() != null ? HAS_HTTP_STATUS : 0;
    out.writeByte(flags);
    if (e.weight() != null) {
      out.writeDouble(e.weight());
    }
    if (e.httpStatus() != null) {
      out.writeShort(e.httpStatus());
    }
  }

  @Override
  public StatusEvent deserialize(DataInputView in) throws IOException {
    String url = Fields.readString(in);
    String host = Fields.readString(in);
    CrawlStatus status = STATUSES[in.readByte()];
    long time = in.readLong();
    var metadata = Fields.readMetadata(in);
    int flags = in.readByte();
    Boolean changed = (flags & HAS_CHANGED) != 0 ? (flags & CHANGED) != 0 : null;
    Double weight = (flags & HAS_WEIGHT) != 0 ? in.readDouble() : null;
    Integer httpStatus = (flags & HAS_HTTP_STATUS) != 0 ? (int) in.readShort() : null;
    return new StatusEvent(url, host, status, time, metadata, changed, weight, httpStatus);
  }

  @Override
  public TypeSerializerSnapshot<StatusEvent> snapshotConfiguration() {
    return new Snapshot();
  }

  /** Restores this serializer from a checkpoint. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<StatusEvent> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}
