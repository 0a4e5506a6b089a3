package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.recrawl.flink.launch.LocalRestore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded frontier stopped and started again from the job's latest checkpoint, as {@code
 * bin/recrawl frontier} restarts: the URLs put before the stop are all handed out after it, none is
 * lost and none comes back as new.
 */
class FrontierRestartITCase {

  @TempDir Path dir;

  @Test
  void aRestartFromTheLatestCheckpointLosesNoUrl() throws Exception {
    Set<String> put = new HashSet<>();
    List<URLItem> items = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      String url = "http://h" + i + ".example/p";
      put.add(url);
      items.add(FrontierClient.discovered(url));
    }
    Set<String> handedOut = new HashSet<>();
    try (EmbeddedFrontier first = new EmbeddedFrontier(dir, Map.of())) {
      FrontierClient client = new FrontierClient(first);
      assertThat(client.put(items)).allMatch(a -> a.getStatus() == AckMessage.Status.OK);
      // Some are handed out and never answered; then a checkpoint holds the job's state.
      for (URLInfo u : client.getSoon(GetParams.newBuilder().setMaxQueues(5).build(), 20_000)) {
        handedOut.add(u.getUrl());
      }
      assertThat(handedOut).isNotEmpty();
      waitForCheckpoint(dir.resolve("job").resolve("checkpoints"));
    }

    try (EmbeddedFrontier second =
        new EmbeddedFrontier(
            dir, Map.of(), latestCheckpoint(dir.resolve("job").resolve("checkpoints")))) {
      FrontierClient client = new FrontierClient(second);
      Set<String> after = new HashSet<>();
      long end = System.currentTimeMillis() + 60_000;
      while (!after.containsAll(put) && System.currentTimeMillis() < end) {
        for (URLInfo u : client.get(GetParams.newBuilder().setDelayRequestable(60).build())) {
          after.add(u.getUrl());
        }
      }
      // Every URL comes back: those never handed out, and those whose lease ran out unanswered.
      assertThat(after).containsAll(put);
    }
  }

  private static void waitForCheckpoint(Path checkpoints) throws Exception {
    long end = System.currentTimeMillis() + 60_000;
    while (latestCheckpoint(checkpoints) == null && System.currentTimeMillis() < end) {
      Thread.sleep(500);
    }
    assertThat(latestCheckpoint(checkpoints)).as("a checkpoint under " + checkpoints).isNotNull();
  }

  private static String latestCheckpoint(Path checkpoints) throws Exception {
    return LocalRestore.newestCheckpoint(checkpoints).map(Path::toString).orElse(null);
  }
}
