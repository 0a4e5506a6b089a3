package io.recrawl.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiveServerTest {

  @TempDir Path dir;

  private final LiveWeb web = LiveWeb.generate(LiveWebTest.small(7));

  /**
   * A page of a host with (or without) validators and no spells, and a version v >= 1 that lasts 10
   * s.
   */
  private int[] pageWithALongVersion(boolean validators) {
    for (int p = 0; p < web.workload().pages(); p++) {
      LiveHost host = web.host(web.workload().hostOf(p));
      if (host.validators() != validators || !host.spells().isEmpty() || host.slowMillis() > 0) {
        continue;
      }
      int changes = web.version(p, Long.MAX_VALUE);
      for (int v = 1; v < changes; v++) {
        if (web.versionSince(p, v + 1) - web.versionSince(p, v) > 10_000) {
          return new int[] {p, v};
        }
      }
    }
    throw new AssertionError("no such page in the test web");
  }

  private String host(int page) {
    return web.host(web.workload().hostOf(page)).name();
  }

  @Test
  void aPageServesItsVersionAndA304OnlyForTheCurrentOne() throws Exception {
    int[] pv = pageWithALongVersion(true);
    int p = pv[0];
    int v = pv[1];
    long t0 = System.currentTimeMillis() - (web.versionSince(p, v) + 2_000);
    Path log = dir.resolve("requests.csv");
    try (LiveServer server = web.serve("test", log, t0)) {
      Http.Response page = Http.get(server.port(), host(p) + ":" + server.port(), web.path(p));
      assertThat(page.status()).isEqualTo(200);
      assertThat(page.body()).contains("version " + v).contains("<a href=\"http://h");
      String etag = page.headers().get("etag");
      String lastModified = page.headers().get("last-modified");
      assertThat(etag).isNotNull();
      assertThat(Http.get(server.port(), host(p), web.path(p), "If-None-Match: " + etag).status())
          .isEqualTo(304);
      assertThat(
              Http.get(
                      server.port(),
                      host(p),
                      web.path(p),
                      "If-None-Match: \"" + p + "-" + (v - 1) + "\"")
                  .status())
          .isEqualTo(200);
      boolean alone =
          Math.floorDiv(t0 + web.versionSince(p, v - 1), 1000)
              < Math.floorDiv(t0 + web.versionSince(p, v), 1000);
      assertThat(
              Http.get(server.port(), host(p), web.path(p), "If-Modified-Since: " + lastModified)
                  .status())
          .isEqualTo(alone ? 304 : 200);
      assertThat(
              Http.get(
                      server.port(),
                      host(p),
                      web.path(p),
                      "If-Modified-Since: Thu, 01 Jan 1970 00:00:00 GMT")
                  .status())
          .isEqualTo(200);
    }
    List<String> lines = Files.readAllLines(log);
    assertThat(lines.get(0)).isEqualTo("t_ms,host,path,status,version,retry_after_s");
    assertThat(lines).hasSize(6);
    assertThat(lines.get(1))
        .matches("[0-9]+," + host(p).replace(".", "\\.") + "," + web.path(p) + ",200," + v + ",");
    assertThat(lines.get(2)).endsWith(",304," + v + ",");
  }

  @Test
  void aHostWithoutValidatorsNeverAnswers304() throws Exception {
    int[] pv = pageWithALongVersion(false);
    int p = pv[0];
    long t0 = System.currentTimeMillis() - (web.versionSince(p, pv[1]) + 2_000);
    try (LiveServer server = web.serve("test", dir.resolve("r.csv"), t0)) {
      Http.Response page = Http.get(server.port(), host(p), web.path(p));
      assertThat(page.headers()).doesNotContainKeys("etag", "last-modified");
      assertThat(
              Http.get(
                      server.port(),
                      host(p),
                      web.path(p),
                      "If-Modified-Since: " + page.headers().get("date"),
                      "If-None-Match: \"" + p + "-" + pv[1] + "\"")
                  .status())
          .isEqualTo(200);
    }
  }

  @Test
  void aPushyHostAnswersItsSpellWithARetryAfterThatCoversIt() throws Exception {
    for (int h = 0; h < web.workload().hosts(); h++) {
      LiveHost host = web.host(h);
      if (host.spells().isEmpty()) {
        continue;
      }
      LiveHost.Spell spell = host.spells().get(0);
      long t0 = System.currentTimeMillis() - (spell.startMillis() + 1_000);
      Path log = dir.resolve("spell.csv");
      try (LiveServer server = web.serve("test", log, t0)) {
        Http.Response r = Http.get(server.port(), host.name(), "/p0");
        assertThat(r.status()).isEqualTo(spell.status());
        long retryAfter = Long.parseLong(r.headers().get("retry-after"));
        long now = System.currentTimeMillis() - t0;
        assertThat(now + retryAfter * 1000).isGreaterThanOrEqualTo(spell.endMillis());
        assertThat(retryAfter * 1000)
            .isLessThanOrEqualTo(spell.endMillis() - spell.startMillis() + 1000);
        assertThat(Http.get(server.port(), host.name(), "/robots.txt").status()).isEqualTo(200);
      }
      String[] line = Files.readAllLines(log).get(1).split(",", -1);
      assertThat(line[3]).isEqualTo("" + spell.status());
      assertThat(line[4]).isEqualTo("-1");
      assertThat(line[5]).isNotEmpty();
      return;
    }
    throw new AssertionError("no pushy host in the test web");
  }

  @Test
  void robotsTxtCarriesTheCrawlDelayOfALimitedHost() throws Exception {
    try (LiveServer server = web.serve("test", dir.resolve("r.csv"), System.currentTimeMillis())) {
      int limited = 0;
      for (int h = 0; h < web.workload().hosts(); h++) {
        LiveHost host = web.host(h);
        String robots = Http.get(server.port(), host.name(), "/robots.txt").body();
        if (host.crawlDelaySeconds() > 0) {
          limited++;
          assertThat(robots).contains("Crawl-delay: " + host.crawlDelaySeconds());
        } else {
          assertThat(robots).doesNotContain("Crawl-delay");
        }
      }
      assertThat(limited).isPositive();
    }
  }

  @Test
  void anUnknownHostOrPathIs404AndItsLogLineStillParses() throws Exception {
    Path log = dir.resolve("r.csv");
    try (LiveServer server = web.serve("test", log, System.currentTimeMillis())) {
      assertThat(Http.get(server.port(), "evil,host.example", "/p0").status()).isEqualTo(404);
      assertThat(Http.get(server.port(), "h0.web.test", "/p999999").status()).isEqualTo(404);
      assertThat(Http.get(server.port(), "h0.web.test", "/x,y").status()).isEqualTo(404);
      assertThat(server.requests()).isEqualTo(3);
    }
    for (String line : Files.readAllLines(log)) {
      assertThat(line.split(",", -1)).hasSize(6);
    }
    assertThat(LiveJudge.read(log))
        .hasSize(3)
        .allMatch(r -> r.status() == 404 && r.version() == -1);
  }
}
