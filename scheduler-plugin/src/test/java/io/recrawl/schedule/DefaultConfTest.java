package io.recrawl.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The documented default file is where a StormCrawler-side key takes its default from. */
class DefaultConfTest {

  @Test
  void anAbsentKeyTakesTheFilesValueAndATopologysValueWins() {
    ConfReader defaults = new ConfReader(Map.of(), DefaultConf.SCHEDULER);
    assertThat(defaults.positive(RevisitSettings.THRESHOLD)).isEqualTo(0.1);
    ConfReader own = new ConfReader(Map.of(RevisitSettings.THRESHOLD, 0.5), DefaultConf.SCHEDULER);
    assertThat(own.positive(RevisitSettings.THRESHOLD)).isEqualTo(0.5);
  }

  @Test
  void aKeyTheFileDoesNotDeclareIsAnErrorNamingItAndTheFile() {
    ConfReader r = new ConfReader(Map.of(), DefaultConf.SCHEDULER);
    assertThatThrownBy(() -> r.string("recrawl.scheduler.no-such-key"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("recrawl.scheduler.no-such-key: not declared in crawler-conf-scheduler.yaml");
  }

  @Test
  void aRequiredKeyHasNoDefault() {
    assertThat(new ConfReader(Map.of(), DefaultConf.SCHEDULER).required("anything")).isNull();
  }
}
