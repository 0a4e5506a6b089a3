package io.recrawl.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChangeHistoryTest {

  @TempDir Path dir;

  @Test
  void theNextChangeIsTheFirstStrictlyAfterTheTime() {
    ChangeHistory h = new ChangeHistory(new double[][] {{1.0, 2.0, 2.0, 4.5}, null, {}});
    assertThat(h.nextAfter(0, 0.0)).isEqualTo(1.0);
    assertThat(h.nextAfter(0, 1.0)).isEqualTo(2.0);
    assertThat(h.nextAfter(0, 2.0)).isEqualTo(4.5); // past both changes at 2.0
    assertThat(h.nextAfter(0, 3.0)).isEqualTo(4.5);
    assertThat(h.nextAfter(0, 4.5)).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(h.has(1)).isFalse();
    assertThat(h.has(2)).isTrue();
    assertThat(h.nextAfter(2, 0.0)).isEqualTo(Double.POSITIVE_INFINITY);
  }

  @Test
  void timesOutOfOrderAreRefused() {
    assertThatThrownBy(() -> new ChangeHistory(new double[][] {{2.0, 1.0}}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void badRowsOfChangesCsvAreReportedByLineAndNothingIsLoaded() throws Exception {
    Files.writeString(
        dir.resolve("pages.csv"),
        "url,host,weight,change_rate\nhttps://a.example/1,a.example,1,0.5\n"
            + "https://a.example/2,a.example,1,0.5\nhttps://a.example/3,a.example,1,0.5\n");
    Files.writeString(
        dir.resolve(ChangeHistory.FILE),
        String.join(
            "\n",
            "url,change_days",
            "https://a.example/1,0.5 1.5",
            "https://a.example/2,3 1",
            "https://nowhere.example/x,1",
            "https://a.example/1,2",
            "https://a.example/3,1 NaN",
            ""));
    assertThatThrownBy(() -> new WorkloadLoader(Double.POSITIVE_INFINITY).load(dir))
        .isInstanceOf(WorkloadException.class)
        .hasMessageContaining(
            "changes.csv:3: change_days must be finite numbers >= 0 in ascending order, got '1' at position 2")
        .hasMessageContaining("changes.csv:4: url not in pages.csv: https://nowhere.example/x")
        .hasMessageContaining("changes.csv:5: duplicate url https://a.example/1")
        .hasMessageContaining("changes.csv:6: change_days must be finite numbers");
  }
}
