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
  void askedForHelpGoesToStandardOutputAndABenchmarksHelpIsItsOwn() throws Exception {
    java.io.PrintStream out = System.out;
    java.io.PrintStream err = System.err;
    java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
    java.io.ByteArrayOutputStream e = new java.io.ByteArrayOutputStream();
    try {
      System.setOut(new java.io.PrintStream(o, true, "UTF-8"));
      System.setErr(new java.io.PrintStream(e, true, "UTF-8"));
      RecrawlCli.main(new String[] {"help"});
      RecrawlCli.main(new String[] {"bench", "live", "--help"});
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    String printed = o.toString("UTF-8");
    assertThat(e.toString("UTF-8")).isEmpty();
    assertThat(printed)
        .contains("usage: bin/recrawl COMMAND")
        .contains("usage: bin/recrawl bench live");
    assertThat(printed.substring(printed.indexOf("usage: bin/recrawl bench live")))
        .doesNotContain("bench solver", "bench throughput");
  }

  @Test
  void helpIsAskedWithEitherSpelling() {
    assertThat(CommandHelp.asked(List.of("--config", "x", "--help"))).isTrue();
    assertThat(CommandHelp.asked(List.of("-h"))).isTrue();
    assertThat(CommandHelp.asked(List.of("--config", "help.yaml"))).isFalse();
  }
}
