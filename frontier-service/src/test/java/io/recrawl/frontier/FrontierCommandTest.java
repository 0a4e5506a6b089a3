package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FrontierCommandTest {

  static String[] run(String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int rc = FrontierCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8));
    return new String[] {Integer.toString(rc), out.toString(StandardCharsets.UTF_8)};
  }

  @Test
  void helpSaysHowToStartIt() throws Exception {
    String[] r = run("--help");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1]).contains("usage: bin/recrawl frontier", "7071", "--kafka", "example");
  }

  @Test
  void badArgumentsAreRefusedNamingThem() throws Exception {
    assertThat(run("--nonsense")[1]).contains("unexpected argument '--nonsense'");
    String[] r = run("--delay", "0");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[1]).contains("delay");
    assertThat(run("--kafka", "k:9092", "-Drecrawl.parallelism=2")[0]).isEqualTo("2");
  }

  @Test
  void theEmbeddedJobRunsWithWatermarksThatDoNotHoldAReleaseBack() {
    assertThat(FrontierCommand.FLINK_SETTINGS).containsKey("pipeline.auto-watermark-interval");
    assertThat(
            FrontierCommand.jobSettings(
                FrontierSettings.defaults("localhost:9092"), java.nio.file.Path.of("w")))
        .containsEntry("recrawl.output.delivery", "at-least-once")
        .containsEntry("recrawl.watermark.out-of-orderness-ms", 0);
  }
}
