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
 * {@code bench throughput} end to end on a tiny frontier: its jobs run on both inputs (uniform and
 * the crawl mix) and it writes their figures.
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
    assertTrue(json.get("ratio_to_state_floor").asDouble() > 0);

    // The crawl mix: 2,000 seeds, then 4,000 events of fetches with outlinks (19.6 a fetch with the
    // default shares: 1 + 20 x 93 %), four new URLs per successful fetch.
    JsonNode crawl = json.get("crawl_mix");
    assertEquals(19.6, crawl.get("events_per_fetch").asDouble(), 1e-9);
    assertEquals(2000, crawl.get("seed_urls").asLong());
    long fetches = crawl.get("fetches").asLong();
    assertTrue(fetches > 190 && fetches < 220, "fetches " + fetches);
    long urls = crawl.get("urls").asLong();
    assertTrue(urls > 2000 + 3 * fetches && urls <= 2000 + 4 * fetches, "URLs " + urls);
    for (String positive :
        new String[] {
          "events_per_second",
          "fetches_per_second",
          "fetches_per_core_second",
          "fetches_per_scheduler_core_second",
          "scheduler_cpu_us_per_event",
          "state_floor_cpu_us_per_event",
          "ratio_to_state_floor",
          "bytes_per_url"
        }) {
      assertTrue(crawl.get(positive).asDouble() > 0, positive + " = " + crawl.get(positive));
    }
    // Fetches per core over the whole job's CPU cannot beat the scheduler threads' alone.
    assertTrue(
        crawl.get("fetches_per_core_second").asDouble()
            <= crawl.get("fetches_per_scheduler_core_second").asDouble());
    JsonNode checkpoints = crawl.get("checkpoints");
    assertTrue(checkpoints.get("retained_bytes").asLong() >= 0);
    assertTrue(checkpoints.get("completed").asLong() >= 0);
  }
}
