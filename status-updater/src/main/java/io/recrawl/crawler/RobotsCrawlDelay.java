package io.recrawl.crawler;

import com.digitalpebble.stormcrawler.protocol.HttpRobotRulesParser;
import com.digitalpebble.stormcrawler.protocol.RobotRules;
import crawlercommons.robots.BaseRobotRules;
import java.net.MalformedURLException;
import java.net.URL;

/**
 * A URL's robots.txt Crawl-delay as StormCrawler 2.4's protocol cached it, read without fetching
 * anything and without touching the cache.
 *
 * <p>StormCrawler 2.4 does not put the crawl-delay in a URL's metadata: the FetcherBolt reads it
 * from {@code protocol.getRobotRules(url)} and only sets its own queue's delay. The rules are kept
 * in {@code RobotRulesParser}'s static cache (key {@code scheme:host:port}, {@code
 * robots.cache.spec}, 6 hours by default), so a status updater in the same worker as the fetcher
 * finds them there: every fetch checks robots.txt first. In another worker the cache is empty and
 * nothing is sent; a crawler deployed that way must add {@code robots.crawl.delay} (seconds) to the
 * metadata itself.
 *
 * <p>Never instantiated: it extends the parser only to read the protected static cache (creating a
 * parser would replace the cache the fetcher fills).
 */
final class RobotsCrawlDelay extends HttpRobotRulesParser {

  private RobotsCrawlDelay() {
    super((org.apache.storm.Config) null); // never called
  }

  /** The crawl-delay in seconds of the cached robots rules for the URL's host, or null. */
  static Double seconds(String url) {
    if (CACHE == null || url == null) {
      return null; // no protocol has read a robots.txt in this worker
    }
    URL u;
    try {
      u = new URL(url);
    } catch (MalformedURLException e) {
      return null;
    }
    RobotRules rules = CACHE.getIfPresent(getCacheKey(u));
    if (rules == null) {
      return null;
    }
    long ms = rules.getCrawlDelay();
    return ms == BaseRobotRules.UNSET_CRAWL_DELAY || ms <= 0 ? null : ms / 1000.0;
  }
}
