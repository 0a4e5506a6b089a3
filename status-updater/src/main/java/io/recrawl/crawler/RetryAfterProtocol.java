package io.recrawl.crawler;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.protocol.Protocol;
import com.digitalpebble.stormcrawler.protocol.ProtocolResponse;
import com.digitalpebble.stormcrawler.util.ConfUtils;
import com.digitalpebble.stormcrawler.util.InitialisationUtil;
import crawlercommons.robots.BaseRobotRules;
import java.net.URL;
import org.apache.storm.Config;

/**
 * A StormCrawler protocol that honours Retry-After, around the protocol that fetches ({@value
 * #DELEGATE}). StormCrawler's fetcher does not: a request that waited in its queue while the host
 * answered 429 or 503 with a Retry-After would be sent inside the block. Here it is not sent; it is
 * answered at once with the host's status and the time left, so the job schedules it again after
 * the block, as it does the request that was refused.
 *
 * <pre>
 * http.protocol.implementation: "io.recrawl.crawler.RetryAfterProtocol"
 * https.protocol.implementation: "io.recrawl.crawler.RetryAfterProtocol"
 * </pre>
 */
public class RetryAfterProtocol implements Protocol {

  public static final String DELEGATE = "recrawl.protocol.implementation";
  public static final String DEFAULT_DELEGATE =
      "com.digitalpebble.stormcrawler.protocol.httpclient.HttpProtocol";
  public static final String MAX_SECONDS = "recrawl.protocol.retry-after.max";

  /** One table per worker, shared by the http and https instances: a block covers the host. */
  private static volatile RetryAfterBlocks blocks;

  private Protocol delegate;
  private RetryAfterBlocks mine;

  @Override
  public void configure(Config conf) {
    String name = ConfUtils.getString(conf, DELEGATE, DEFAULT_DELEGATE);
    if (name.equals(getClass().getName())) {
      throw new IllegalArgumentException(DELEGATE + ": must name the protocol that fetches");
    }
    int maxSeconds = ConfUtils.getInt(conf, MAX_SECONDS, 86_400);
    if (maxSeconds < 0) {
      throw new IllegalArgumentException(MAX_SECONDS + ": must be >= 0, got " + maxSeconds);
    }
    delegate = InitialisationUtil.initializeFromQualifiedName(name, Protocol.class);
    delegate.configure(conf);
    mine = shared(maxSeconds * 1_000L);
  }

  private static synchronized RetryAfterBlocks shared(long maxMillis) {
    if (blocks == null) {
      blocks = new RetryAfterBlocks(maxMillis);
    }
    return blocks;
  }

  @Override
  public ProtocolResponse getProtocolOutput(String url, Metadata metadata) throws Exception {
    String host = new URL(url).getHost();
    long left = mine.remaining(host, System.currentTimeMillis());
    if (left > 0) {
      Metadata answer = new Metadata();
      answer.setValue("retry-after", Long.toString((left + 999) / 1_000));
      answer.setValue("recrawl.retry-after.local", "true");
      return new ProtocolResponse(new byte[0], 429, answer);
    }
    ProtocolResponse response = delegate.getProtocolOutput(url, metadata);
    int code = response.getStatusCode();
    if (code == 429 || code == 503) {
      String retryAfter = retryAfter(response.getMetadata());
      if (retryAfter != null) {
        mine.pushedBack(host, retryAfter, System.currentTimeMillis());
      }
    }
    return response;
  }

  /** The header as the protocols store it: lower-cased by okhttp and httpclient, else as sent. */
  private static String retryAfter(Metadata md) {
    for (String key : md.keySet()) {
      if (key.equalsIgnoreCase("retry-after")) {
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
