package io.recrawl.flink.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.testutil.RepoFiles;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * The shipped YAML and docs/configuration.md document exactly the keys the code knows, with the
 * same defaults.
 */
class ConfigDocsTest {

  @Test
  void recrawlYamlDocumentsEveryKeyWithItsDefault() throws Exception {
    String yaml = Files.readString(RepoFiles.file("config/recrawl.yaml"));
    assertThat(yaml).contains(ConfigDocs.yaml());
    assertThat(yaml).endsWith(ConfigDocs.engineYaml());
  }

  @Test
  void configurationDocHasTheSameTables() throws Exception {
    String doc = Files.readString(RepoFiles.file("docs/configuration.md"));
    assertThat(doc).contains(ConfigDocs.markdown());
    assertThat(doc).contains(ConfigDocs.engineMarkdown());
  }
}
