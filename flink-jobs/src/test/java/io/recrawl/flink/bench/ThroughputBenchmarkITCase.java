package io.recrawl.flink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench throughput} end to end on a tiny frontier: its three jobs run and it writes its
 * figures.
 */
class ThroughputBenchmarkITCase {

  @Test
  void writesTheFiguresOfAllThreeJobs(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("bench.json");
    int rc =
        ThroughputBenchmark.run(
            new String[] {
              "--urls",
              "2000",
              "--hosts",
              "20",
              "--events",
              "6000",
              "--work-dir",
              dir.resolve("work").toString(),
              "--out",
              out.toString()
            });
    assertEquals(0, rc);

    JsonNode json = new ObjectMapper().readTree(Files.readString(out));
    assertEquals(2000, json.get("urls").asLong());
    assertEquals(20, json.get("hosts").asLong());
    for (String rate :
        new String[] {
          "events_per_second", "state_floor_events_per_second", "passthrough_events_per_second"
        }) {
      assertTrue(json.get(rate).asDouble() > 0, rate + " = " + json.get(rate));
    }
    assertTrue(json.get("scheduler_cpu_us_per_event").asDouble() > 0);
    assertTrue(json.get("state_floor_cpu_us_per_event").asDouble() > 0);
    // Pages, slots, host records and timers of 2,000 URLs: some state, and nowhere near a kilobyte
    // a URL.
    double bytesPerUrl = json.get("bytes_per_url").asDouble();
    assertTrue(bytesPerUrl > 5 && bytesPerUrl < 1000, "bytes per URL " + bytesPerUrl);
  }
}
