package io.recrawl.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.testutil.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md walks the code file by file: every source file it names ({@code
 * `flink/scheduler/HostSchedulerFunction.java`}, relative to a module's {@code
 * src/main/java/io/recrawl/}) must exist, so that a move or a rename shows on the page.
 */
class ArchitecturePageTest {

  private static final Pattern JAVA_FILE = Pattern.compile("`([A-Za-z0-9_/]+\\.java)`");

  @Test
  void everyFileThePageNamesExists() throws IOException {
    Path root = RepoFiles.root();
    String page = Files.readString(root.resolve("docs/architecture.md"));
    Set<String> named = new LinkedHashSet<>();
    Matcher m = JAVA_FILE.matcher(page);
    while (m.find()) {
      named.add(m.group(1));
    }
    assertThat(named).as("the page walks the code by its files").hasSizeGreaterThan(20);

    List<Path> sourceRoots = new ArrayList<>();
    for (Path module : Modules.withMainSources()) {
      sourceRoots.add(module.resolve("src/main/java/io/recrawl"));
    }
    List<String> missing = new ArrayList<>();
    for (String file : named) {
      if (sourceRoots.stream().noneMatch(r -> Files.isRegularFile(r.resolve(file)))) {
        missing.add(file);
      }
    }
    assertThat(missing).as("files docs/architecture.md names that no module holds").isEmpty();
  }
}
