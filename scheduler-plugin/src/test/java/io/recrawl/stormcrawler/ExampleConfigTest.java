package io.recrawl.stormcrawler;

import static org.assertj.core.api.Assertions.assertThat;

import com.digitalpebble.stormcrawler.persistence.Scheduler;
import io.recrawl.estimate.ChangeStats;
import io.recrawl.schedule.PageHistory;
import io.recrawl.schedule.RevisitSettings;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

class ExampleConfigTest {

  @SuppressWarnings("unchecked")
  private static Map<String, Object> exampleConf() throws Exception {
    try (Reader r = Files.newBufferedReader(Path.of("../config/crawler-conf-scheduler.yaml"))) {
      Map<String, Object> top = new Yaml().load(r);
      return (Map<String, Object>) top.get("config");
    }
  }

  @Test
  void exampleLoadsThroughStormCrawler() throws Exception {
    assertThat(Scheduler.getInstance(exampleConf())).isInstanceOf(CrawlValueScheduler.class);
  }

  @Test
  void exampleValuesAreTheDefaults() throws Exception {
    RevisitSettings example = RevisitSettings.fromConf(exampleConf());
    RevisitSettings defaults = RevisitSettings.fromConf(Map.of());
    assertThat(example.objective()).isSameAs(defaults.objective());
    assertThat(example.thresholdDays()).isEqualTo(defaults.thresholdDays());
    assertThat(example.minIntervalMinutes()).isEqualTo(defaults.minIntervalMinutes());
    assertThat(example.maxIntervalMinutes()).isEqualTo(defaults.maxIntervalMinutes());
    assertThat(example.weightKey()).isEqualTo(defaults.weightKey());
    assertThat(example.defaultWeight()).isEqualTo(defaults.defaultWeight());
    assertThat(example.fetchErrorMinutes()).isEqualTo(defaults.fetchErrorMinutes());
    assertThat(example.maxFetchErrors()).isEqualTo(defaults.maxFetchErrors());
    assertThat(example.errorRetryMinutes()).isEqualTo(defaults.errorRetryMinutes());
    assertThat(example.protocolPrefix()).isEqualTo(defaults.protocolPrefix());
    assertThat(example.setLastModified()).isEqualTo(defaults.setLastModified());
    assertThat(example.lastModifiedTiming()).isEqualTo(defaults.lastModifiedTiming());
    // Same prior, same forgetting.
    assertThat(example.estimator().prior()).isEqualTo(defaults.estimator().prior());
    ChangeStats big = new ChangeStats(1000, 500);
    assertThat(example.estimator().observe(big, 1, true))
        .isEqualTo(defaults.estimator().observe(big, 1, true));
  }

  @Test
  void everyHistoryKeyIsPersisted() throws Exception {
    assertThat((Iterable<Object>) exampleConf().get("metadata.persist"))
        .map(Object::toString)
        .contains(
            PageHistory.SHAPE,
            PageHistory.RATE,
            PageHistory.LAST_FETCH,
            PageHistory.ERRORS,
            PageHistory.ETAG,
            PageHistory.SIGNATURE,
            "signature",
            "last-modified");
  }
}
