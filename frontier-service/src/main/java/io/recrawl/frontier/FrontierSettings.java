package io.recrawl.frontier;

import io.recrawl.wire.HostKeys;
import java.util.Map;

/**
 * The service's settings.
 *
 * @param port the gRPC port (URL Frontier's default is 7071)
 * @param bootstrapServers the Kafka brokers the job reads and writes
 * @param statusTopic where status events go (the job's {@code recrawl.kafka.topic.status})
 * @param requestsTopic where the job's crawl requests come from ({@code
 *     recrawl.kafka.topic.requests})
 * @param controlTopic where host-rate overrides and queries go ({@code
 *     recrawl.kafka.topic.control})
 * @param answersTopic where the job answers queries ({@code recrawl.kafka.topic.answers})
 * @param groupId the consumer group of the requests: the instances of one frontier share it, each
 *     handing out its share of the partitions, so that no request is handed out twice
 * @param partitionMode how URLs are keyed to hosts, as the job keys them
 * @param defaultDelaySeconds the delay a {@code GetURLs} with {@code delay_requestable} 0 gets:
 *     keep it equal to the job's {@code recrawl.engine.lease}, after which the job releases an
 *     unanswered URL again
 * @param getWaitMs how long a {@code GetURLs} that finds nothing waits for URLs on their way
 * @param putsInFlight how many items of one {@code PutURLs} stream may wait for Kafka at once
 * @param queryTimeoutMs how long a query waits for the job's answer
 * @param mode how refetch dates are decided in a crawl not named in {@code crawlModes}
 * @param crawlModes the mode of each crawl that does not take {@code mode}
 * @param pricing who prices the budget: the job's own settings, or the crawler's pull
 * @param pullPeriodMs how often the pull sets the budget ({@link Pricing#PULL})
 * @param pullInitialPerSecond the pull's budget before its first evidence, URLs a second
 */
public record FrontierSettings(
    int port,
    String bootstrapServers,
    String statusTopic,
    String requestsTopic,
    String controlTopic,
    String answersTopic,
    String groupId,
    HostKeys.Mode partitionMode,
    int defaultDelaySeconds,
    long getWaitMs,
    int putsInFlight,
    long queryTimeoutMs,
    RefetchMode mode,
    Map<String, RefetchMode> crawlModes,
    Pricing pricing,
    long pullPeriodMs,
    double pullInitialPerSecond) {

  public static final int DEFAULT_PORT = 7071;

  /** Who decides when a page is fetched again. */
  public enum RefetchMode {
    /** The job, by crawl value; a client's date is read as a wish. */
    VALUE,
    /** The client: its refetch date is kept, as URL Frontier's own server does. */
    CLIENT
  }

  /** Who prices the crawl's budget. */
  public enum Pricing {
    /** The job's own settings: a fixed global lambda, or a fixed budget its controller prices. */
    JOB,
    /** The crawler's pull sets the budget that the job's controller prices ({@link PullBudget}). */
    PULL
  }

  public FrontierSettings {
    require(port >= 0 && port <= 65535, "port", "must be within [0, 65535]");
    require(bootstrapServers != null && !bootstrapServers.isBlank(), "kafka", "must be set");
    require(defaultDelaySeconds > 0, "delay", "must be > 0 seconds");
    require(getWaitMs >= 0, "get-wait-ms", "must be >= 0");
    require(putsInFlight > 0, "puts-in-flight", "must be > 0");
    require(queryTimeoutMs > 0, "query-timeout-ms", "must be > 0");
    require(mode != null, "mode", "must be value or client");
    require(pricing != null, "price", "must be pull, fixed or budget");
    require(pullPeriodMs > 0, "pull-period-ms", "must be > 0");
    require(pullInitialPerSecond > 0, "pull-initial", "must be > 0 URLs a second");
    crawlModes = Map.copyOf(crawlModes);
  }

  /** The defaults, against the brokers at {@code bootstrapServers}. */
  public static FrontierSettings defaults(String bootstrapServers) {
    return new FrontierSettings(
        DEFAULT_PORT,
        bootstrapServers,
        "crawl.status",
        "crawl.requests",
        "crawl.control",
        "crawl.answers",
        "recrawl-frontier",
        HostKeys.Mode.BY_HOST,
        30,
        1_000,
        1_000,
        10_000,
        RefetchMode.VALUE,
        Map.of(),
        Pricing.JOB,
        10_000,
        1.0);
  }

  /** The mode of {@code crawl}. */
  public RefetchMode modeOf(String crawl) {
    return crawlModes.getOrDefault(crawl, mode);
  }

  public FrontierSettings withPort(int p) {
    return new FrontierSettings(
        p,
        bootstrapServers,
        statusTopic,
        requestsTopic,
        controlTopic,
        answersTopic,
        groupId,
        partitionMode,
        defaultDelaySeconds,
        getWaitMs,
        putsInFlight,
        queryTimeoutMs,
        mode,
        crawlModes,
        pricing,
        pullPeriodMs,
        pullInitialPerSecond);
  }

  public FrontierSettings withDefaultDelaySeconds(int seconds) {
    return new FrontierSettings(
        port,
        bootstrapServers,
        statusTopic,
        requestsTopic,
        controlTopic,
        answersTopic,
        groupId,
        partitionMode,
        seconds,
        getWaitMs,
        putsInFlight,
        queryTimeoutMs,
        mode,
        crawlModes,
        pricing,
        pullPeriodMs,
        pullInitialPerSecond);
  }

  public FrontierSettings withModes(RefetchMode defaultMode, Map<String, RefetchMode> byCrawl) {
    return new FrontierSettings(
        port,
        bootstrapServers,
        statusTopic,
        requestsTopic,
        controlTopic,
        answersTopic,
        groupId,
        partitionMode,
        defaultDelaySeconds,
        getWaitMs,
        putsInFlight,
        queryTimeoutMs,
        defaultMode,
        byCrawl,
        pricing,
        pullPeriodMs,
        pullInitialPerSecond);
  }

  public FrontierSettings withPricing(Pricing p, long periodMs, double initialPerSecond) {
    return new FrontierSettings(
        port,
        bootstrapServers,
        statusTopic,
        requestsTopic,
        controlTopic,
        answersTopic,
        groupId,
        partitionMode,
        defaultDelaySeconds,
        getWaitMs,
        putsInFlight,
        queryTimeoutMs,
        mode,
        crawlModes,
        p,
        periodMs,
        initialPerSecond);
  }

  private static void require(boolean ok, String option, String why) {
    if (!ok) {
      throw new IllegalArgumentException("--" + option + ": " + why);
    }
  }
}
