package io.recrawl.sim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class EstimatorReportTest {

  /** Runs the command, returning its exit code and what it printed on stdout and stderr. */
  private static String[] run(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
      int rc = EstimatorReport.run(args);
      return new String[] {
        Integer.toString(rc), o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8)
      };
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }

  @Test
  void printsTheTableForEveryScenarioAndEstimator() {
    String[] r = run("--pages", "200", "--seed", "3");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1]).contains("200 pages per row", "seed 3");
    assertThat(
            r[1].lines()
                .filter(l -> l.startsWith("| regular") || l.startsWith("| exponential"))
                .count())
        .isEqualTo(12 * 4);
    // Deterministic for a seed.
    assertThat(run("--pages", "200", "--seed", "3")[1]).isEqualTo(r[1]);
  }

  @Test
  void badOptionsAreRefusedWithTheirName() {
    Supplier<String[]> bogus = () -> run("--bogus", "1");
    assertThat(bogus.get()[0]).isEqualTo("2");
    assertThat(bogus.get()[2]).contains("--bogus");
    String[] pages = run("--pages", "0");
    assertThat(pages[0]).isEqualTo("2");
    assertThat(pages[2]).contains("--pages");
    String[] prior = run("--prior-rate", "fast");
    assertThat(prior[0]).isEqualTo("2");
    assertThat(prior[2]).contains("--prior-rate");
    String[] range = run("--min-rate", "5", "--max-rate", "1");
    assertThat(range[0]).isEqualTo("2");
    assertThat(range[2]).contains("--max-rate");
    String[] missing = run("--seed");
    assertThat(missing[0]).isEqualTo("2");
    assertThat(missing[2]).contains("--seed needs a value");
  }
}
