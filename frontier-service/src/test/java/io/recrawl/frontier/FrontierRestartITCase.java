package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded frontier stopped and started again on its work directory: the broker keeps its
 * records, the job resumes from its newest checkpoint, and every URL acknowledged OK before the
 * stop is handed out after it (the ones released but not yet handed out come back at the job's
 * lease).
 */
class FrontierRestartITCase {

  @TempDir Path dir;

  static final Map<String, Object> JOB = Map.of("recrawl.engine.lease", "8 s");

  @Test
  @Timeout(180)
  void aRestartLosesNothing() throws Exception {
    List<String> urls = IntStream.range(0, 8).mapToObj(i -> "http://restart.test/p" + i).toList();
    Set<String> got = new TreeSet<>();
    GetParams params = GetParams.newBuilder().setKey("restart.test").setDelayRequestable(5).build();
    try (EmbeddedFrontier f = EmbeddedFrontier.start(dir, 0, JOB, 500);
        FrontierClient client = new FrontierClient(f.port())) {
      List<URLItem> items = urls.stream().map(u -> FrontierClient.discovered(u, "")).toList();
      assertThat(client.put(items))
          .extracting(AckMessage::getStatus)
          .containsOnly(AckMessage.Status.OK);
      // The host is paced at one URL a second: most are still in the job's state at the stop.
      collect(client, params, got, 2, Duration.ofSeconds(20));
      Thread.sleep(1500); // a checkpoint after the puts
      assertThat(f.restoredFrom()).isEmpty();
    }
    int before = got.size();
    assertThat(before).isBetween(2, 7);
    try (EmbeddedFrontier f = EmbeddedFrontier.start(dir, 0, JOB, 500);
        FrontierClient client = new FrontierClient(f.port())) {
      assertThat(f.restoredFrom()).as("the job resumes from a checkpoint").isPresent();
      collect(client, params, got, urls.size(), Duration.ofSeconds(60));
    }
    assertThat(got).as("URLs handed out before and after the restart").containsAll(urls);
  }

  static void collect(
      FrontierClient client, GetParams params, Set<String> got, int n, Duration max) {
    long deadline = System.nanoTime() + max.toNanos();
    while (got.size() < n && System.nanoTime() < deadline) {
      List<URLInfo> batch = new ArrayList<>(client.get(params));
      got.addAll(batch.stream().map(URLInfo::getUrl).collect(Collectors.toSet()));
    }
  }
}
