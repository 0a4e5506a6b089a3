package io.recrawl.flink.io.control;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.Parsed;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ControlSourcesTest {

  private static final long NOW = 1_800_000_000_000L;

  private static Parsed<ControlMessage> override(String mode, String host) {
    RecrawlConfig config = RecrawlConfig.fromMap(Map.of("recrawl.partition.mode", mode));
    return ControlSources.codec(config)
        .parse(
            "{\"type\":\"host_rate\",\"time\":1,\"host\":\"" + host + "\",\"max_rate\":24}", NOW);
  }

  @Test
  void hostRateOverrideUsesTheStatusKeyOfTheJobsPartitionMode() {
    assertThat(override("byDomain", "www.example.com").value().host()).isEqualTo("example.com");
    assertThat(override("byDomain", "news.bbc.co.uk:8080").value().host()).isEqualTo("bbc.co.uk");
    assertThat(override("byHost", "www.example.com").value().host()).isEqualTo("www.example.com");
    assertThat(override("byHost", "example.com:80").value().host()).isEqualTo("example.com");
  }

  @Test
  void anOverrideWhoseHostCannotBeKeyedIsADeadLetterWithAReason() {
    assertThat(override("byDomain", "exa mple.com").deadLetter().reason()).isEqualTo("bad_host");
  }
}
