package io.recrawl.flink.io.decisions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recrawl.engine.ReleaseReason;
import io.recrawl.wire.CrawlRequest;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One line of the decision log: a URL released, why, and the prices it was released at. The crawl
 * request carries the value and the threshold; this adds the reason and splits the threshold into
 * the host lambda and the global lambda, so a person can read why this URL went now.
 */
public final class ReleaseDecision {

  private static final ObjectMapper JSON = new ObjectMapper();

  public String url;
  public String host;

  /** Event time of the release, epoch ms. */
  public long time;

  /** {@link ReleaseReason#wireName()}. */
  public String reason;

  /** The page's crawl value V at release. */
  public double value;

  /** θ_i = λ_i + λ_0 at release. */
  public double threshold;

  /** λ_i: the host's politeness price. */
  public double hostLambda;

  /** λ_0: the global budget's price. */
  public double globalLambda;

  /** k_i: the host's rate limit at release, crawls per day, which its host lambda prices. */
  public double hostMaxRate;

  /** When the page fell due, epoch ms; {@link #time} itself for a page sent before its due time. */
  public long due;

  /** When the URL is released again if no status comes back, epoch ms. */
  public long lease;

  public ReleaseDecision() {}

  /**
   * The decision behind {@code request}, under global lambda {@code globalLambda} and host limit
   * {@code hostMaxRate}.
   */
  public static ReleaseDecision of(
      CrawlRequest request, ReleaseReason reason, double globalLambda, double hostMaxRate) {
    ReleaseDecision d = new ReleaseDecision();
    d.url = request.url();
    d.host = request.host();
    d.time = request.time();
    d.reason = reason.wireName();
    d.value = request.value();
    d.threshold = request.threshold();
    d.hostLambda = Math.max(0, request.threshold() - globalLambda);
    d.globalLambda = globalLambda;
    d.hostMaxRate = hostMaxRate;
    d.due = request.due();
    d.lease = request.lease();
    return d;
  }

  /** One JSON object, snake_case keys like the wire format's. */
  public String toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("url", url);
    m.put("host", host);
    m.put("time", time);
    m.put("reason", reason);
    m.put("value", value);
    m.put("threshold", threshold);
    m.put("host_lambda", hostLambda);
    m.put("global_lambda", globalLambda);
    m.put("host_max_rate", hostMaxRate);
    m.put("due", due);
    m.put("lease", lease);
    try {
      return JSON.writeValueAsString(m);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a decision could not be written as JSON", e);
    }
  }
}
