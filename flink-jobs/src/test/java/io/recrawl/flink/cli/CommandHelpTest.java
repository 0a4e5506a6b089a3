package io.recrawl.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Every command of bin/recrawl answers --help with its options and an example. */
class CommandHelpTest {

  @Test
  void everyCommandHasItsUsageOptionsAndAnExample() {
    for (String command :
        List.of(
            "run",
            "demo",
            "explain",
            "export",
            "import",
            "simulate",
            "workload",
            "bench",
            "estimator-report")) {
      assertThat(CommandHelp.of(command))
          .as(command)
          .startsWith("usage: bin/recrawl " + command)
          .contains("example")
          .contains("--");
    }
    assertThat(CommandHelp.of("run"))
        .contains("--from-savepoint PATH")
        .contains("--from-latest-checkpoint");
  }

  @Test
  void helpIsAskedWithEitherSpelling() {
    assertThat(CommandHelp.asked(List.of("--config", "x", "--help"))).isTrue();
    assertThat(CommandHelp.asked(List.of("-h"))).isTrue();
    assertThat(CommandHelp.asked(List.of("--config", "help.yaml"))).isFalse();
  }
}
