package io.recrawl.frontier;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** The URL Frontier service on its gRPC port, with its Kafka clients. */
public final class FrontierServer implements AutoCloseable {

  private final ReleasedUrls released = new ReleasedUrls();
  private final CrawlTopics topics;
  private final JobQueries queries;
  private final ControlFollower follower;
  private final FrontierService service;
  private final PullPricing pricing;
  private final Server server;

  private FrontierServer(FrontierSettings settings) throws IOException {
    this.topics = new CrawlTopics(settings, r -> released.released(r, System.currentTimeMillis()));
    Server s = null;
    JobQueries q = null;
    ControlFollower f = null;
    try {
      q = new JobQueries(settings, topics.producer());
      f = new ControlFollower(settings, released, q);
      String node = InetAddress.getLocalHost().getHostName() + ":" + settings.port();
      this.service = new FrontierService(settings, released, topics, q, node);
      s =
          NettyServerBuilder.forAddress(new InetSocketAddress(settings.port()))
              .addService(service)
              .build()
              .start();
    } catch (IOException | RuntimeException e) {
      if (f != null) {
        f.close();
      }
      if (q != null) {
        q.close();
      }
      topics.close();
      throw e;
    }
    this.queries = q;
    this.follower = f;
    this.server = s;
    this.pricing =
        settings.pricing() == FrontierSettings.Pricing.PULL
            ? new PullPricing(
                released, topics, settings.pullInitialPerSecond(), settings.pullPeriodMs())
            : null;
  }

  /** Starts the service; {@code settings.port()} 0 takes a free port. */
  public static FrontierServer start(FrontierSettings settings) throws IOException {
    return new FrontierServer(settings);
  }

  /** The port it listens on. */
  public int port() {
    return server.getPort();
  }

  /** Requests released by the job and not taken yet. */
  public int waiting() {
    return released.waiting();
  }

  /** Whether this instance holds queue {@code host} blocked now. */
  public boolean blocks(String host) {
    return released.blocked(host, System.currentTimeMillis());
  }

  public FrontierService service() {
    return service;
  }

  /** The budget the crawler's pull sets, URLs a second; NaN when the job prices the crawl. */
  public double pullBudget() {
    return pricing == null ? Double.NaN : pricing.perSecond();
  }

  /** Blocks until the server stops. */
  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdown();
    if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
      server.shutdownNow();
    }
    if (pricing != null) {
      pricing.close();
    }
    follower.close();
    queries.close();
    topics.close();
  }
}
