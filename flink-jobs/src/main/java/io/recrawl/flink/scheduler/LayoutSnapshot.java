package io.recrawl.flink.scheduler;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The snapshot of a state serializer with numbered layouts: it writes the layout its serializer
 * wrote, and reads every snapshot an earlier build wrote. Builds before layouts wrote these classes
 * as Flink's {@code SimpleTypeSerializerSnapshot} (snapshot version 3, no payload): that reads as
 * layout 1. A layout this build does not know (a savepoint of a later build) is incompatible, and
 * Flink refuses the restore naming the state.
 *
 * <p>A subclass's name is part of every savepoint (Flink writes it before the snapshot): never
 * rename or move one.
 */
abstract class LayoutSnapshot<T> implements TypeSerializerSnapshot<T> {

  /** {@code SimpleTypeSerializerSnapshot}'s version: builds before layouts, layout 1. */
  static final int SIMPLE_SNAPSHOT_VERSION = 3;

  /** This class's version: a layout byte follows. */
  static final int VERSION = 4;

  private int layout;

  LayoutSnapshot(int layout) {
    this.layout = layout;
  }

  /** The layout the snapshot's serializer writes. */
  int layout() {
    return layout;
  }

  /** The newest layout this build writes. */
  abstract int currentLayout();

  /** The serializer for a layout this build reads ({@code 1..currentLayout()}). */
  abstract TypeSerializer<T> serializerOf(int layout);

  /**
   * Whether this build's serializer reads state of an earlier layout as it is, so that a restore
   * needs no migration (RocksDB would otherwise rewrite every entry of the state on restore).
   */
  boolean readsAsIs(int oldLayout) {
    return false;
  }

  @Override
  public int getCurrentVersion() {
    return VERSION;
  }

  @Override
  public void writeSnapshot(DataOutputView out) throws IOException {
    out.writeByte(layout);
  }

  @Override
  public void readSnapshot(int readVersion, DataInputView in, ClassLoader classLoader)
      throws IOException {
    if (readVersion == SIMPLE_SNAPSHOT_VERSION) {
      layout = 1;
    } else if (readVersion == VERSION) {
      layout = in.readByte();
    } else {
      throw new IOException(
          "unknown snapshot version " + readVersion + " of " + getClass().getName());
    }
  }

  @Override
  public TypeSerializer<T> restoreSerializer() {
    if (layout < 1 || layout > currentLayout()) {
      throw new IllegalStateException(
          getClass().getName()
              + ": layout "
              + layout
              + " was written by a later build (this one reads layouts 1 to "
              + currentLayout()
              + ")");
    }
    return serializerOf(layout);
  }

  @Override
  public TypeSerializerSchemaCompatibility<T> resolveSchemaCompatibility(
      TypeSerializerSnapshot<T> old) {
    if (!getClass().isInstance(old)) {
      return TypeSerializerSchemaCompatibility.incompatible();
    }
    int oldLayout = ((LayoutSnapshot<T>) old).layout;
    if (oldLayout == layout) {
      return TypeSerializerSchemaCompatibility.compatibleAsIs();
    }
    if (oldLayout < 1 || oldLayout > layout) {
      return TypeSerializerSchemaCompatibility.incompatible();
    }
    return readsAsIs(oldLayout)
        ? TypeSerializerSchemaCompatibility.compatibleAsIs()
        : TypeSerializerSchemaCompatibility.compatibleAfterMigration();
  }
}
