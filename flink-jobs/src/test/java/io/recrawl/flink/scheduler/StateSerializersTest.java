package io.recrawl.flink.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.engine.HostState;
import io.recrawl.engine.PageState;
import io.recrawl.engine.SlotQueues;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * Round trips of the compact state serializers, their snapshots, and the size of a typical URL
 * record.
 */
class StateSerializersTest {

  private static <T> byte[] bytes(TypeSerializer<T> s, T value) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64);
    s.serialize(value, out);
    return out.getCopyOfBuffer();
  }

  private static <T> T roundTrip(TypeSerializer<T> s, T value) throws IOException {
    byte[] b = bytes(s, value);
    DataInputDeserializer in = new DataInputDeserializer(b);
    T back = s.deserialize(in);
    assertThat(in.available()).isZero(); // read exactly what was written
    // copy(DataInputView, DataOutputView) yields the same bytes
    DataOutputSerializer copied = new DataOutputSerializer(64);
    s.copy(new DataInputDeserializer(b), copied);
    assertThat(copied.getCopyOfBuffer()).isEqualTo(b);
    return back;
  }

  static PageState randomPage(Random r) {
    PageState p = new PageState();
    p.weight = r.nextBoolean() ? 1.0f : r.nextFloat() * 10;
    p.lastFetch = r.nextBoolean() ? 0 : 1_700_000_000_000L + r.nextInt(1 << 30);
    p.ageFrom = r.nextBoolean() ? 0 : 1_700_000_000_000L - r.nextInt(1 << 30);
    p.changeShape = r.nextFloat() * 200;
    p.changeRate = r.nextFloat();
    p.curveRate = r.nextBoolean() ? 0 : r.nextFloat();
    p.curveShape = r.nextBoolean() ? 0 : r.nextFloat() * 200;
    p.signatureHash = r.nextBoolean() ? 0 : r.nextLong();
    p.etagHash = r.nextBoolean() ? 0 : r.nextInt();
    p.status = (byte) r.nextInt(5);
    p.errors = (byte) r.nextInt(4);
    p.expiries = (byte) (r.nextBoolean() ? 0 : r.nextInt(127));
    p.forced = r.nextBoolean();
    p.leaseUntil = r.nextBoolean() ? 0 : 1_700_000_000_000L + r.nextInt(1 << 30);
    p.slot = r.nextBoolean() ? -1 : SlotQueues.key(r.nextInt(2), r.nextInt(), r.nextInt(1 << 30));
    if (r.nextInt(3) == 0) {
      p.metadata = Map.of("depth", List.of("3"), "tags", List.of("a", "b"));
    }
    return p;
  }

  @Test
  void pageStateRoundTripsEveryField() throws IOException {
    Random r = new Random(42);
    for (int i = 0; i < 500; i++) {
      PageState p = randomPage(r);
      PageState back = roundTrip(PageStateSerializer.INSTANCE, p);
      assertThat(back).usingRecursiveComparison().isEqualTo(p);
      assertThat(PageStateSerializer.INSTANCE.copy(p)).usingRecursiveComparison().isEqualTo(p);
    }
  }

  @Test
  void metadataValuesLongerThan64KbRoundTrip() throws IOException {
    PageState p = new PageState();
    p.metadata =
        Map.of("big", List.of("b".repeat(70_000))); // writeUTF would refuse it and fail the job
    assertThat(roundTrip(PageStateSerializer.INSTANCE, p)).usingRecursiveComparison().isEqualTo(p);
  }

  @Test
  void aFetchedPageTakesUnderFiftyBytes() throws IOException {
    PageState p = new PageState();
    p.weight = 1.0f;
    p.lastFetch = 1_700_000_000_000L;
    p.changeShape = 3.5f;
    p.changeRate = 2.25f;
    p.curveRate = 1.5f;
    p.curveShape = 3.5f; // counted as planned from its posterior
    p.signatureHash = 0x1234_5678_9abc_def0L;
    p.status = 1;
    p.slot = SlotQueues.key(0, 28_333_334L, 17);
    int size = bytes(PageStateSerializer.INSTANCE, p).length;
    assertThat(size).isLessThan(50);
    PageState fresh = new PageState();
    fresh.weight = 1.0f;
    fresh.slot = SlotQueues.key(0, 28_333_334L, 0);
    assertThat(bytes(PageStateSerializer.INSTANCE, fresh).length).isLessThan(25);
  }

  @Test
  void hostStateRoundTripsEveryField() throws IOException {
    Random r = new Random(7);
    for (int i = 0; i < 500; i++) {
      HostState h = new HostState();
      h.overrideRate = r.nextBoolean() ? 0 : r.nextDouble() * 1e5;
      h.evidenceRate = r.nextDouble();
      h.evidenceUntil = r.nextLong();
      h.lastRelease = r.nextBoolean() ? Long.MIN_VALUE / 2 : r.nextLong();
      h.wakeAt = r.nextBoolean() ? Long.MAX_VALUE : r.nextLong();
      h.pages = r.nextInt();
      h.inFlight = r.nextInt();
      h.learnedRateSum = r.nextDouble() * 1e4;
      h.learnedPages = r.nextInt(10) == 0 ? HostState.LEARNED_UNKNOWN : r.nextInt(1 << 20);
      if (r.nextBoolean()) {
        h.curve = r.doubles(37).toArray();
      }
      if (r.nextBoolean()) {
        h.capacityRate = r.nextDouble() * 1e4;
        h.capacityStepAt = r.nextLong();
        h.blockedUntil = r.nextLong();
        h.parkedUntil = r.nextBoolean() ? 0 : r.nextLong();
        h.pushBacks = r.nextInt(63);
        h.fetchesSincePushBack = r.nextInt(1 << 20);
        h.lastPushBack = r.nextLong();
        h.outcomeCount = r.nextInt(17);
        h.recentOutcomes = r.nextInt(1 << 16);
        h.responseTimeRecent = r.nextFloat() * 1e4f;
        h.responseTimeBaseline = r.nextFloat() * 1e4f;
      }
      for (int k = r.nextInt(20); k > 0; k--) {
        h.due.push(0, r.nextInt(1 << 20));
      }
      for (int k = r.nextInt(20); k > 0; k--) {
        h.ready.push(1, (r.nextLong() & 0xFFFFFFFFL));
      }
      if (!h.ready.isEmpty()) {
        h.ready.pop(1, h.ready.firstBucket());
      }
      HostState back = roundTrip(HostStateSerializer.INSTANCE, h);
      // Queues compare by content: their arrays keep room at both ends.
      assertThat(back)
          .usingRecursiveComparison()
          .withEqualsForType(SlotQueues::equals, SlotQueues.class)
          .isEqualTo(h);
      assertThat(HostStateSerializer.INSTANCE.copy(h))
          .usingRecursiveComparison()
          .withEqualsForType(SlotQueues::equals, SlotQueues.class)
          .isEqualTo(h);
      assertThat(back.due.bucketCount()).isEqualTo(h.due.bucketCount());
    }
  }

  @Test
  void snapshotsRestoreCompatibleSerializers() throws IOException {
    checkSnapshot(PageStateSerializer.INSTANCE);
    checkSnapshot(HostStateSerializer.INSTANCE);
  }

  @Test
  void hostRecordsOfBuildsBeforeTheHostPriorAreMigratedOnRestore() throws IOException {
    // What those builds wrote: this snapshot class under SimpleTypeSerializerSnapshot's version 3,
    // no payload.
    DataOutputSerializer out = new DataOutputSerializer(64);
    out.writeUTF(HostStateSerializer.Snapshot.class.getName());
    out.writeInt(3);
    TypeSerializerSnapshot<HostState> old =
        TypeSerializerSnapshot.readVersionedSnapshot(
            new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
    assertThat(
            HostStateSerializer.INSTANCE
                .snapshotConfiguration()
                .resolveSchemaCompatibility(old)
                .isCompatibleAfterMigration())
        .isTrue();

    HostState h = new HostState();
    h.overrideRate = 12;
    h.pages = 3;
    h.inFlight = 1;
    h.curve = new double[] {3, 2, 1};
    h.ledgerRate = 2.5;
    h.due.push(0, 42);
    HostState read = roundTrip(old.restoreSerializer(), h); // written and read in the old layout
    assertThat(read.learnedPages).isEqualTo(HostState.LEARNED_UNKNOWN);
    assertThat(read).usingRecursiveComparison().ignoringFields("learnedPages").isEqualTo(h);
    assertThat(roundTrip(HostStateSerializer.INSTANCE, read))
        .usingRecursiveComparison()
        .isEqualTo(read);
    // The old layout is two fields shorter, so the new serializer could not have read it as is.
    assertThat(bytes(old.restoreSerializer(), h).length)
        .isLessThan(bytes(HostStateSerializer.INSTANCE, h).length);
  }

  @Test
  void hostRecordsOfBuildsBeforePolitenessAreMigratedOnRestore() throws IOException {
    TypeSerializerSnapshot<HostState> read = migratedFrom(HostStateSerializer.LAYOUT_2);
    HostState h = new HostState();
    h.overrideRate = 12;
    h.pages = 3;
    h.learnedPages = 2;
    h.due.push(0, 42);
    HostState back = roundTrip(read.restoreSerializer(), h);
    assertThat(back).usingRecursiveComparison().isEqualTo(h);
    assertThat(back.blockedUntil).isZero();
    assertThat(roundTrip(HostStateSerializer.INSTANCE, back))
        .usingRecursiveComparison()
        .isEqualTo(back);
  }

  @Test
  void pageEvidenceOfTheGridPosteriorRoundTripsAndCostsNothingWhenAbsent() throws IOException {
    Random r = new Random(5);
    for (int i = 0; i < 200; i++) {
      PageState p = randomPage(r);
      byte[] without = bytes(PageStateSerializer.INSTANCE, p);
      p.evidenceUnchanged = r.nextFloat() * 100;
      p.evidenceChanged = r.nextInt(50);
      p.evidenceLnGap = (float) r.nextGaussian();
      p.evidenceDated = r.nextInt(3);
      assertThat(roundTrip(PageStateSerializer.INSTANCE, p))
          .usingRecursiveComparison()
          .isEqualTo(p);
      assertThat(PageStateSerializer.INSTANCE.copy(p)).usingRecursiveComparison().isEqualTo(p);
      // 16 bytes, and one or two more when the flag word grows
      assertThat(bytes(PageStateSerializer.INSTANCE, p).length)
          .isBetween(without.length + 16, without.length + 18);
    }
  }

  @Test
  void hostRecordsOfBuildsBeforeSignalTrustAreMigratedAndTrustRoundTrips() throws IOException {
    TypeSerializerSnapshot<HostState> read = migratedFrom(HostStateSerializer.LAYOUT_3);
    HostState h = new HostState();
    h.pages = 3;
    h.learnedPages = 2;
    h.blockedUntil = 77;
    h.due.push(0, 42);
    HostState back = roundTrip(read.restoreSerializer(), h);
    assertThat(back).usingRecursiveComparison().isEqualTo(h);
    // A host that sends no signals costs the current layout one byte more.
    assertThat(bytes(HostStateSerializer.INSTANCE, h).length)
        .isEqualTo(bytes(read.restoreSerializer(), h).length + 1);
    h.signalChangedHeld = 17.5f;
    h.signalChangedMade = 18f;
    h.signalUnchangedHeld = 3f;
    h.signalUnchangedMade = 9f;
    assertThat(roundTrip(HostStateSerializer.INSTANCE, h)).usingRecursiveComparison().isEqualTo(h);
  }

  /**
   * The snapshot a savepoint of an earlier host layout holds, read back; the current serializer
   * must restore it by migration.
   */
  private static TypeSerializerSnapshot<HostState> migratedFrom(HostStateSerializer layout)
      throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64);
    TypeSerializerSnapshot.writeVersionedSnapshot(out, layout.snapshotConfiguration());
    TypeSerializerSnapshot<HostState> read =
        TypeSerializerSnapshot.readVersionedSnapshot(
            new DataInputDeserializer(out.getCopyOfBuffer()),
            StateSerializersTest.class.getClassLoader());
    assertThat(
            HostStateSerializer.INSTANCE
                .snapshotConfiguration()
                .resolveSchemaCompatibility(read)
                .isCompatibleAfterMigration())
        .isTrue();
    return read;
  }

  private static <T> void checkSnapshot(TypeSerializer<T> s) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64);
    TypeSerializerSnapshot.writeVersionedSnapshot(out, s.snapshotConfiguration());
    TypeSerializerSnapshot<T> read =
        TypeSerializerSnapshot.readVersionedSnapshot(
            new DataInputDeserializer(out.getCopyOfBuffer()), getClass(s).getClassLoader());
    assertThat(read.restoreSerializer()).isEqualTo(s);
    assertThat(s.snapshotConfiguration().resolveSchemaCompatibility(read).isCompatibleAsIs())
        .isTrue();
  }

  private static Class<?> getClass(Object o) {
    return o.getClass();
  }

  @Test
  void urlsAreStoredRelativeToTheirHost() {
    String[][] cases = {
      {"a.example", "https://a.example/x?y=1"},
      {"a.example", "http://a.example/"},
      {"a.example:8080", "http://a.example:8080/p"},
      {"a.example", "https://A.example/x"}, // not the key's spelling: kept whole
      {"example.com", "https://www.example.com/x"}, // byDomain keys: kept whole
      {"a.example", "https://a.example"},
      {"a.example", "https://a.examplex/y"},
    };
    for (String[] c : cases) {
      String stored = SchedulerState.compactUrl(c[0], c[1]);
      assertThat(SchedulerState.expandUrl(c[0], stored)).isEqualTo(c[1]);
    }
    assertThat(SchedulerState.compactUrl("a.example", "https://a.example/x")).hasSize(3);
    assertThat(SchedulerState.compactUrl("a.example", "https://a.examplex/y"))
        .isEqualTo("https://a.examplex/y");
  }
}
