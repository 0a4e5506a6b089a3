package io.recrawl.flink.testing;

import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.EngineListener;
import io.recrawl.engine.LocalFrontier;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * A small simulated crawl that produces a status feed for a test. Pages change at known Poisson
 * rates; a crawler fetches each requested URL a little after the request and reports whether the
 * page changed since its previous fetch. The requests that drive it come from the in-memory
 * reference scheduler ({@link LocalFrontier}, the same engine the Flink operator runs), so the feed
 * is a closed-loop crawl; the job under test then consumes that feed and makes its own decisions.
 */
public final class SimulatedCrawl {

  public static final long DAY = EngineConfig.DAY_MS;
  private static final long FETCH_LATENCY_MS = 20_000;
  private static final long STEP_MS = 60_000;

  /** URL to its true change rate, per day. */
  public final Map<String, Double> changeRates = new LinkedHashMap<>();
  /** The status feed, in time order: seeds first. */
  public final List<StatusEvent> feed = new ArrayList<>();
  public final long start;
  public final long end;

  /**
   * @param hosts number of hosts
   * @param pagesPerHost pages per host; the first half change {@code fastRate} times a day, the rest {@code slowRate}
   */
  public SimulatedCrawl(
      EngineConfig cfg, int hosts, int pagesPerHost, double fastRate, double slowRate, long start, long days, long seed) {
    this.start = start;
    this.end = start + days * DAY;
    Random random = new Random(seed);
    Map<String, Long> lastFetch = new LinkedHashMap<>();
    for (int h = 0; h < hosts; h++) {
      for (int p = 0; p < pagesPerHost; p++) {
        String url = "https://host" + h + ".example/page/" + p;
        changeRates.put(url, p < pagesPerHost / 2 ? fastRate : slowRate);
        feed.add(status(url, CrawlStatus.DISCOVERED, start, null));
      }
    }
    LocalFrontier frontier = new LocalFrontier(cfg, EngineListener.NONE);
    PriorityQueue<StatusEvent> pending = new PriorityQueue<>((a, b) -> Long.compare(a.time(), b.time()));
    List<CrawlRequest> requested = new ArrayList<>();
    for (StatusEvent s : List.copyOf(feed)) {
      frontier.onStatus(s, requested::add);
    }
    for (long t = start; t < end; t += STEP_MS) {
      while (!pending.isEmpty() && pending.peek().time() <= t) {
        StatusEvent next = pending.poll();
        feed.add(next);
        frontier.onStatus(next, requested::add);
      }
      frontier.advanceTo(t, requested::add);
      for (CrawlRequest r : requested) {
        long fetchTime = r.time() + FETCH_LATENCY_MS + random.nextInt(10_000);
        Long previous = lastFetch.put(r.url(), fetchTime);
        Boolean changed = null;
        if (previous != null) {
          // At least one Poisson change in (previous, fetchTime]?
          double elapsed = (fetchTime - previous) / (double) DAY;
          changed = random.nextDouble() < -Math.expm1(-changeRates.get(r.url()) * elapsed);
        }
        pending.add(status(r.url(), CrawlStatus.FETCHED, fetchTime, changed));
      }
      requested.clear();
    }
    feed.sort((a, b) -> Long.compare(a.time(), b.time()));
  }

  private static StatusEvent status(String url, CrawlStatus status, long time, Boolean changed) {
    String host = url.substring(8, url.indexOf('/', 8));
    return new StatusEvent(url, host, status, time, Map.of(), changed, null, null);
  }

  /** Writes the feed as JSON lines (the wire format of crawl.status). */
  public Path write(Path file) throws IOException {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (StatusEvent e : feed) {
        w.write(StatusEventCodec.toJson(e));
        w.write('\n');
      }
    }
    return file;
  }
}
