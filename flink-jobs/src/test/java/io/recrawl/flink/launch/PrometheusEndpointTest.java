package io.recrawl.flink.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.flink.config.FlinkSettings;
import io.recrawl.flink.testutil.RepoFiles;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class PrometheusEndpointTest {

  @Test
  void settingsWithoutReportersGetPrometheusOnTheFirstFreePort() throws Exception {
    int first = PrometheusEndpoint.firstFree("9249-9299");
    try (ServerSocket busy = new ServerSocket()) {
      busy.bind(new InetSocketAddress(first));
      Configuration c = new Configuration();
      int port = PrometheusEndpoint.enable(c, first + "-" + (first + 5));
      assertThat(port).isGreaterThan(first).isLessThanOrEqualTo(first + 5);
      assertThat(c.toMap())
          .containsEntry(PrometheusEndpoint.PREFIX + "factory.class", PrometheusEndpoint.FACTORY)
          .containsEntry(PrometheusEndpoint.PREFIX + "port", Integer.toString(port));
      assertThat(PrometheusEndpoint.url(port)).isEqualTo("http://localhost:" + port + "/metrics");
      assertThatThrownBy(() -> PrometheusEndpoint.enable(new Configuration(), "" + first))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("no free port");
    }
  }

  @Test
  void theShippedFlinkSettingsTurnItOnForARangeThatALocalRunNarrowsToOnePort() throws Exception {
    Configuration c = FlinkSettings.load(RepoFiles.file("config/flink-config.yaml"));
    assertThat(c.toMap())
        .containsEntry(PrometheusEndpoint.PREFIX + "factory.class", PrometheusEndpoint.FACTORY)
        .containsEntry(PrometheusEndpoint.PREFIX + "port", "9249-9259");
    int port = PrometheusEndpoint.enable(c, "1-2"); // the settings' range wins
    assertThat(port).isBetween(9249, 9259);
    assertThat(c.toMap()).containsEntry(PrometheusEndpoint.PREFIX + "port", Integer.toString(port));
  }

  @Test
  void otherReportersAreLeftAlone() {
    Configuration c = new Configuration();
    c.setString(
        "metrics.reporter.jmx.factory.class", "org.apache.flink.metrics.jmx.JMXReporterFactory");
    assertThat(PrometheusEndpoint.enable(c, "9249")).isEqualTo(-1);
    assertThat(c.toMap()).doesNotContainKey(PrometheusEndpoint.PREFIX + "factory.class");
    Configuration push = new Configuration();
    push.setString(PrometheusEndpoint.PREFIX + "factory.class", "some.PushGatewayReporterFactory");
    assertThat(PrometheusEndpoint.enable(push, "9249")).isEqualTo(-1);
  }
}
