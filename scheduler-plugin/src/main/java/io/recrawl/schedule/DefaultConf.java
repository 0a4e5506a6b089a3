package io.recrawl.schedule;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/**
 * A documented default configuration shipped in a jar, as StormCrawler ships its {@code
 * crawler-default.yaml}: a YAML file whose {@code config} map holds every key with its default and
 * what it means. The same file is in the repository's {@code config/} to merge into a topology's
 * {@code crawler-conf.yaml}; a topology's own value of a key overrides the file's.
 */
public final class DefaultConf {

  /** The status updater's, the spout's and PoliteProtocol's keys (module status-updater). */
  public static final String CRAWLER = "crawler-conf-recrawl.yaml";

  /** The keys of the stand-alone {@code CrawlValueScheduler} (module scheduler-plugin). */
  public static final String SCHEDULER = "crawler-conf-scheduler.yaml";

  private DefaultConf() {}

  /** The {@code config} map of a default file on the class path. */
  public static Map<String, Object> load(String resource) {
    try (InputStream in = DefaultConf.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " is not on the class path");
      }
      Map<String, Object> file = new Yaml().load(in);
      @SuppressWarnings("unchecked")
      Map<String, Object> config = (Map<String, Object>) file.get("config");
      if (config == null) {
        throw new IllegalStateException(resource + " has no config map");
      }
      return Map.copyOf(config);
    } catch (IOException e) {
      throw new UncheckedIOException(resource, e);
    }
  }
}
