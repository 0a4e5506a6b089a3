package io.recrawl.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.filtering.URLFilters;
import io.recrawl.crawler.LocalCrawl;
import java.net.URL;
import java.util.List;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.junit.jupiter.api.Test;

/** The example as shipped: its configuration, its wiring, its URL filters, its library versions. */
class ExampleCrawlerTest {

  private static Config conf() throws Exception {
    return LocalCrawl.config(List.of("crawler-conf.yaml"));
  }

  @Test
  void theTopologyIsWiredFromTheShippedConfiguration() throws Exception {
    StormTopology t = ExampleCrawler.topology(conf()).createTopology();
    assertTrue(t.get_spouts().containsKey("spout"));
    for (String bolt : List.of("partitioner", "fetch", "parse", "index", "status", "deadletters")) {
      assertTrue(t.get_bolts().containsKey(bolt), bolt);
    }
  }

  @Test
  void outlinksStayOnTheSeedsHostsAndArePages() throws Exception {
    URLFilters filters = URLFilters.fromConf(conf());
    URL from = new URL("http://site.test/index.html");
    Metadata md = new Metadata();
    assertEquals(
        "http://site.test/a.html", filters.filter(from, md, "http://site.test/a.html#top"));
    assertNull(filters.filter(from, md, "http://elsewhere.test/a.html"));
    assertNull(filters.filter(from, md, "http://site.test/logo.png"));
    assertNull(filters.filter(from, md, "mailto:someone@site.test"));
  }

  @Test
  void theLibrariesSharedWithRecrawlAreTheVersionsItIsTestedWith() {
    assertEquals("2.18.2", com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString());
    assertEquals("31.0.1-jre", mavenVersion("com.google.guava", "guava"));
    assertEquals("3.9.1", org.apache.kafka.common.utils.AppInfoParser.getVersion());
  }

  private static String mavenVersion(String group, String artifact) {
    String resource = "/META-INF/maven/" + group + "/" + artifact + "/pom.properties";
    try (var in = ExampleCrawlerTest.class.getResourceAsStream(resource)) {
      assertNotNull(in, resource);
      java.util.Properties p = new java.util.Properties();
      p.load(in);
      return p.getProperty("version");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
