package io.recrawl.sim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTest {

  @TempDir Path dir;

  private int run(String... args) throws Exception {
    PrintStream old = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      return SimulateCommand.run(args);
    } finally {
      System.setErr(old);
      stderr = err.toString(StandardCharsets.UTF_8);
    }
  }

  private String stderr;

  @Test
  void aMalformedWorkloadStopsTheRunWithFileAndLine() throws Exception {
    Path w = dir.resolve("w");
    Files.createDirectories(w);
    Files.writeString(w.resolve("pages.csv"), "url,host,weight,change_rate\nu1,h,1,1\nu2,h,-1,1\n");
    Path out = dir.resolve("results.json");
    int rc =
        run("--workload", w.toString(), "--budget", "10", "--days", "2", "--out", out.toString());
    assertThat(rc).isEqualTo(1);
    assertThat(stderr)
        .contains(
            "refusing to start", w.resolve("pages.csv") + ":3: weight must be a finite number > 0");
    assertThat(out).doesNotExist();
  }

  @Test
  void badOptionsAreRefusedBeforeAnythingRuns() throws Exception {
    assertThat(
            run(
                "--workload",
                "x",
                "--budget",
                "10",
                "--days",
                "2",
                "--out",
                "r.json",
                "--polcy",
                "uniform"))
        .isEqualTo(2);
    assertThat(stderr).contains("unknown option --polcy");
    assertThat(
            run(
                "--workload",
                "x",
                "--budget",
                "10",
                "--days",
                "2",
                "--out",
                "r.json",
                "--policy",
                "nope"))
        .isEqualTo(2);
    assertThat(stderr).contains("unknown policy 'nope'");
    assertThat(
            run(
                "--workload",
                "x",
                "--budget",
                "10",
                "--days",
                "2",
                "--out",
                "r.json",
                "--engine",
                "no.such.key=1"))
        .isEqualTo(2);
    assertThat(stderr).contains("no.such.key");
  }

  @Test
  void generatesAWorkloadAndSimulatesIt() throws Exception {
    Path w = dir.resolve("gen");
    assertThat(
            WorkloadCommand.run(
                new String[] {
                  "generate",
                  "--pages",
                  "500",
                  "--hosts",
                  "10",
                  "--seed",
                  "3",
                  "--out",
                  w.toString()
                }))
        .isZero();
    Path out = dir.resolve("r.json");
    Path html = dir.resolve("r.html");
    int rc =
        run(
            "--workload",
            w.toString(),
            "--budget",
            "0.2x",
            "--days",
            "4",
            "--scenario",
            "capacity-drop",
            "--policy",
            "uniform",
            "crawl-value",
            "--out",
            out.toString(),
            "--report",
            html.toString());
    assertThat(rc).as(stderr).isZero();
    JsonNode r = new ObjectMapper().readTree(out.toFile());
    assertThat(r.get("budget").asDouble()).isEqualTo(100);
    assertThat(r.get("scenario").asText()).isEqualTo("capacity-drop");
    assertThat(r.get("policies").has("uniform")).isTrue();
    assertThat(r.get("policies").has("crawl-value")).isTrue();
    assertThat(r.get("policies").get("crawl-value").has("freshness_first_day_after_change"))
        .isTrue();
    assertThat(html).exists();
  }
}
