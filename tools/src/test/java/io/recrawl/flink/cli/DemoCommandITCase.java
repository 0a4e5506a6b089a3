package io.recrawl.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code recrawl demo}: the real job with the toy crawler in the loop requests every seed and
 * recrawls.
 */
class DemoCommandITCase {

  @TempDir Path dir;

  @Test
  void everySeedIsRequestedAndPagesAreRecrawled() throws Exception {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    Map<String, Integer> requested;
    try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
      requested = DemoCommand.demo(dir, Duration.ofSeconds(45), out);
    }
    assertThat(requested).hasSize(20);
    assertThat(requested.values()).anySatisfy(n -> assertThat(n).isGreaterThan(1));
    assertThat(text.toString(StandardCharsets.UTF_8))
        .contains("request http://host1.example/page1")
        .contains("URLs recrawled")
        // Each request is shown with the reason the decision log gives: first crawls, then recrawls
        // that fell due.
        .contains("why: first_crawl")
        .contains("why: due")
        .contains("why they went: {");
  }
}
