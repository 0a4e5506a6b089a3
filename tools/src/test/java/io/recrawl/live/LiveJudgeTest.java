package io.recrawl.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.recrawl.flink.testutil.RepoFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiveJudgeTest {

  @TempDir Path dir;

  /** A web's files under {@code dir/name}, one simulated day a second; rows without headers. */
  private void writeWeb(String name, String hosts, String spells, String pages) throws Exception {
    Path web = Files.createDirectories(dir.resolve(name));
    Files.writeString(web.resolve("web.csv"), "key,value\nseconds_per_day,1\n");
    Files.writeString(
        web.resolve("hosts.csv"), "host,limit_ms,crawl_delay_s,validators,slow_ms\n" + hosts);
    Files.writeString(web.resolve("spells.csv"), "host,start_ms,end_ms,status\n" + spells);
    Files.writeString(
        web.resolve("pages.csv"), "host,path,weight,rate_per_day,changes_ms\n" + pages);
  }

  /** Two hosts, three pages, seven requests: every figure worked out by hand below. */
  private Path handMade() throws Exception {
    writeWeb(
        "web",
        "a.web.test,1000,0,true,0\nb.web.test,3000,3,false,0\n",
        "b.web.test,4000,5500,429\n",
        "a.web.test,/p0,1.0,0.5,5000 8000\n"
            + "a.web.test,/p1,3.0,0.1,\n"
            + "b.web.test,/p0,1.0,0.2,2000\n");
    Path log = dir.resolve("requests-x.csv");
    Files.writeString(
        log,
        RequestLog.HEADER
            + "\n"
            + "1000,a.web.test,/p0,200,0,\n"
            + "1500,a.web.test,/p1,200,0,\n"
            + "3000,b.web.test,/robots.txt,200,-1,\n"
            + "3000,b.web.test,/p0,200,1,\n"
            + "4000,b.web.test,/p0,429,-1,2\n"
            // out of order, as a slow answer is logged after a later arrival
            + "6000,a.web.test,/p0,200,1,\n"
            + "5000,b.web.test,/p0,304,1,\n");
    return log;
  }

  @Test
  void freshnessIsTheWeightedTimeEachPageHeldItsCurrentVersion() throws Exception {
    Path log = handMade();
    // a/p0 fresh 1-5 s and 6-8 s; a/p1 (weight 3) from 1.5 s on; b/p0 from 3 s on: of 5 x 10 s.
    LiveFigures all = LiveJudge.judge(dir.resolve("web"), log, "x", 0, 10);
    assertThat(all.freshness()).isCloseTo((4 + 3 * 8.5 + 7 + 2) / 50.0, within(1e-12));
    // Without the heaviest 1 % (one page here, a/p1): the two others, of 2 x 10 s.
    assertThat(all.freshnessLight()).isCloseTo((4 + 7 + 2) / 20.0, within(1e-12));
    assertThat(all.fetches()).isEqualTo(5);
    // After a warm-up of 2 s: 3 + 24 + 7 + 2 of 5 x 8 s, and the three fetches made in it.
    LiveFigures late = LiveJudge.judge(dir.resolve("web"), log, "x", 2, 10);
    assertThat(late.freshness()).isCloseTo(36 / 40.0, within(1e-12));
    assertThat(late.fetches()).isEqualTo(3);
    // The series covers [0, end] in equal buckets: its mean is the whole run's freshness.
    assertThat(all.seriesFreshness()).hasSize(LiveJudge.BUCKETS);
    assertThat(java.util.Arrays.stream(all.seriesFreshness()).average().orElseThrow())
        .isCloseTo(all.freshness(), within(1e-9));
  }

  @Test
  void politenessIsTheGapsTheServerSawAgainstEachHostsLimit() throws Exception {
    LiveFigures f = LiveJudge.judge(dir.resolve("web"), handMade(), "x", 0, 10);
    assertThat(f.requests()).isEqualTo(7);
    // a: 0.5 s where 1 s; b: 1 s twice where 3 s (robots.txt aside).
    assertThat(f.politenessViolations()).isEqualTo(3);
    assertThat(f.underCrawlDelay()).isEqualTo(2);
    assertThat(f.minGapOverLimit()).isCloseTo(1 / 3.0, within(1e-12));
    // The 429 at 4 s asked for 2 s: the request at 5 s came inside it.
    assertThat(f.inRetryAfter()).isEqualTo(1);
    assertThat(f.pushBackAnswers()).isEqualTo(1);
    assertThat(f.notModified()).isEqualTo(1);
  }

  /**
   * A client whose If-Modified-Since is a date of its own (AdaptiveScheduler's setLastModified) can
   * get a 304 for a version it never downloaded: the 304 confirms the copy it holds.
   */
  private Path notModifiedForAVersionNeverDownloaded() throws Exception {
    writeWeb(
        "web304",
        "a.web.test,1000,0,true,0\n",
        "",
        "a.web.test,/p0,1.0,0.5,2000 4000\n" + "a.web.test,/p1,1.0,0.5,\n");
    Path log = dir.resolve("requests-304.csv");
    Files.writeString(
        log,
        RequestLog.HEADER
            + "\n"
            + "1000,a.web.test,/p0,200,0,\n"
            // the server is at version 2; the client still holds version 0
            + "5000,a.web.test,/p0,304,2,\n"
            // a 304 with no 200 before it confirms nothing
            + "6000,a.web.test,/p1,304,0,\n");
    return log;
  }

  @Test
  void aNotModifiedKeepsTheVersionOfTheClientsLast200() throws Exception {
    Path log = notModifiedForAVersionNeverDownloaded();
    LiveFigures f = LiveJudge.judge(dir.resolve("web304"), log, "x", 0, 10);
    // /p0 fresh 1-2 s only (version 0 ended at 2 s); /p1 never: of 2 x 10 s.
    assertThat(f.freshness()).isCloseTo(1 / 20.0, within(1e-12));
    assertThat(f.fetches()).isEqualTo(3);
    assertThat(f.notModified()).isEqualTo(2);
    assertThat(recompute(dir.resolve("web304"), 0, 10, log)).isEqualTo(row(f));
  }

  @Test
  void theScriptInTheRepositoryRecomputesTheSameFiguresFromTheFilesAlone() throws Exception {
    Path log = handMade();
    assertThat(recompute(dir.resolve("web"), 2, 10, log))
        .isEqualTo(row(LiveJudge.judge(dir.resolve("web"), log, "x", 2, 10)));
  }

  @Test
  void onAServedWebTheJudgeAndTheScriptAgree() throws Exception {
    LiveWebOptions o = LiveWebTest.small(11);
    o.secondsPerDay = 0.5;
    o.durationSeconds = 30;
    o.slowMillis = 50;
    LiveWeb web = LiveWeb.generate(o);
    Path truth = dir.resolve("served");
    web.writeGroundTruth(truth);
    Path log = dir.resolve("requests-served.csv");
    SplittableRandom rnd = new SplittableRandom(3);
    try (LiveServer server = web.serve("served", log, System.currentTimeMillis() - 25_000)) {
      for (int i = 0; i < 300; i++) {
        int p = rnd.nextInt(web.workload().pages());
        String host = web.host(web.workload().hostOf(p)).name();
        String path = rnd.nextInt(20) == 0 ? "/robots.txt" : web.path(p);
        List<String> headers = new ArrayList<>();
        if (rnd.nextBoolean()) {
          headers.add("If-None-Match: \"" + p + "-" + rnd.nextInt(3) + "\"");
        }
        Http.get(server.port(), host, path, headers.toArray(String[]::new));
      }
    }
    LiveFigures f = LiveJudge.judge(truth, log, "served", 25, 30);
    assertThat(f.requests()).isEqualTo(300);
    assertThat(f.fetches()).isPositive();
    assertThat(f.freshness()).isBetween(0.0, 1.0);
    assertThat(recompute(truth, 25, 30, log)).isEqualTo(row(f));
  }

  /** The figures as the script prints them. */
  private static List<String> row(LiveFigures f) {
    return List.of(
        String.format(java.util.Locale.ROOT, "%.4f", f.freshness()),
        "" + f.requests(),
        "" + f.fetches(),
        "" + f.politenessViolations(),
        String.format(java.util.Locale.ROOT, "%.3f", f.minGapOverLimit()),
        "" + f.inRetryAfter(),
        "" + f.underCrawlDelay());
  }

  private static List<String> recompute(Path web, double warmup, double end, Path log)
      throws Exception {
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                RepoFiles.file("scripts/LiveRecompute.java").toString(),
                web.toString(),
                "" + warmup,
                "" + end,
                log.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    String[] lines = out.strip().split("\n");
    String[] fields = lines[lines.length - 1].trim().split("\\s+");
    return List.of(fields).subList(1, fields.length);
  }
}
