package io.recrawl.frontier;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** The gRPC server that serves a {@link FrontierService} on a port. */
public final class FrontierServer implements AutoCloseable {

  private final FrontierService service;
  private final Server server;

  private FrontierServer(FrontierService service, Server server) {
    this.service = service;
    this.server = server;
  }

  /** Starts the service and its server; port 0 picks a free one. */
  public static FrontierServer start(FrontierSettings settings) throws java.io.IOException {
    Server server = null;
    FrontierService service = new FrontierService(settings);
    try {
      server =
          NettyServerBuilder.forAddress(new InetSocketAddress(settings.port()))
              .addService(service)
              .build()
              .start();
    } catch (java.io.IOException | RuntimeException e) {
      try {
        service.close();
      } catch (Exception ignored) {
        // the start failure is what matters
      }
      throw e;
    }
    return new FrontierServer(service, server);
  }

  public int port() {
    return server.getPort();
  }

  public FrontierService service() {
    return service;
  }

  @Override
  public void close() throws Exception {
    server.shutdown();
    if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
      server.shutdownNow();
    }
    service.close();
  }
}
