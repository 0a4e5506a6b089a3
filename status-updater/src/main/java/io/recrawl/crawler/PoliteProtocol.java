package io.recrawl.crawler;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.protocol.Protocol;
import com.digitalpebble.stormcrawler.protocol.ProtocolResponse;
import com.digitalpebble.stormcrawler.util.ConfUtils;
import com.digitalpebble.stormcrawler.util.InitialisationUtil;
import crawlercommons.robots.BaseRobotRules;
import io.recrawl.schedule.ConfReader;
import io.recrawl.schedule.DefaultConf;
import java.net.URL;
import org.apache.storm.Config;

/**
 * StormCrawler's HTTP protocol ({@value #DELEGATE}) with the host's limits kept where the fetcher
 * loses them. StormCrawler 2.4's fetcher forgets a host's delay when its fetch queue empties, and
 * ignores Retry-After. Here every fetch from a host waits until {@code fetcher.server.delay} (or
 * the robots.txt Crawl-delay, as the fetcher reads it) has passed since the host's last fetch; and
 * a request to a host inside a Retry-After it sent is not sent but answered at once with the host's
 * status and the time left, so that the job schedules it again after the block.
 *
 * <pre>
 * http.protocol.implementation: "io.recrawl.crawler.PoliteProtocol"
 * https.protocol.implementation: "io.recrawl.crawler.PoliteProtocol"
 * </pre>
 */
public class PoliteProtocol implements Protocol {

  public static final String DELEGATE = "recrawl.protocol.implementation";
  public static final String MAX_RETRY_AFTER = "recrawl.protocol.retry-after.max";

  /** Marks an answer given here for a host inside its Retry-After. */
  public static final String LOCAL_ANSWER = "recrawl.retry-after.local";

  /** One of each per worker, shared by the http and https instances: a limit covers the host. */
  private static final RetryAfterBlocks BLOCKS = new RetryAfterBlocks();

  private static final HostSpacing SPACING = new HostSpacing();

  private Protocol delegate;
  private long maxRetryAfterMs;
  private int threadsPerQueue;
  private long serverDelayMs;
  private long maxCrawlDelayMs;
  private boolean serverDelayForce;

  @Override
  public void configure(Config conf) {
    ConfReader own = new ConfReader(conf, DefaultConf.CRAWLER);
    String name = own.string(DELEGATE);
    if (name.equals(getClass().getName())) {
      throw new IllegalArgumentException(DELEGATE + ": must name the protocol that fetches");
    }
    maxRetryAfterMs = own.longInRange(MAX_RETRY_AFTER, 0, Integer.MAX_VALUE) * 1_000L;
    // The fetcher's own keys, read as FetcherBolt reads them.
    threadsPerQueue = ConfUtils.getInt(conf, "fetcher.threads.per.queue", 1);
    serverDelayMs =
        (long)
            (ConfUtils.getFloat(
                    conf,
                    threadsPerQueue > 1 ? "fetcher.server.min.delay" : "fetcher.server.delay",
                    threadsPerQueue > 1 ? 0.0f : 1.0f)
                * 1000);
    maxCrawlDelayMs = ConfUtils.getInt(conf, "fetcher.max.crawl.delay", 30) * 1000L;
    serverDelayForce = ConfUtils.getBoolean(conf, "fetcher.server.delay.force", false);
    delegate = InitialisationUtil.initializeFromQualifiedName(name, Protocol.class);
    delegate.configure(conf);
  }

  @Override
  public ProtocolResponse getProtocolOutput(String url, Metadata metadata) throws Exception {
    URL u = new URL(url);
    String host = u.getHost();
    // A Retry-After speaks for the server that sent it: a host and a port not the default one, as
    // the job keys hosts. The delay between fetches keeps the fetcher's key, the host alone.
    String server =
        u.getPort() == -1 || u.getPort() == u.getDefaultPort() ? host : host + ":" + u.getPort();
    ProtocolResponse blocked = insideRetryAfter(server);
    if (blocked != null) {
      return blocked;
    }
    HostSpacing.Host turn = SPACING.awaitTurn(host, delayMs(url), threadsPerQueue);
    try {
      blocked = insideRetryAfter(server); // it may have pushed back while this one waited
      if (blocked != null) {
        return blocked;
      }
      ProtocolResponse response = delegate.getProtocolOutput(url, metadata);
      int code = response.getStatusCode();
      if (code == 429 || code == 503) {
        String retryAfter = header(response.getMetadata(), "retry-after");
        if (retryAfter != null) {
          BLOCKS.pushedBack(server, retryAfter, System.currentTimeMillis(), maxRetryAfterMs);
        }
      }
      return response;
    } finally {
      SPACING.done(turn);
    }
  }

  /** The answer for a server inside a Retry-After it sent, or null when it is not. */
  private static ProtocolResponse insideRetryAfter(String server) {
    long left = BLOCKS.remaining(server, System.currentTimeMillis());
    if (left <= 0) {
      return null;
    }
    Metadata answer = new Metadata();
    answer.setValue("retry-after", Long.toString((left + 999) / 1_000));
    answer.setValue(LOCAL_ANSWER, "true");
    return new ProtocolResponse(new byte[0], 429, answer);
  }

  /**
   * The delay FetcherBolt would keep for the URL's host: its Crawl-delay, else the server delay.
   */
  private long delayMs(String url) {
    long crawlDelay = delegate.getRobotRules(url).getCrawlDelay();
    if (crawlDelay <= 0) {
      return serverDelayMs;
    }
    if (crawlDelay > maxCrawlDelayMs && maxCrawlDelayMs >= 0) {
      return maxCrawlDelayMs; // the fetcher skips such a host unless told to use the maximum
    }
    return crawlDelay < serverDelayMs && serverDelayForce ? serverDelayMs : crawlDelay;
  }

  /** A header as the protocols store it: lower-cased by okhttp and httpclient, else as sent. */
  private static String header(Metadata md, String name) {
    for (String key : md.keySet()) {
      if (key.equalsIgnoreCase(name)) {
        return md.getFirstValue(key);
      }
    }
    return null;
  }

  @Override
  public BaseRobotRules getRobotRules(String url) {
    return delegate.getRobotRules(url);
  }

  @Override
  public void cleanup() {
    delegate.cleanup();
  }
}
