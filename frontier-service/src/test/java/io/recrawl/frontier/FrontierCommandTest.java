package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class FrontierCommandTest {

  static String[] run(String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int rc =
        FrontierCommand.run(
            args, new PrintStream(out, true, StandardCharsets.UTF_8), new CountDownLatch(0), false);
    return new String[] {Integer.toString(rc), out.toString(StandardCharsets.UTF_8)};
  }

  @Test
  void helpSaysHowToStartIt() throws Exception {
    String[] r = run("--help");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1]).contains("usage: bin/recrawl frontier", "7071", "--bootstrap", "example");
  }

  @Test
  void badArgumentsAreRefusedNamingThem() throws Exception {
    assertThat(run("--nonsense")[1]).contains("unexpected argument '--nonsense'");
    assertThat(run("--port", "x")[0]).isEqualTo("2");
    String[] r = run("--bootstrap", "localhost:1", "--max-in-flight", "0");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[1]).contains("--max-in-flight");
    assertThat(run("--bootstrap", "k:9092", "-Drecrawl.parallelism=2")[1])
        .contains("-D job settings are for the embedded job");
  }
}
