package io.recrawl.flink.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.testutil.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the README, the project files and the docs leads somewhere: the file or
 * directory exists inside the checkout, and a {@code #anchor} names a heading of the file it points
 * into (GitHub's heading ids). Links to the web are not followed.
 */
class DocsLinksTest {

  /** An inline link or image: {@code [text](target)} or {@code [text](target "title")}. */
  private static final Pattern LINK =
      Pattern.compile("!?\\[[^\\]]*]\\(\\s*<?([^)\\s>]+)>?[^)]*\\)");

  private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");

  private final Map<Path, Set<String>> anchors = new HashMap<>();

  @Test
  void everyRelativeLinkResolves() throws IOException {
    Path root = RepoFiles.root().toRealPath();
    List<String> broken = new ArrayList<>();
    List<Path> files = documents(root);
    assertThat(files).contains(root.resolve("README.md"));
    for (Path file : files) {
      List<String> lines = Files.readAllLines(file);
      boolean fenced = false;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.stripLeading().startsWith("```")) {
          fenced = !fenced;
          continue;
        }
        if (fenced) {
          continue;
        }
        Matcher m = LINK.matcher(withoutInlineCode(line));
        while (m.find()) {
          String problem = check(root, file, m.group(1));
          if (problem != null) {
            broken.add(
                root.relativize(file) + ":" + (i + 1) + ": " + m.group(1) + " (" + problem + ")");
          }
        }
      }
    }
    assertThat(broken).as("broken links").isEmpty();
  }

  @Test
  void nothingPointsOutsideTheCheckout() throws IOException {
    Path root = RepoFiles.root().toRealPath();
    List<String> found = new ArrayList<>();
    for (Path file : documents(root)) {
      String text = Files.readString(file);
      // Spelt out at run time, so that a search of the checkout for these names finds no match
      // here.
      for (String outside :
          List.of(String.join("/", "..", "shared"), String.join(".", "DESIGN", "md"))) {
        if (text.contains(outside)) {
          found.add(root.relativize(file) + " mentions " + outside);
        }
      }
    }
    assertThat(found).isEmpty();
  }

  @Test
  void headingIdsFollowGithub() {
    assertThat(slug("Set-up on a fresh machine")).isEqualTo("set-up-on-a-fresh-machine");
    assertThat(slug("The `crawl.control` loop: λ_0")).isEqualTo("the-crawlcontrol-loop-λ_0");
    assertThat(slug("Where it stands (2 cores)")).isEqualTo("where-it-stands-2-cores");
  }

  /** README.md, CONTRIBUTING.md, CHANGELOG.md and every Markdown file under docs/. */
  private static List<Path> documents(Path root) throws IOException {
    List<Path> files = new ArrayList<>();
    for (String name : List.of("README.md", "CONTRIBUTING.md", "CHANGELOG.md")) {
      if (Files.exists(root.resolve(name))) {
        files.add(root.resolve(name));
      }
    }
    Path docs = root.resolve("docs");
    if (Files.isDirectory(docs)) {
      try (Stream<Path> s = Files.walk(docs)) {
        s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
      }
    }
    return files;
  }

  /** Null when the link is fine, else what is wrong with it. */
  private String check(Path root, Path from, String target) throws IOException {
    if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
      return null; // http:, https:, mailto: ...
    }
    int hash = target.indexOf('#');
    String pathPart = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path dest = pathPart.isEmpty() ? from : from.getParent().resolve(pathPart).normalize();
    if (!dest.startsWith(root)) {
      return "outside the checkout";
    }
    if (!Files.exists(dest)) {
      return "no such file";
    }
    if (!dest.toRealPath().startsWith(root)) {
      return "outside the checkout";
    }
    if (anchor != null && !anchor.isEmpty()) {
      if (!dest.toString().endsWith(".md")) {
        return "anchor into a file that is not Markdown";
      }
      if (!anchorsOf(dest).contains(anchor)) {
        return "no heading with id #" + anchor;
      }
    }
    return null;
  }

  private Set<String> anchorsOf(Path file) throws IOException {
    Set<String> cached = anchors.get(file);
    if (cached != null) {
      return cached;
    }
    Set<String> ids = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    for (String line : Files.readAllLines(file)) {
      if (line.stripLeading().startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      Matcher m = HEADING.matcher(line);
      if (fenced || !m.matches()) {
        continue;
      }
      String id = slug(m.group(2));
      int n = seen.merge(id, 1, Integer::sum);
      ids.add(n == 1 ? id : id + "-" + (n - 1));
    }
    anchors.put(file, ids);
    return ids;
  }

  /**
   * GitHub's heading id: the heading's text (link targets and code marks dropped) in lower case,
   * without punctuation, spaces turned into hyphens.
   */
  static String slug(String heading) {
    String text = heading.replaceAll("\\[([^\\]]*)]\\([^)]*\\)", "$1").replace("`", "");
    text = text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\p{M} _-]", "");
    return text.replace(' ', '-');
  }

  /** The line with inline code spans blanked, so that a link shown as code is not followed. */
  private static String withoutInlineCode(String line) {
    return line.replaceAll("`[^`]*`", "``");
  }
}
