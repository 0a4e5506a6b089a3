package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FrontierBenchTest {

  static String[] run(String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int rc = FrontierBench.run(args, new PrintStream(out, true, StandardCharsets.UTF_8));
    return new String[] {Integer.toString(rc), out.toString(StandardCharsets.UTF_8)};
  }

  @Test
  void helpAndBadArguments() throws Exception {
    assertThat(run("--help")[1]).contains("usage: bin/recrawl bench frontier", "--pid", "example");
    String[] bad = run("--pages", "0");
    assertThat(bad[0]).isEqualTo("2");
    assertThat(bad[1]).contains("--pages and --hosts must be positive");
    assertThat(run("--what")[1]).contains("unexpected argument '--what'");
  }
}
