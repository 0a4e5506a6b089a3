package io.recrawl.flink.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.control.GlobalLambdaControl;
import io.recrawl.flink.testutil.RepoFiles;
import java.nio.file.Files;
import org.apache.flink.api.common.typeutils.base.DoubleSerializer;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The operator uids, state names and serializers savepoints depend on (docs/operations.md, "State
 * contract"). A failure here means savepoints of earlier builds would lose that state: change the
 * code back, not the test.
 */
class StateContractTest {

  @Test
  void uidsAndStateNamesAreStable() throws Exception {
    assertThat(SchedulerState.OPERATOR_UID).isEqualTo("recrawl-host-scheduler");
    assertThat(GlobalLambdaControl.OPERATOR_UID).isEqualTo("recrawl-global-lambda");
    assertThat(SchedulerState.hostDescriptor().getName()).isEqualTo("host");
    assertThat(SchedulerState.pagesDescriptor().getName()).isEqualTo("pages");
    assertThat(SchedulerState.slotsDescriptor().getName()).isEqualTo("slots");
    assertThat(SchedulerState.leasesDescriptor().getName()).isEqualTo("leases");
    assertThat(SchedulerState.globalDescriptor().getName()).isEqualTo("global");
    assertThat(SchedulerState.hostRatesDescriptor().getName()).isEqualTo("host-rates");
    assertThat(SchedulerState.watermarkDescriptor().getName()).isEqualTo("watermark");
    assertThat(SchedulerState.engineSettingsDescriptor().getName()).isEqualTo("engine-settings");
    assertThat(SchedulerState.learnedPriorDescriptor().getName()).isEqualTo("learned-prior");
    assertThat(SchedulerState.GLOBAL_LAMBDA).isEqualTo("lambda0");
    assertThat(SchedulerState.EPOCH).isEqualTo("epoch");
  }

  @Test
  void serializersAreStable() {
    assertThat(SchedulerState.hostDescriptor().getSerializer())
        .isSameAs(HostStateSerializer.INSTANCE);
    assertThat(SchedulerState.pagesDescriptor().getSerializer().getClass().getSimpleName())
        .isEqualTo("MapSerializer");
    assertThat(SchedulerState.leasesDescriptor().getSerializer())
        .isSameAs(LeaseSlotsSerializer.INSTANCE);
    assertThat(SchedulerState.watermarkDescriptor().getElementSerializer())
        .isSameAs(LongSerializer.INSTANCE);
    assertThat(SchedulerState.engineSettingsDescriptor().getElementSerializer())
        .isSameAs(StringSerializer.INSTANCE);
    assertThat(SchedulerState.globalDescriptor().getValueSerializer())
        .isSameAs(DoubleSerializer.INSTANCE);
    // Their snapshot classes' names are written in every savepoint.
    assertThat(HostStateSerializer.INSTANCE.snapshotConfiguration().getClass().getName())
        .isEqualTo("io.recrawl.flink.scheduler.HostStateSerializer$Snapshot");
    assertThat(PageStateSerializer.INSTANCE.snapshotConfiguration().getClass().getName())
        .isEqualTo("io.recrawl.flink.scheduler.PageStateSerializer$Snapshot");
    assertThat(LeaseSlotsSerializer.INSTANCE.snapshotConfiguration().getClass().getName())
        .isEqualTo("io.recrawl.flink.scheduler.LeaseSlotsSerializer$Snapshot");
  }

  @Test
  void operationsDocNamesThem() throws Exception {
    String doc = Files.readString(RepoFiles.file("docs/operations.md"));
    for (String name :
        new String[] {
          "`recrawl-host-scheduler`",
          "`recrawl-global-lambda`",
          "`host`",
          "`pages`",
          "`slots`",
          "`leases`",
          "`global`",
          "`host-rates`",
          "`watermark`",
          "`engine-settings`",
          "`learned-prior`"
        }) {
      assertThat(doc).contains(name);
    }
  }
}
