package io.recrawl.flink.testutil;

import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.ControlMessageCodec;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A small crawler for closed-loop tests, talking to the job through files: it reads the crawl
 * requests the job released, "fetches" each a little later, and writes the statuses (with fetch
 * times and whether the page changed) into the job's status directory; then it writes the next
 * clock tick into the control directory. Pages change at known Poisson rates.
 */
public final class ClosedLoopCrawler {

  public static final long DAY = 86_400_000L;
  private static final long FETCH_LATENCY_MS = 20_000;

  /** URL to its true change rate, per day. */
  public final Map<String, Double> changeRates = new LinkedHashMap<>();

  private final Path statusDir;
  private final Path controlDir;
  private final Random random;
  private final Map<String, Long> lastFetch = new HashMap<>();
  private final Set<String> answered = new HashSet<>();
  private int files;
  private long statusesWritten;

  public ClosedLoopCrawler(Path statusDir, Path controlDir, long seed) {
    this.statusDir = statusDir;
    this.controlDir = controlDir;
    this.random = new Random(seed);
  }

  /**
   * Adds {@code hosts} x {@code pagesPerHost} pages: the first half of each host's pages
   * fast-changing.
   */
  public void addPages(int hosts, int pagesPerHost, double fastRate, double slowRate) {
    for (int h = 0; h < hosts; h++) {
      for (int p = 0; p < pagesPerHost; p++) {
        changeRates.put(
            "https://host" + h + ".example/page/" + p, p < pagesPerHost / 2 ? fastRate : slowRate);
      }
    }
  }

  /** Writes every page as a DISCOVERED status at {@code time}. */
  public void writeSeeds(long time) throws IOException {
    List<String> lines = new ArrayList<>();
    for (String url : changeRates.keySet()) {
      lines.add(StatusEventCodec.toJson(status(url, CrawlStatus.DISCOVERED, time, null)));
    }
    publish(statusDir, lines);
  }

  /**
   * Answers the requests not answered yet (a replay after a restart is answered once); returns how
   * many.
   */
  public int answer(List<CrawlRequest> requests) throws IOException {
    List<String> lines = new ArrayList<>();
    for (CrawlRequest r : requests) {
      if (!answered.add(r.url() + "@" + r.time())) {
        continue;
      }
      long fetchTime = r.time() + FETCH_LATENCY_MS + random.nextInt(10_000);
      Long previous = lastFetch.put(r.url(), fetchTime);
      Boolean changed = null;
      if (previous != null) {
        double days = Math.max(0, fetchTime - previous) / (double) DAY;
        changed =
            random.nextDouble() < -Math.expm1(-changeRates.get(r.url()) * days); // a change since?
      }
      lines.add(StatusEventCodec.toJson(status(r.url(), CrawlStatus.FETCHED, fetchTime, changed)));
    }
    if (!lines.isEmpty()) {
      publish(statusDir, lines);
    }
    return lines.size();
  }

  public long statusesWritten() {
    return statusesWritten;
  }

  /** Writes a clock tick: event time moves to {@code time}. */
  public void tick(long time) throws IOException {
    publish(controlDir, List.of(ControlMessageCodec.toJson(ControlMessage.tick(time))));
  }

  /** Writes a file next to the directory and moves it in, so the job never reads half a file. */
  private void publish(Path dir, List<String> lines) throws IOException {
    Path tmp = dir.resolveSibling("." + dir.getFileName() + "-" + files + ".tmp");
    Files.write(tmp, lines, StandardCharsets.UTF_8);
    Files.move(
        tmp, dir.resolve(String.format("%06d.jsonl", files++)), StandardCopyOption.ATOMIC_MOVE);
    if (dir.equals(statusDir)) {
      statusesWritten += lines.size();
    }
  }

  private static StatusEvent status(String url, CrawlStatus status, long time, Boolean changed) {
    String host = url.substring(8, url.indexOf('/', 8));
    return new StatusEvent(url, host, status, time, Map.of(), changed, null, null);
  }
}
