package io.recrawl.flink.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench failures} at CI size: 50,000 status events through the job with 3 injected task
 * failures, then every recovery check ({@link RecoveryChecks}) must hold. The input's events are
 * 200 ms apart (under three hours of event time), so that pages fetched early fall due again within
 * the run and the revisit check has cases.
 */
class FailureInjectionITCase {

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void theJobRecoversFromInjectedFailuresWithEveryCheckHolding(@TempDir Path dir) throws Exception {
    FailureRun.Report r =
        FailureRun.run(
            new FailureRun.Options(
                50_000, 3, 5_000, 100, 50, 200, 2, "1 s", 7, 0, dir.resolve("work")),
            true);
    FailureBenchmark.print(r);

    assertThat(r.failedAt()).hasSize(3);
    assertThat(r.restarts()).isGreaterThanOrEqualTo(3);
    assertThat(r.recoverySeconds()).hasSize(3);
    assertThat(r.urls()).isGreaterThan(5_000);
    for (RecoveryChecks.Check c : r.checks()) {
      assertThat(c.violations()).as("%s: %s", c.name(), c.example()).isZero();
      assertThat(c.checked()).as("%s has cases", c.name()).isPositive();
    }
  }
}
