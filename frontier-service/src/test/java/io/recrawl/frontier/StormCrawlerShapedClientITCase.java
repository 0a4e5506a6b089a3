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
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that drives the service as StormCrawler's URL Frontier spout and status updater do:
 * GetURLs with max_urls_per_queue and delay_requestable, then PutURLs of the fetched pages as known
 * items with their fetch metadata and their outlinks as discovered items. In the default mode the
 * job decides when each page goes: a page that changes at every fetch is asked for more often than
 * one that never changes.
 */
class StormCrawlerShapedClientITCase {

  @TempDir Path dir;

  /** Time in seconds, not days: crawl values are then tiny, and so is the price. */
  private static final Map<String, Object> SECONDS =
      Map.of(
          "recrawl.engine.revisit.min-interval", "2 s",
          "recrawl.engine.timer.recheck", "2 s",
          "recrawl.engine.timer.horizon", "5 s",
          "recrawl.global-lambda", 1e-7);

  @Test
  void pagesThatChangeAreAskedForMoreOftenThanPagesThatDoNot() throws Exception {
    try (EmbeddedFrontier frontier = new EmbeddedFrontier(dir, SECONDS)) {
      FrontierClient client = new FrontierClient(frontier);
      List<URLItem> seeds = new ArrayList<>();
      for (String host : List.of("a.example", "b.example")) {
        for (int i = 0; i < 3; i++) {
          seeds.add(FrontierClient.discovered("http://" + host + "/news" + i));
          seeds.add(FrontierClient.discovered("http://" + host + "/static" + i));
        }
      }
      assertThat(client.put(seeds)).allMatch(a -> a.getStatus() == AckMessage.Status.OK);

      Map<String, Integer> fetches = new HashMap<>();
      long end = System.currentTimeMillis() + 75_000;
      while (System.currentTimeMillis() < end) {
        List<URLInfo> batch =
            client.get(
                GetParams.newBuilder().setMaxUrlsPerQueue(2).setDelayRequestable(10).build());
        List<URLItem> answers = new ArrayList<>();
        for (URLInfo u : batch) {
          int n = fetches.merge(u.getUrl(), 1, Integer::sum);
          boolean news = u.getUrl().contains("/news");
          long now = System.currentTimeMillis();
          answers.add(
              FrontierClient.known(
                  u.getUrl(),
                  now / 1000 + 3600,
                  Map.of(
                      "fetch.statusCode",
                      "200",
                      // The news pages are new at every fetch; the static ones never change.
                      "signature",
                      news ? "news-" + n : "static")));
          // Its outlinks, all known already: the bulk of what a crawl sends.
          answers.add(FrontierClient.discovered("http://" + u.getKey() + "/news0"));
          answers.add(FrontierClient.discovered("http://" + u.getKey() + "/static0"));
        }
        if (!answers.isEmpty()) {
          assertThat(client.put(answers)).allMatch(a -> a.getStatus() == AckMessage.Status.OK);
        }
      }
      double news = mean(fetches, "/news");
      double statics = mean(fetches, "/static");
      System.out.printf("fetches per news page %.1f, per static page %.1f%n", news, statics);
      assertThat(news)
          .as("fetches per news page %s, per static page %s: %s", news, statics, fetches)
          .isGreaterThan(1.5 * statics);
    }
  }

  private static double mean(Map<String, Integer> fetches, String kind) {
    return fetches.entrySet().stream()
        .filter(e -> e.getKey().contains(kind))
        .mapToInt(Map.Entry::getValue)
        .average()
        .orElse(0);
  }
}
