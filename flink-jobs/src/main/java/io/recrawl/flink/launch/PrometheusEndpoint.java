package io.recrawl.flink.launch;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Map;
import org.apache.flink.configuration.Configuration;

/**
 * The Prometheus metrics reporter of the local MiniCluster of {@code bin/recrawl run} and {@code
 * bin/recrawl demo}: Flink's own ({@code flink-metrics-prometheus}), serving every metric of the
 * job at {@code http://localhost:PORT/metrics}.
 *
 * <p>A MiniCluster runs its JobManager and TaskManagers in one JVM with one metric registry, so it
 * has one reporter and one port. A port range (as on a cluster, where each JobManager and
 * TaskManager process on a host takes the next free port of it) is narrowed here to its first free
 * port, so that the address printed is the one served.
 */
public final class PrometheusEndpoint {

  /** The reporter's name in the Flink settings: keys {@code metrics.reporter.prom.*}. */
  public static final String PREFIX = "metrics.reporter.prom.";

  public static final String FACTORY =
      "org.apache.flink.metrics.prometheus.PrometheusReporterFactory";

  /** The ports tried when the settings name none: Flink's default port and the ten after it. */
  public static final String DEFAULT_PORTS = "9249-9259";

  private PrometheusEndpoint() {}

  /**
   * Turns the reporter on in {@code flink} on the first free port of {@code ports} (a port or a
   * range {@code A-B}), unless the settings configure reporters of their own; a port range the
   * settings give to this reporter is narrowed the same way.
   *
   * @return the port served, or -1 if the settings configure other reporters, or this one is off
   * @throws IllegalStateException if no port of the range is free
   */
  public static int enable(Configuration flink, String ports) {
    Map<String, String> all = flink.toMap();
    boolean ours = all.containsKey(PREFIX + "factory.class");
    boolean others =
        all.keySet().stream()
            .anyMatch(k -> k.startsWith("metrics.reporter.") && !k.startsWith(PREFIX));
    if (others && !ours) {
      return -1;
    }
    if (ours && !FACTORY.equals(all.get(PREFIX + "factory.class"))) {
      return -1; // e.g. the push-gateway reporter: nothing served here
    }
    String range = all.getOrDefault(PREFIX + "port", ports);
    int port = firstFree(range);
    flink.setString(PREFIX + "factory.class", FACTORY);
    flink.setString(PREFIX + "port", Integer.toString(port));
    return port;
  }

  /** Where Prometheus scrapes the job on {@code port}. */
  public static String url(int port) {
    return "http://localhost:" + port + "/metrics";
  }

  /** The first port of {@code range} ({@code N} or {@code A-B}) nothing listens on. */
  public static int firstFree(String range) {
    String r = range.strip();
    int dash = r.indexOf('-');
    int from = Integer.parseInt((dash < 0 ? r : r.substring(0, dash)).strip());
    int to = dash < 0 ? from : Integer.parseInt(r.substring(dash + 1).strip());
    for (int p = from; p <= to; p++) {
      // The reporter binds the wildcard address: check the same.
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress(p));
        return p;
      } catch (IOException busy) {
        // try the next one
      }
    }
    throw new IllegalStateException(
        "no free port for the Prometheus reporter in " + range + " (" + PREFIX + "port)");
  }
}
