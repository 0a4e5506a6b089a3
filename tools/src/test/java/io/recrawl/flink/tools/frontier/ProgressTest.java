package io.recrawl.flink.tools.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The progress line: rows, rows a second, share done and the time left. */
class ProgressTest {

  @Test
  void rowsRateShareAndTimeLeft() {
    Progress p = new Progress(System.err, "read", 1_000, "bytes", () -> 250, 5_000);
    String line = p.line(50_000, System.nanoTime() + 2_000_000_000L);
    assertThat(line)
        .matches("recrawl import: read 50,000 rows, 2[45],[0-9]{3} rows/s, .*") // 25,000, or about
        .contains("25% of 1,000 bytes, ETA 6 s");
  }

  @Test
  void printsOnlyEveryFewSeconds() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Progress p =
        new Progress(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            "built",
            0,
            "rows",
            () -> 0,
            60_000);
    for (int i = 0; i < 1_000; i++) {
      p.update(i);
    }
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
  }
}
