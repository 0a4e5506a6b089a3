package io.recrawl.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.testutil.CrawlRequests;
import io.recrawl.flink.testutil.JvmProcess;
import io.recrawl.flink.testutil.RepoFiles;
import io.recrawl.flink.testutil.StaticSite;
import io.recrawl.flink.testutil.TrialKafka;
import io.recrawl.testutil.EmbeddedKafka;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/first-crawl.md, run as a user runs it: {@code bin/recrawl kafka}'s broker, a site of files
 * of which some change every 20 s, {@code bin/recrawl run} with the page's own configuration block,
 * and the example crawler in a Storm LocalCluster. With nothing tuned but what the page sets, the
 * pages that change are requested more often than those that never do, and no host gets more than
 * one request a second.
 */
class FirstCrawlITCase {

  private static final Duration CRAWL = Duration.ofMinutes(3);
  private static final int NEWS = 4;
  private static final int STATIC = 4;

  @TempDir Path dir;

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void pagesThatChangeAreRequestedMoreOftenThanPagesThatDoNot() throws Exception {
    Path example = RepoFiles.root().resolve("examples/crawler");
    assertThat(example.resolve("target/classpath.txt"))
        .as("the example crawler is built before tools (mvn verify from the root)")
        .exists();
    Path siteDir = Files.createDirectories(dir.resolve("site"));
    writeSite(siteDir);
    ScheduledExecutorService news = Executors.newSingleThreadScheduledExecutor();
    try (TrialKafka kafka = TrialKafka.start(dir.resolve("kafka"));
        StaticSite site = new StaticSite(siteDir)) {
      String bootstrap = kafka.bootstrap();
      news.scheduleAtFixedRate(() -> rewriteNews(siteDir), 20, 20, TimeUnit.SECONDS);
      Files.writeString(dir.resolve("seeds.txt"), site.base() + "/index.html\n");
      Path trial =
          Files.writeString(
              dir.resolve("trial.yaml"),
              trialConfiguration()
                  .replace("/tmp/trial", dir.toString())
                  .replace("127.0.0.1:9092", bootstrap));
      JvmProcess job = JvmProcess.job(dir, "job", "run", "--config", trial.toString());
      Path crawlerConf =
          Files.writeString(
              dir.resolve("crawler-local.yaml"),
              "config:\n  recrawl.kafka.bootstrap.servers: \"" + bootstrap + "\"\n");
      // The documented command, as from nohup (no input), with a hosts file in its JVM options.
      Path hosts =
          Files.writeString(
              dir.resolve("hosts"),
              "127.0.0.1 localhost " + java.net.InetAddress.getLocalHost().getHostName() + "\n");
      try (JvmProcess crawler =
          JvmProcess.command(
              dir,
              "crawler",
              Map.of("JAVA_OPTS", "-Xmx1g -Djdk.net.hosts.file=" + hosts),
              example.resolve("crawl-local").toString(),
              example.resolve("crawler-conf.yaml").toString(),
              crawlerConf.toString())) {
        job.awaitLog(l -> l.contains("running; Ctrl-C stops it"), Duration.ofMinutes(2));
        crawler.awaitLog(l -> l.contains("recrawl-local-crawl: submitted"), Duration.ofMinutes(2));
        Thread.sleep(CRAWL.toMillis());
        assertThat(job.isAlive()).as("job log:%n%s", job.log()).isTrue();
        assertThat(crawler.isAlive()).as("crawler log:%n%s", crawler.log()).isTrue();
        assertThat(crawler.stop()).contains("example-crawler: stopped: the JVM was asked to stop");
      } finally {
        job.stop();
      }
      List<CrawlRequest> requests =
          committed(bootstrap, "crawl.requests").stream()
              .map(v -> CrawlRequestCodec.parse(v, 0).value())
              .toList();
      Map<String, Long> byPage =
          requests.stream()
              .collect(
                  Collectors.groupingBy(
                      r -> r.url().substring(site.base().length() + 1),
                      TreeMap::new,
                      Collectors.counting()));
      // Why each went, at what value and price: the first thing to read when this fails.
      String decisions =
          committed(bootstrap, "crawl.decisions").stream()
              .map(d -> d.replace(site.base(), ""))
              .collect(Collectors.joining("\n"));
      System.out.println("FirstCrawlITCase: requests by page " + byPage);
      double newsMean = mean(byPage, "news");
      double staticMean = mean(byPage, "static");
      assertThat(byPage.keySet())
          .as("every page requested; requests by page: %s", byPage)
          .hasSize(1 + NEWS + STATIC);
      assertThat(newsMean)
          .as("requests by page: %s; decisions:%n%s", byPage, decisions)
          .isGreaterThan(1.5 * staticMean);
      // One request a second at most per host, the default host limit, on the committed output.
      CrawlRequests.assertSpacedPerHost(requests, 1_000);
      assertThat(committed(bootstrap, "crawl.deadletters")).isEmpty();
    } finally {
      news.shutdownNow();
    }
  }

  /** The configuration block of docs/first-crawl.md, between its heredoc's markers. */
  static String trialConfiguration() throws Exception {
    String page = Files.readString(RepoFiles.file("docs/first-crawl.md"));
    String start = "cat > /tmp/trial/trial.yaml <<'YAML'\n";
    int from = page.indexOf(start);
    assertThat(from).as("the trial block in docs/first-crawl.md").isPositive();
    int to = page.indexOf("\nYAML\n", from);
    return page.substring(from + start.length(), to + 1);
  }

  /** The site of docs/first-crawl.md, step 3. */
  private static void writeSite(Path site) throws Exception {
    StringBuilder links = new StringBuilder();
    for (int i = 1; i <= STATIC; i++) {
      Files.writeString(
          site.resolve("static" + i + ".html"),
          "<html><body>static " + i + " <a href=index.html>home</a></body></html>\n");
      links.append("<a href=news" + i + ".html>news " + i + "</a> ");
      links.append("<a href=static" + i + ".html>static " + i + "</a> ");
    }
    Files.writeString(
        site.resolve("index.html"),
        "<html><head><title>trial</title></head><body>" + links + "</body></html>\n");
    rewriteNews(site);
  }

  private static void rewriteNews(Path site) {
    try {
      for (int i = 1; i <= NEWS; i++) {
        Files.writeString(
            site.resolve("news" + i + ".html"),
            "<html><body>news "
                + i
                + " at "
                + System.currentTimeMillis()
                + " <a href=index.html>home</a></body></html>\n");
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static double mean(Map<String, Long> byPage, String prefix) {
    return byPage.entrySet().stream()
        .filter(e -> e.getKey().startsWith(prefix))
        .mapToLong(Map.Entry::getValue)
        .average()
        .orElse(0);
  }

  private static List<String> committed(String bootstrap, String topic) {
    return EmbeddedKafka.committed(bootstrap, topic);
  }
}
