package io.recrawl.frontier;

import io.recrawl.wire.HostKeys;

/**
 * The service's settings.
 *
 * @param port the gRPC port (URL Frontier's default is 7071)
 * @param bootstrap Kafka's bootstrap servers
 * @param statusTopic where PutURLs writes ({@code recrawl.kafka.topic.status})
 * @param requestsTopic where GetURLs reads ({@code recrawl.kafka.topic.requests})
 * @param controlTopic where SetDelay writes ({@code recrawl.kafka.topic.control})
 * @param groupId the consumer group of the service's instances on the requests topic
 * @param partitionMode the job's host keys ({@code recrawl.partition.mode})
 * @param maxInFlight PutURLs items per stream waiting for Kafka
 * @param getWaitMs how long an empty GetURLs waits for URLs on their way
 * @param defaultDelayRequestable seconds, when a GetURLs leaves delay_requestable at 0
 * @param advertisedAddress what ListNodes answers for this instance
 */
public record FrontierSettings(
    int port,
    String bootstrap,
    String statusTopic,
    String requestsTopic,
    String controlTopic,
    String groupId,
    HostKeys.Mode partitionMode,
    int maxInFlight,
    long getWaitMs,
    int defaultDelayRequestable,
    String advertisedAddress) {

  public static final int DEFAULT_PORT = 7071;

  public FrontierSettings {
    check(port >= 0 && port <= 65535, "--port", "must be a port number, got " + port);
    check(maxInFlight > 0, "--max-in-flight", "must be positive, got " + maxInFlight);
    check(getWaitMs >= 0, "--get-wait-ms", "must not be negative, got " + getWaitMs);
    check(
        defaultDelayRequestable > 0,
        "--delay-requestable",
        "must be positive, got " + defaultDelayRequestable);
    check(bootstrap != null && !bootstrap.isBlank(), "--bootstrap", "must not be empty");
  }

  /** The defaults, against a broker. */
  public static FrontierSettings defaults(String bootstrap, int port) {
    return new FrontierSettings(
        port,
        bootstrap,
        "crawl.status",
        "crawl.requests",
        "crawl.control",
        "recrawl-frontier",
        HostKeys.Mode.BY_HOST,
        1024,
        1000,
        30,
        "localhost:" + port);
  }

  public FrontierSettings withPort(int newPort) {
    return new FrontierSettings(
        newPort,
        bootstrap,
        statusTopic,
        requestsTopic,
        controlTopic,
        groupId,
        partitionMode,
        maxInFlight,
        getWaitMs,
        defaultDelayRequestable,
        "localhost:" + newPort);
  }

  private static void check(boolean ok, String key, String problem) {
    if (!ok) {
      throw new IllegalArgumentException(key + ": " + problem);
    }
  }
}
