package io.recrawl.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A git repository built here, with known commit times, read back as a workload. */
class GitHistoryTest {

  private static final long T0 = 1_700_000_000L; // 2023-11-14T22:13:20Z
  private static final long DAY = 86_400L;

  @TempDir Path repo;
  @TempDir Path out;

  @Test
  void eachFileIsAPageAndEachCommitThatTouchesItAChangeAtItsTime() throws Exception {
    git("init", "-q");
    commit(T0, Map.of("docs/a.md", "a1", "docs/b.md", "b1", "docs/c d.md", "c1"));
    commit(T0 + DAY, Map.of("docs/a.md", "a2"));
    commit(T0 + 3 * DAY + 3600, Map.of("docs/a.md", "a3", "docs/b.md", "b2", "logo.png", "p"));
    Files.delete(repo.resolve("docs/b.md"));
    git("add", "-A");
    commitStaged(T0 + 5 * DAY, "delete b");

    GitHistory.Options o = new GitHistory.Options();
    o.repo = repo;
    o.pathFilter = Pattern.compile("docs/.*\\.md");
    o.urlPrefix = "https://docs.example/";
    o.replaceSuffix = ".md=.html";
    GitHistory h = new GitHistory(o);
    Workload w = h.load();

    assertThat(w.pages()).isEqualTo(3);
    Map<String, Integer> page = new HashMap<>();
    for (int p = 0; p < w.pages(); p++) {
      page.put(w.url(p), p);
    }
    assertThat(page)
        .containsOnlyKeys(
            "https://docs.example/docs/a.html",
            "https://docs.example/docs/b.html",
            "https://docs.example/docs/c%20d.html");
    ChangeHistory c = w.history();
    int a = page.get("https://docs.example/docs/a.html");
    int b = page.get("https://docs.example/docs/b.html");
    int cd = page.get("https://docs.example/docs/c%20d.html");
    assertThat(c.times(a)).containsExactly(0.0, 1.0, 3 + 1 / 24.0);
    assertThat(c.times(b)).containsExactly(0.0, 3 + 1 / 24.0, 5.0);
    assertThat(c.times(cd)).containsExactly(0.0);
    assertThat(w.changeRate(a)).isEqualTo(3 / 5.0);
    assertThat(w.hostName(w.hostOf(a))).isEqualTo("docs.example");
    assertThat(h.summary().commits()).isEqualTo(4);
    assertThat(h.summary().filteredOut()).isEqualTo(1); // logo.png
    assertThat(h.summary().spanDays()).isEqualTo(5.0);

    // Written and read back, the history is the same to the last digit.
    WorkloadWriter.write(w, out);
    Workload back = new WorkloadLoader(Double.POSITIVE_INFINITY).load(out);
    for (int p = 0; p < w.pages(); p++) {
      assertThat(back.history().times(p)).containsExactly(w.history().times(p));
      assertThat(back.changeRate(p)).isEqualTo(w.changeRate(p));
    }
  }

  @Test
  void commitsOfOneInstantAreOneChangeAndTimesThatGoBackAreSorted() throws Exception {
    git("init", "-q");
    commit(T0 + DAY / 2, Map.of("a.md", "a1"));
    commit(T0 + 2 * DAY, Map.of("a.md", "a2"));
    commit(T0 + 2 * DAY, Map.of("a.md", "a3")); // a pull request's commits, rebased and merged
    commit(T0 + 2 * DAY, Map.of("a.md", "a4"));
    commit(T0 + DAY, Map.of("a.md", "a5")); // a committer clock behind the last commit's
    commit(T0 + 4 * DAY, Map.of("a.md", "a6"));
    commit(T0, Map.of("b.md", "b1")); // before the first commit git lists: day 0
    GitHistory.Options o = new GitHistory.Options();
    o.repo = repo;
    GitHistory h = new GitHistory(o);
    Workload w = h.load();
    assertThat(w.history().times(0)).containsExactly(0.5, 1.0, 2.0, 4.0);
    assertThat(w.history().times(1)).containsExactly(0.0);
    assertThat(w.changeRate(0)).isEqualTo(4 / 4.0);
    assertThat(h.summary().touches()).isEqualTo(7);
    assertThat(h.summary().changes()).isEqualTo(5);
    assertThat(h.summary().spanDays()).isEqualTo(4.0);
  }

  @Test
  void aRepositoryWhoseFilesTheFilterLeavesOutIsRefusedWithTheCounts() throws Exception {
    git("init", "-q");
    commit(T0, Map.of("README.txt", "x"));
    GitHistory.Options o = new GitHistory.Options();
    o.repo = repo;
    o.pathFilter = Pattern.compile(".*\\.md");
    assertThatThrownBy(() -> new GitHistory(o).load())
        .isInstanceOf(WorkloadException.class)
        .hasMessageContaining("no file")
        .hasMessageContaining("1 commits, 1 touches left out");
  }

  @Test
  void aDirectoryThatIsNoRepositoryIsAClearError() {
    GitHistory.Options o = new GitHistory.Options();
    o.repo = repo;
    assertThatThrownBy(() -> new GitHistory(o).load())
        .isInstanceOf(WorkloadException.class)
        .hasMessageContaining(repo + " is not a git repository");
  }

  private void commit(long epochSeconds, Map<String, String> files) throws Exception {
    for (Map.Entry<String, String> f : files.entrySet()) {
      Path p = repo.resolve(f.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, f.getValue());
      git("add", f.getKey());
    }
    commitStaged(epochSeconds, "at " + epochSeconds);
  }

  private void commitStaged(long epochSeconds, String message) throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("GIT_AUTHOR_DATE", "@" + epochSeconds + " +0000");
    env.put("GIT_COMMITTER_DATE", "@" + epochSeconds + " +0000");
    run(env, "commit", "-q", "-m", message);
  }

  private void git(String... args) throws Exception {
    run(Map.of(), args);
  }

  private void run(Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "git",
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example",
                "-c",
                "commit.gpgsign=false"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(repo.toFile()).redirectErrorStream(true);
    pb.environment().putAll(env);
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as("git %s: %s", String.join(" ", args), output).isZero();
  }
}
