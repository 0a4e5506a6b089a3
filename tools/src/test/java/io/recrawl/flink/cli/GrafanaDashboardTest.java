package io.recrawl.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.testutil.RepoFiles;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every metric the Grafana dashboard ({@code config/grafana-dashboard.json}) asks Prometheus for is
 * one the job has: checked against {@code scraped-metric-names.txt}, the names of a scrape of the
 * running job, which {@link PrometheusMetricsITCase} checks are all still served (and writes anew
 * to {@code target/scraped-metric-names.txt}).
 */
class GrafanaDashboardTest {

  static final String SCRAPED = "scraped-metric-names.txt";

  static TreeSet<String> scrapedNames() throws Exception {
    try (InputStream in = GrafanaDashboardTest.class.getResourceAsStream(SCRAPED)) {
      assertThat(in).as(SCRAPED + " on the test classpath").isNotNull();
      TreeSet<String> names = new TreeSet<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          names.add(line.strip());
        }
      }
      return names;
    }
  }

  static DashboardMetrics dashboard() throws Exception {
    return new DashboardMetrics(RepoFiles.file("config/grafana-dashboard.json"));
  }

  @Test
  void everyMetricOfTheDashboardIsOneTheJobServes() throws Exception {
    DashboardMetrics d = dashboard();
    TreeSet<String> scraped = scrapedNames();
    assertThat(scraped).hasSizeGreaterThan(20);
    assertThat(d.allNames()).hasSizeGreaterThanOrEqualTo(12);
    assertThat(scraped).containsAll(d.allNames());
    for (String regex : d.allRegexes()) {
      assertThat(scraped).as("names matching %s", regex).anyMatch(n -> n.matches(regex));
    }
  }

  @Test
  void everyPanelQueriesAtLeastOneMetricAndTheTopicsAreAllThere() throws Exception {
    DashboardMetrics d = dashboard();
    d.expressions.forEach(
        (where, expr) ->
            assertThat(
                    DashboardMetrics.names(expr).size() + DashboardMetrics.nameRegexes(expr).size())
                .as("metrics in %s: %s", where, expr)
                .isPositive());
    assertThat(String.join("\n", d.titles))
        .contains(
            "Requests out per second",
            "Status events in per second, by status",
            "Dead letters per second, by reason",
            "λ_0",
            "λ_i",
            "Due backlog and release lag",
            "Lease expiries",
            "Hosts blocked",
            "URLs and hosts in state",
            "Checkpoint duration and size");
  }

  @Test
  void namesAndNameRegexesAreReadFromPromQl() {
    String expr =
        "sum by (reason) (rate({__name__=~\"flink_a_reason_.+_deadletters\",job_name=~\"$job\"}[5m]))"
            + " + max(flink_b_c{quantile=~\"0.5\"}) / on() flink_d";
    assertThat(DashboardMetrics.names(expr)).containsExactly("flink_b_c", "flink_d");
    assertThat(DashboardMetrics.nameRegexes(expr)).containsExactly("flink_a_reason_.+_deadletters");
    assertThat(
            DashboardMetrics.parse(
                "# HELP x\nflink_x{a=\"1\",b=\"q\\\"\",} 2.5E-9\nflink_y 1.0\nflink_z +Inf\n"))
        .extracting(DashboardMetrics.Sample::name, DashboardMetrics.Sample::value)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("flink_x", 2.5e-9),
            org.assertj.core.groups.Tuple.tuple("flink_y", 1.0),
            org.assertj.core.groups.Tuple.tuple("flink_z", Double.POSITIVE_INFINITY));
    assertThat(DashboardMetrics.parse("flink_x{a=\"1\",b=\"2\",} 3").get(0).labels())
        .isEqualTo(Map.of("a", "1", "b", "2"));
  }
}
