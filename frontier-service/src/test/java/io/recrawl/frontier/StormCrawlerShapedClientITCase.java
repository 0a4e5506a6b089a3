package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that drives the service as StormCrawler's URL Frontier spout and status updater do:
 * GetURLs with max_urls_per_queue and delay_requestable, a "fetch", PutURLs of the known item with
 * the fetch's metadata ({@code fetch.statusCode}, {@code signature}) and a refetch date, and the
 * page's outlinks as discovered items. In {@code value} mode the job decides when to refetch: pages
 * whose content changes at every fetch are requested more often than pages that never change,
 * although the client asks for the same refetch date for all of them.
 */
class StormCrawlerShapedClientITCase {

  @TempDir Path dir;

  static final int HOSTS = 6;
  static final int PAGES = 4;

  @Test
  @Timeout(180)
  void changingPagesAreRequestedMoreOftenThanUnchangingOnes() throws Exception {
    Map<String, Object> job =
        Map.of(
            "recrawl.engine.revisit.min-interval", "1 s",
            "recrawl.engine.revisit.max-interval", "60 s",
            "recrawl.global-lambda", 1e-7,
            "recrawl.engine.lease", "10 s");
    Map<String, Integer> fetches = new HashMap<>();
    try (EmbeddedFrontier f = EmbeddedFrontier.start(dir, 0, job, 2000);
        FrontierClient client = new FrontierClient(f.port())) {
      List<URLItem> seeds = new ArrayList<>();
      for (int h = 0; h < HOSTS; h++) {
        seeds.add(FrontierClient.discovered(url(h, 0), ""));
      }
      client.put(seeds);
      long end = System.currentTimeMillis() + 60_000;
      while (System.currentTimeMillis() < end) {
        List<URLInfo> batch =
            client.get(
                GetParams.newBuilder().setMaxUrlsPerQueue(2).setDelayRequestable(10).build());
        List<URLItem> statuses = new ArrayList<>();
        long refetchAt = System.currentTimeMillis() / 1000 + 1;
        for (URLInfo u : batch) {
          int n = fetches.merge(u.getUrl(), 1, Integer::sum);
          boolean changes = changes(u.getUrl());
          statuses.add(
              FrontierClient.known(
                  u.getUrl(),
                  "",
                  Map.of(
                      "fetch.statusCode",
                      "200",
                      "signature",
                      changes ? "sig-" + n : "sig-constant"),
                  refetchAt));
          for (int p = 0; p < PAGES; p++) {
            statuses.add(FrontierClient.discovered(host(u.getUrl()) + "/page" + p, ""));
          }
        }
        if (!statuses.isEmpty()) {
          assertThat(client.put(statuses))
              .extracting(AckMessage::getStatus)
              .containsOnly(AckMessage.Status.OK);
        }
      }
    }
    double changing = mean(fetches, true);
    double steady = mean(fetches, false);
    System.out.printf(
        "fetches a page in 60 s: %.2f for pages that change, %.2f for pages that do not (%s)%n",
        changing, steady, fetches);
    assertThat(fetches).hasSize(HOSTS * PAGES);
    assertThat(changing).isGreaterThan(steady * 1.3);
  }

  static String url(int h, int p) {
    return "http://sc" + h + ".test/page" + p;
  }

  static String host(String url) {
    return url.substring(0, url.indexOf('/', "http://".length()));
  }

  /** Odd pages change at every fetch, even pages never. */
  static boolean changes(String url) {
    return (url.charAt(url.length() - 1) - '0') % 2 == 1;
  }

  static double mean(Map<String, Integer> fetches, boolean changing) {
    return fetches.entrySet().stream()
        .filter(e -> changes(e.getKey()) == changing)
        .mapToInt(Map.Entry::getValue)
        .average()
        .orElse(0);
  }
}
