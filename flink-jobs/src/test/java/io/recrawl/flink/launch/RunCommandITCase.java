package io.recrawl.flink.launch;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.testutil.JsonLines;
import io.recrawl.flink.testutil.JvmProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/recrawl run} as a user runs it, in a JVM of its own: Ctrl-C (SIGTERM) stops it with a
 * savepoint, {@code --from-savepoint} starts it again from there, says what came back, and no seed
 * is requested twice.
 */
class RunCommandITCase {

  private static final int SEEDS = 12;

  @TempDir Path dir;

  @Test
  void stopsWithASavepointAndStartsFromItWithoutRequestingASeedTwice() throws Exception {
    List<String> seeds = new ArrayList<>();
    for (int i = 0; i < SEEDS; i++) {
      seeds.add("http://h" + (i % 3) + ".example/page" + i);
    }
    Files.write(dir.resolve("seeds.txt"), seeds);
    Files.createDirectories(dir.resolve("in"));
    Path config =
        Files.writeString(
            dir.resolve("trial.yaml"),
            String.join(
                "\n",
                "recrawl.input.path: " + dir.resolve("in"),
                "recrawl.input.monitor-interval-ms: 500",
                "recrawl.input.seeds: " + dir.resolve("seeds.txt"),
                "recrawl.output.path: " + dir.resolve("out/requests"),
                "recrawl.deadletters.path: " + dir.resolve("out/deadletters"),
                "recrawl.control.tick-interval-ms: 500",
                "recrawl.work-dir: " + dir.resolve("work"),
                "recrawl.parallelism: 2",
                // No status ever comes back here: keep every lease for the test's length.
                "recrawl.engine.lease: 30 d",
                ""));
    Files.writeString(
        dir.resolve("flink-config.yaml"),
        String.join(
            "\n", "execution.checkpointing.interval: 1 s", "restart-strategy.type: none", ""));

    JvmProcess first = JvmProcess.job(dir, "first", "run", "--config", config.toString());
    Map<String, Integer> requested = awaitRequests(first, n -> n == SEEDS);
    assertThat(requested).hasSize(SEEDS);
    String log = first.stop();
    Matcher m = Pattern.compile("stopped with a savepoint in (\\S+)").matcher(log);
    assertThat(m.find()).as("the first run's output:%n%s", log).isTrue();
    String savepoint = m.group(1);
    assertThat(log).contains("--from-savepoint " + savepoint);

    JvmProcess second =
        JvmProcess.job(
            dir, "second", "run", "--config", config.toString(), "--from-savepoint", savepoint);
    String restored = second.awaitLog(l -> restoredPages(l) == SEEDS, Duration.ofMinutes(2));
    assertThat(restored).contains("recrawl run: starting from " + savepoint);
    // Seeds read again, checkpoints taken: a seed already known must not go out again.
    Thread.sleep(5_000);
    second.stop();
    assertThat(requestsByUrl()).hasSize(SEEDS).allSatisfy((url, n) -> assertThat(n).isOne());
  }

  /** The pages the restore lines of every subtask add up to ("restored H hosts and P pages"). */
  private static long restoredPages(String log) {
    Matcher m = Pattern.compile("restored (\\d+) hosts and (\\d+) pages").matcher(log);
    long pages = 0;
    while (m.find()) {
      pages += Long.parseLong(m.group(2));
    }
    return pages;
  }

  private Map<String, Integer> awaitRequests(JvmProcess cli, Predicate<Integer> done)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    Map<String, Integer> byUrl = requestsByUrl();
    while (!done.test(byUrl.size())) {
      assertThat(System.nanoTime())
          .as("requests so far %s; log:%n%s", byUrl, cli.log())
          .isLessThan(deadline);
      assertThat(cli.isAlive()).as("the run ended early:%n%s", cli.log()).isTrue();
      Thread.sleep(500);
      byUrl = requestsByUrl();
    }
    return byUrl;
  }

  private Map<String, Integer> requestsByUrl() {
    Map<String, Integer> byUrl = new TreeMap<>();
    Pattern url = Pattern.compile("\"url\":\"([^\"]+)\"");
    for (String line : JsonLines.readAll(dir.resolve("out/requests"))) {
      Matcher m = url.matcher(line);
      if (m.find()) {
        byUrl.merge(m.group(1), 1, Integer::sum);
      }
    }
    return byUrl;
  }
}
