package io.recrawl.crawler.urlfrontier;

import com.digitalpebble.stormcrawler.util.ConfUtils;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.util.Map;

/**
 * Where the URL Frontier server is, read as StormCrawler's URL Frontier module reads it: {@code
 * urlfrontier.address} (host:port), else {@code urlfrontier.host} and {@code urlfrontier.port}
 * (localhost, 7071).
 */
final class FrontierAddress {

  static final String ADDRESS = "urlfrontier.address";
  static final String HOST = "urlfrontier.host";
  static final String PORT = "urlfrontier.port";

  private FrontierAddress() {}

  static String of(Map<String, Object> conf) {
    String address = ConfUtils.getString(conf, ADDRESS);
    if (address != null && !address.isBlank()) {
      return address.strip();
    }
    return ConfUtils.getString(conf, HOST, "localhost") + ":" + ConfUtils.getInt(conf, PORT, 7071);
  }

  /** A plaintext channel to the server. */
  static ManagedChannel channel(Map<String, Object> conf) {
    return NettyChannelBuilder.forTarget(of(conf)).usePlaintext().build();
  }
}
