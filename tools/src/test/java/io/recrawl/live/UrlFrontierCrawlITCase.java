package io.recrawl.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The StormCrawler 2.4 topology of urlfrontier-crawler against {@code bin/recrawl frontier}, priced
 * by the crawler's pull, on a small changing web ({@code bench live --systems recrawl-frontier}):
 * no host gets more than its limit or a request inside a Retry-After as the web server saw it, and
 * the pages that change are fetched more often than those that do not. URL Frontier's own server is
 * the benchmark's peer (docs/benchmarks.md#through-url-frontiers-door), not CI's: CI cannot build
 * it.
 */
class UrlFrontierCrawlITCase {

  @TempDir Path dir;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void theTopologyThroughTheDoorIsPoliteAndFetchesChangingPagesMoreOften() throws Exception {
    LiveBench.Options o = smallWeb();
    o.out = dir.resolve("live");
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    LiveBench.Result r = LiveBench.run(o, new PrintStream(progress, true, StandardCharsets.UTF_8));
    System.out.println(progress.toString(StandardCharsets.UTF_8));
    String why = progress.toString(StandardCharsets.UTF_8) + "\nlogs in " + o.out;
    LiveFigures door = r.figures().get(LiveSystems.RECRAWL_FRONTIER);
    assertThat(door.fetches()).as(why).isPositive();
    assertThat(door.politenessViolations()).as("violations at the server; %s", why).isZero();
    assertThat(door.inRetryAfter()).as("requests inside a Retry-After; %s", why).isZero();
    // The crawler takes up to the budget: a door that holds released URLs back (a late hand-out
    // delaying its queue, a spout dropping a URL it fetched seconds ago) fetches a fraction of it.
    double window = o.web.durationSeconds - o.warmupSeconds;
    assertThat(door.fetches())
        .as("fetches after the warm-up against a budget of %s a second; %s", o.budget, why)
        .isGreaterThanOrEqualTo((long) (0.4 * o.budget * window));

    double[] changingAndStatic = fetchesByChange(o.out, o.warmupSeconds);
    System.out.printf(
        "fetches a page after the warm-up: %.2f of the pages that change most, %.2f of the others%n",
        changingAndStatic[0], changingAndStatic[1]);
    assertThat(changingAndStatic[0])
        .as("fetches a page of the half that changes most against the other half; %s", why)
        .isGreaterThan(changingAndStatic[1]);
  }

  /**
   * The mean fetches a page after the warm-up, of the pages whose change rate is above the median
   * and of the others, from the server's log and the web's truth.
   */
  private static double[] fetchesByChange(Path out, double warmupSeconds) throws IOException {
    Map<String, Double> rate = new HashMap<>();
    List<String> pages = Files.readAllLines(out.resolve("web/pages.csv"));
    for (String line : pages.subList(1, pages.size())) {
      String[] f = line.split(",", -1);
      rate.put(f[0] + f[1], Double.parseDouble(f[3]));
    }
    double median = rate.values().stream().sorted().toList().get(rate.size() / 2);
    Map<String, Integer> fetches = new HashMap<>();
    List<String> log =
        Files.readAllLines(out.resolve("requests-" + LiveSystems.RECRAWL_FRONTIER + ".csv"));
    for (String line : log.subList(1, log.size())) {
      String[] f = line.split(",", -1);
      String page = f[1] + f[2];
      if (Long.parseLong(f[0]) >= warmupSeconds * 1000 && rate.containsKey(page)) {
        fetches.merge(page, 1, Integer::sum);
      }
    }
    double[] sum = new double[2];
    int[] n = new int[2];
    rate.forEach(
        (page, r) -> {
          int half = r > median ? 0 : 1;
          sum[half] += fetches.getOrDefault(page, 0);
          n[half]++;
        });
    return new double[] {sum[0] / n[0], sum[1] / n[1]};
  }

  /**
   * Twenty-four pages on four hosts, one of which pushes back for a spell; weights nearly even and
   * change rates far apart, so that which pages are worth a fetch is a matter of how often they
   * change; a budget of two fetches a second for 90 s. No page changes more than once a simulated
   * day: the budget is 0.4 fetches a page a day, and a page that changes every second is worth no
   * fetch at all, so with faster pages the half that changes most would hold pages that a good
   * scheduler rightly leaves alone.
   */
  private static LiveBench.Options smallWeb() {
    LiveBench.Options o = new LiveBench.Options();
    o.home = Path.of("").toAbsolutePath().getParent();
    o.systems = List.of(LiveSystems.RECRAWL_FRONTIER);
    o.simulate = false;
    o.budget = 2;
    o.startupSeconds = 20;
    o.warmupSeconds = 30;
    o.progressSeconds = 20;
    LiveWebOptions w = o.web;
    w.workload.pages = 24;
    w.workload.hosts = 4;
    w.workload.seed = 5;
    w.workload.weightAlpha = 8;
    w.workload.rateMedian = 0.3;
    w.workload.rateSigma = 3;
    w.workload.rateMax = 1;
    w.secondsPerDay = 5;
    w.durationSeconds = 90;
    w.slowShare = 0;
    w.crawlDelayShare = 0;
    w.pushyShare = 0.25;
    w.spellMinSeconds = 10;
    w.spellMaxSeconds = 20;
    return o;
  }
}
