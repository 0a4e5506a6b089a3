package io.recrawl.flink.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The page and lease-slot serializers' snapshots: they write their layout, read what builds before
 * layouts wrote (Flink's {@code SimpleTypeSerializerSnapshot}, version 3, no payload) as layout 1,
 * and refuse a layout of a later build.
 */
class LayoutSnapshotTest {

  static List<TypeSerializer<?>> serializers() {
    return List.of(PageStateSerializer.INSTANCE, LeaseSlotsSerializer.INSTANCE);
  }

  @ParameterizedTest
  @MethodSource("serializers")
  <T> void writesAndReadsItsLayout(TypeSerializer<T> s) throws IOException {
    TypeSerializerSnapshot<T> read = roundTrip(s.snapshotConfiguration());
    assertThat(((LayoutSnapshot<T>) read).layout()).isEqualTo(currentLayout(s));
    assertThat(read.restoreSerializer()).isSameAs(s);
    assertThat(s.snapshotConfiguration().resolveSchemaCompatibility(read).isCompatibleAsIs())
        .isTrue();
  }

  @ParameterizedTest
  @MethodSource("serializers")
  <T> void readsTheSnapshotsOfBuildsBeforeLayouts(TypeSerializer<T> s) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64);
    out.writeUTF(s.snapshotConfiguration().getClass().getName());
    out.writeInt(3); // SimpleTypeSerializerSnapshot's version, no payload
    TypeSerializerSnapshot<T> old = read(out);
    assertThat(((LayoutSnapshot<T>) old).layout()).isEqualTo(1);
    assertThat(old.restoreSerializer()).isSameAs(s);
    assertThat(s.snapshotConfiguration().resolveSchemaCompatibility(old).isCompatibleAsIs())
        .isTrue();
  }

  @ParameterizedTest
  @MethodSource("serializers")
  <T> void refusesALayoutOfALaterBuild(TypeSerializer<T> s) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64);
    out.writeUTF(s.snapshotConfiguration().getClass().getName());
    out.writeInt(LayoutSnapshot.VERSION);
    out.writeByte(currentLayout(s) + 1);
    TypeSerializerSnapshot<T> later = read(out);
    assertThat(s.snapshotConfiguration().resolveSchemaCompatibility(later).isIncompatible())
        .isTrue();
    assertThatThrownBy(later::restoreSerializer).hasMessageContaining("later build");
  }

  private static int currentLayout(TypeSerializer<?> s) {
    return ((LayoutSnapshot<?>) s.snapshotConfiguration()).currentLayout();
  }

  private static <T> TypeSerializerSnapshot<T> roundTrip(TypeSerializerSnapshot<T> snapshot)
      throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64);
    TypeSerializerSnapshot.writeVersionedSnapshot(out, snapshot);
    return read(out);
  }

  private static <T> TypeSerializerSnapshot<T> read(DataOutputSerializer out) throws IOException {
    return TypeSerializerSnapshot.readVersionedSnapshot(
        new DataInputDeserializer(out.getCopyOfBuffer()),
        LayoutSnapshotTest.class.getClassLoader());
  }
}
