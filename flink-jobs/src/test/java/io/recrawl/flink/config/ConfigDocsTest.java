package io.recrawl.flink.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.testutil.RepoFiles;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * The shipped YAML and the README document exactly the keys the code knows, with the same defaults.
 */
class ConfigDocsTest {

  @Test
  void recrawlYamlDocumentsEveryKeyWithItsDefault() throws Exception {
    String yaml = Files.readString(RepoFiles.file("config/recrawl.yaml"));
    assertThat(yaml).contains(ConfigDocs.yaml());
    assertThat(yaml).endsWith(ConfigDocs.engineYaml());
  }

  @Test
  void readmeHasTheSameTable() throws Exception {
    String readme = Files.readString(RepoFiles.file("README.md"));
    assertThat(readme).contains(ConfigDocs.markdown());
    assertThat(readme).contains(ConfigDocs.engineMarkdown());
  }
}
