package io.recrawl.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recrawl.sim.policy.Policies;
import io.recrawl.sim.workload.Workload;
import io.recrawl.sim.workload.WorkloadGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulationReportTest {

  @TempDir Path dir;

  @Test
  void writesResultsInTheIssuesShapeAndASelfContainedReport() throws Exception {
    WorkloadGenerator.Options o = new WorkloadGenerator.Options();
    o.pages = 1_000;
    o.hosts = 10;
    Workload w = WorkloadGenerator.generate(o);
    Simulator.Config cfg = SimTestWorkloads.config(w, 200, 6, 2);
    Simulator sim = new Simulator(cfg);
    List<PolicyRun> runs =
        List.of(sim.run(Policies.create("optimal-static")), sim.run(Policies.create("uniform")));
    Reference ref = Reference.compute(cfg);
    SimulationReport report = new SimulationReport(cfg, "test-workload", ref, runs);
    report.writeJson(dir.resolve("results.json"));
    report.writeHtml(dir.resolve("report.html"));

    JsonNode r = new ObjectMapper().readTree(dir.resolve("results.json").toFile());
    assertThat(r.get("workload").get("pages").asInt()).isEqualTo(1_000);
    assertThat(r.get("budget").asDouble()).isEqualTo(200);
    assertThat(r.get("days").asDouble()).isEqualTo(6);
    assertThat(r.get("scenario").asText()).isEqualTo("stationary");
    assertThat(r.get("optimum").get("weighted_freshness").asDouble())
        .isEqualTo(ref.weightedFreshness);
    assertThat(r.get("optimum").has("lambda0")).isTrue();
    JsonNode u = r.get("policies").get("uniform");
    assertThat(u.get("weighted_freshness").asDouble()).isEqualTo(runs.get(1).weightedFreshness);
    assertThat(u.get("ratio_to_optimum").asDouble())
        .isEqualTo(runs.get(1).weightedFreshness / ref.weightedFreshness);
    for (String k : List.of("crawls_per_day", "politeness_violations", "never_crawled")) {
      assertThat(u.has(k)).as(k).isTrue();
    }
    JsonNode series = u.get("series");
    assertThat(series.get("bucket_days").asDouble()).isEqualTo(runs.get(1).bucketDays);
    assertThat(series.get("weighted_freshness").size())
        .isEqualTo(runs.get(1).freshnessSeries.length)
        .isGreaterThan(1);
    assertThat(series.get("crawls_per_day").get(3).asDouble())
        .isEqualTo(runs.get(1).crawlRateSeries[3]);
    assertThat(series.get("lambda0").size()).isEqualTo(runs.get(1).lambda0Series.length);
    // The learning curve: one ratio a day, the day's mean freshness over the optimum's.
    JsonNode curve = u.get("ratio_to_optimum_by_day");
    assertThat(curve.size()).isEqualTo(6);
    double[] f = runs.get(1).freshnessSeries;
    int perDay = (int) Math.round(1 / runs.get(1).bucketDays);
    double day3 = 0;
    for (int b = 3 * perDay; b < 4 * perDay; b++) {
      day3 += f[b] / perDay;
    }
    assertThat(curve.get(3).asDouble())
        .isCloseTo(day3 / ref.weightedFreshness, org.assertj.core.data.Offset.offset(1e-12));

    String html = Files.readString(dir.resolve("report.html"));
    assertThat(html)
        .contains(
            "Weighted freshness over time",
            "Learning curve",
            "Crawl rate against the budget",
            "λ0",
            "Revisit interval");
    assertThat(html).doesNotContain("<script src", "<link", "http://", "https://");
    assertThat(html.split("<svg").length - 1).isEqualTo(5);
  }
}
