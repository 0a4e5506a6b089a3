package io.recrawl.flink.types;

import io.recrawl.wire.CrawlRequest;
import java.io.IOException;
import java.util.Map;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/** Binary form of a {@link CrawlRequest}; no Kryo. */
public final class CrawlRequestSerializer extends WireSerializer<CrawlRequest> {

  private static final long serialVersionUID = 1L;
  public static final CrawlRequestSerializer INSTANCE = new CrawlRequestSerializer();

  @Override
  public CrawlRequest createInstance() {
    return new CrawlRequest("", "", Map.of(), 0, 0, 0, 0, 0);
  }

  @Override
  public void serialize(CrawlRequest r, DataOutputView out) throws IOException {
    Fields.writeString(r.url(), out);
    Fields.writeString(r.host(), out);
    Fields.writeMetadata(r.metadata(), out);
    out.writeLong(r.time());
    out.writeLong(r.due());
    out.writeDouble(r.value());
    out.writeDouble(r.threshold());
    out.writeLong(r.lease());
    out.writeLong(r.spacing());
  }

  @Override
  public CrawlRequest deserialize(DataInputView in) throws IOException {
    return new CrawlRequest(
        Fields.readString(in),
        Fields.readString(in),
        Fields.readMetadata(in),
        in.readLong(),
        in.readLong(),
        in.readDouble(),
        in.readDouble(),
        in.readLong(),
        in.readLong());
  }

  @Override
  public TypeSerializerSnapshot<CrawlRequest> snapshotConfiguration() {
    return new Snapshot();
  }

  /** Restores this serializer from a checkpoint. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<CrawlRequest> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}
