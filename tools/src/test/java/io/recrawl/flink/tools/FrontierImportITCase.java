package io.recrawl.flink.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recrawl.flink.testutil.TestClusters;
import io.recrawl.flink.tools.frontier.ImportCommand;
import io.recrawl.wire.CrawlRequest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An existing StormCrawler frontier brought in: a status index exported as OpenSearch JSON lines
 * and a SQL {@code urls} table exported as CSV (100 pages a host, every status, a few hundred bad
 * rows each), imported with {@code bin/recrawl import}; every good row is in the savepoint with its
 * status and evidence and every bad row in the reject file; import, export and import again give
 * the same pages; and the job on a MiniCluster (RocksDB) started from the savepoint sends each
 * host's pages at the host's pace, overdue ones in value order, the others in their next fetch
 * dates' order; a restore with other engine settings is refused as for any savepoint. {@code
 * -Drecrawl.import.rows=N} sets the rows (100,000 by default, 60 % of them in the OpenSearch file).
 */
class FrontierImportITCase {

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = TestClusters.miniCluster(TestClusters.rocksDb());

  private static final ObjectMapper JSON = new ObjectMapper();
  static final long T = Instant.parse("2026-11-26T05:00:00Z").toEpochMilli();
  static final long MIN = 60_000L;
  static final long HOUR = 3_600_000L;
  static final int PER_HOST = 100;
  static final int ROWS = Integer.getInteger("recrawl.import.rows", 100_000);

  @TempDir Path tmp;

  /** What a good row must become. */
  record Page(
      String url,
      String host,
      String status,
      long nextFetch,
      long lastFetch,
      boolean evidence,
      double weight,
      int errors) {
    boolean planned() {
      return nextFetch != Long.MAX_VALUE;
    }

    /** The last fetch the page keeps: only a fetch is one (errors leave it never fetched). */
    long keptLastFetch() {
      return status.equals("FETCHED") ? lastFetch : 0;
    }
  }

  /** A generated export: its lines, its good pages by URL, and its bad rows' reasons by line. */
  record Export(Path file, Map<String, Page> pages, Map<Long, String> bad) {}

  /** Page j of a host: every status, overdue and future dates, a clump above the host's limit. */
  static Page page(String host, int j) {
    String url = (j % 2 == 0 ? "https://" : "http://") + host + "/p/" + j;
    if (j < 15) { // overdue, never fetched
      return new Page(url, host, "DISCOVERED", T - j * MIN, 0, false, 1, 0);
    }
    if (j < 30) { // overdue, fetched j * 7 % 15 + 1 hours ago
      return new Page(
          url, host, "FETCHED", T - 5 * MIN, T - (j * 7 % 15 + 1) * HOUR, true, 1 + j % 3, 0);
    }
    if (j < 95) { // 65 due within minute 3: 60 a minute is the host's limit
      return new Page(
          url, host, "FETCHED", T + 3 * MIN + (j - 30) * 500L, T - 20 * HOUR, true, 1, 0);
    }
    if (j < 98) {
      // 1, 2, and 5 errors in a row, kept below fetch-error.max (3) so the page stays FETCH_ERROR
      return new Page(
          url, host, "FETCH_ERROR", T + 10 * MIN, T - 2 * HOUR, false, 1, Math.min(2, j - 94));
    }
    return new Page(url, host, "ERROR", Long.MAX_VALUE, T - 3 * HOUR, false, 1, 0);
  }

  static Map<String, List<String>> metadata(Page p, int j) {
    Map<String, List<String>> md = new LinkedHashMap<>();
    md.put("depth", List.of("1"));
    if (p.lastFetch() != 0) {
      md.put("recrawl.lastFetch", List.of(Instant.ofEpochMilli(p.lastFetch()).toString()));
    }
    if (p.evidence()) {
      md.put("signature", List.of("sig-" + p.url()));
      md.put("protocol.etag", List.of("\"" + j + "\""));
    }
    if (p.weight() != 1) {
      md.put("recrawl.weight", List.of(Double.toString(p.weight())));
    }
    if (p.errors() > 0) {
      md.put("fetch.error.count", List.of(j == 97 ? "5" : Integer.toString(p.errors())));
    }
    return md;
  }

  /** The OpenSearch status index as elasticdump writes it (whole hits), a bad row every 200. */
  static Export openSearch(Path file, int hosts) throws Exception {
    List<String> lines = new ArrayList<>();
    Map<String, Page> pages = new LinkedHashMap<>();
    Map<Long, String> bad = new TreeMap<>();
    String[] reasons = {
      "malformed_json",
      "bad_url",
      "unknown_status",
      "bad_time",
      "duplicate_url",
      "missing_field:url"
    };
    int k = 0;
    for (int j = 0; j < PER_HOST; j++) {
      for (int h = 0; h < hosts; h++) {
        Page p = page("os" + h + ".example", j);
        ObjectNode src = JSON.createObjectNode();
        src.put("url", p.url());
        src.put("status", p.status());
        if (p.planned()) {
          src.put("nextFetchDate", Instant.ofEpochMilli(p.nextFetch()).toString());
        }
        ObjectNode md = src.putObject("metadata");
        metadata(p, j)
            .forEach(
                (key, vs) -> {
                  ArrayNode a = md.putArray(key.replace(".", "%2E"));
                  vs.forEach(a::add);
                });
        src.put("key", p.host());
        ObjectNode hit = JSON.createObjectNode();
        hit.put("_index", "status");
        hit.put("_id", Integer.toString(lines.size()));
        hit.set("_source", src);
        lines.add(JSON.writeValueAsString(hit));
        pages.put(p.url(), p);
        if (lines.size() % 200 == 0) {
          String reason = reasons[k++ % reasons.length];
          bad.put((long) lines.size() + 1, reason);
          lines.add(
              switch (reason) {
                case "malformed_json" -> "{\"url\": \"http://x.example/\", \"status\":";
                case "bad_url" -> "{\"url\":\"ftp://files.example/a\",\"status\":\"FETCHED\"}";
                case "unknown_status" -> "{\"url\":\"http://x.example/\",\"status\":\"QUEUED\"}";
                case "bad_time" ->
                    "{\"url\":\"http://x.example/t\",\"status\":\"FETCHED\",\"nextFetchDate\":\"soon\"}";
                case "duplicate_url" -> lines.get(lines.size() - 1);
                default -> "{\"status\":\"FETCHED\"}";
              });
        }
      }
    }
    Files.write(file, lines);
    return new Export(file, pages, bad);
  }

  /** The SQL urls table as psql's CSV with a header, a bad row every 200. */
  static Export sqlCsv(Path file, int hosts) throws Exception {
    DateTimeFormatter f = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    List<String> lines = new ArrayList<>();
    lines.add("url,status,nextfetchdate,metadata,bucket,host");
    Map<String, Page> pages = new LinkedHashMap<>();
    Map<Long, String> bad = new TreeMap<>();
    String[] reasons = {
      "bad_columns", "bad_url", "unknown_status", "bad_time", "duplicate_url", "bad_metadata"
    };
    int k = 0;
    for (int j = 0; j < PER_HOST; j++) {
      for (int h = 0; h < hosts; h++) {
        Page p = page("sql" + h + ".example", j);
        StringBuilder md = new StringBuilder();
        metadata(p, j)
            .forEach(
                (key, vs) -> vs.forEach(v -> md.append('\t').append(key).append('=').append(v)));
        String next =
            p.planned()
                ? LocalDateTime.ofInstant(Instant.ofEpochMilli(p.nextFetch()), ZoneOffset.UTC)
                    .format(f)
                : "";
        lines.add(
            String.join(
                ",",
                p.url(),
                p.status(),
                next,
                "\"" + md.toString().replace("\"", "\"\"") + "\"",
                Integer.toString(h % 10),
                p.host()));
        pages.put(p.url(), p);
        if (lines.size() % 200 == 0) {
          String reason = reasons[k++ % reasons.length];
          bad.put((long) lines.size() + 1, reason);
          lines.add(
              switch (reason) {
                case "bad_columns" -> "http://x.example/,FETCHED";
                case "bad_url" -> "mailto:someone@example.com,FETCHED,2026-11-26 05:00:00,,0,x";
                case "unknown_status" -> "http://x.example/,QUEUED,2026-11-26 05:00:00,,0,x";
                case "bad_time" -> "http://x.example/,FETCHED,26/11/2026,,0,x";
                case "duplicate_url" -> lines.get(lines.size() - 1);
                default -> "http://x.example/,FETCHED,2026-11-26 05:00:00,\"\tnot-a-pair\",0,x";
              });
        }
      }
    }
    Files.write(file, lines);
    return new Export(file, pages, bad);
  }

  private static String importFile(
      Path in, String format, Path savepoint, Path rejects, String partitionMb) throws Exception {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    int rc =
        ImportCommand.run(
            new String[] {
              "--in",
              in.toString(),
              "--format",
              format,
              "--savepoint",
              savepoint.toUri().toString(),
              "--rejects",
              rejects.toString(),
              "--now",
              Long.toString(T),
              "--progress-ms",
              "2000",
              "--partition-mb",
              partitionMb,
              "--tmp-dir",
              savepoint + "-tmp"
            },
            new PrintStream(log, true, StandardCharsets.UTF_8));
    String text = log.toString(StandardCharsets.UTF_8);
    assertThat(rc).as(text).isZero();
    try (java.util.stream.Stream<Path> left = Files.list(Path.of(savepoint + "-tmp"))) {
      assertThat(left).as("the import's temporary files are deleted").isEmpty();
    }
    return text;
  }

  private static List<String> export(Path savepoint, String format) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int rc =
        StateToolsCommand.export(
            new String[] {"--savepoint", savepoint.toUri().toString(), "--format", format},
            new PrintStream(out, true, StandardCharsets.UTF_8));
    assertThat(rc).isZero();
    return out.toString(StandardCharsets.UTF_8).lines().toList();
  }

  /** Every bad row is in the reject file with its line and reason, and nothing else is. */
  private static void checkRejects(Export e, Path rejects, String log) throws Exception {
    Map<Long, String> found = new TreeMap<>();
    for (String line : Files.readAllLines(rejects).subList(1, Files.readAllLines(rejects).size())) {
      String[] f = line.split("\t", -1);
      found.put(Long.parseLong(f[0]), f[1]);
    }
    assertThat(found).isEqualTo(e.bad());
    assertThat(log)
        .contains(String.format("%,d imported", e.pages().size()))
        .contains(String.format("%,d bad", e.bad().size()));
  }

  /** Every good row is in the export of its savepoint with its status and evidence. */
  private static void checkPages(Export e, Map<String, JsonNode> exported) {
    assertThat(exported.keySet()).isEqualTo(e.pages().keySet());
    for (Page p : e.pages().values()) {
      JsonNode n = exported.get(p.url());
      JsonNode md = n.get("metadata");
      assertThat(n.get("status").asText()).as(p.url()).isEqualTo(p.status());
      assertThat(n.get("key").asText()).isEqualTo(p.host());
      assertThat(md.get("recrawl%2Eweight").get(0).asDouble()).isEqualTo(p.weight());
      if (p.keptLastFetch() != 0) {
        assertThat(Instant.parse(md.get("recrawl%2ElastFetch").get(0).asText()).toEpochMilli())
            .as(p.url())
            .isEqualTo(p.keptLastFetch());
      } else {
        assertThat(md.has("recrawl%2ElastFetch")).isFalse();
      }
      assertThat(md.has("recrawl%2Esignature-hash")).as(p.url()).isEqualTo(p.evidence());
      assertThat(md.has("recrawl%2Eetag-hash")).as(p.url()).isEqualTo(p.evidence());
      if (p.errors() > 0) {
        assertThat(md.get("fetch%2Eerror%2Ecount").get(0).asInt()).isEqualTo(p.errors());
      }
      if (p.planned()) {
        long due = Instant.parse(n.get("nextFetchDate").asText()).toEpochMilli();
        assertThat(due).as(p.url()).isGreaterThanOrEqualTo(Math.max(T, p.nextFetch()) / MIN * MIN);
      } else {
        assertThat(n.has("nextFetchDate")).as(p.url()).isFalse();
      }
    }
  }

  /**
   * An export as SQL CSV, by URL, in the OpenSearch export's shape (the test's values hold no
   * commas, quotes or newlines, so a field is what lies between commas).
   */
  private static Map<String, JsonNode> fromCsv(List<String> lines) {
    DateTimeFormatter f = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    assertThat(lines.get(0)).isEqualTo("url,status,nextfetchdate,metadata,bucket,host");
    Map<String, JsonNode> m = new HashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] c = line.split(",", -1);
      assertThat(c).hasSize(6);
      ObjectNode o = JSON.createObjectNode();
      o.put("url", c[0]);
      o.put("status", c[1]);
      if (!c[2].isEmpty()) {
        o.put("nextFetchDate", LocalDateTime.parse(c[2], f).toInstant(ZoneOffset.UTC).toString());
      }
      ObjectNode md = o.putObject("metadata");
      for (String kv : c[3].replace("\"", "").split("\t")) {
        if (!kv.isEmpty()) {
          int eq = kv.indexOf('=');
          String key = kv.substring(0, eq).replace(".", "%2E");
          (md.has(key) ? (ArrayNode) md.get(key) : md.putArray(key)).add(kv.substring(eq + 1));
        }
      }
      o.put("key", c[5]);
      m.put(c[0], o);
    }
    return m;
  }

  /** The same lines in any order; the difference is shown both ways. */
  private static void assertSameLines(List<String> actual, List<String> expected) {
    Set<String> missing = new HashSet<>(expected);
    actual.forEach(missing::remove);
    Set<String> extra = new HashSet<>(actual);
    expected.forEach(extra::remove);
    assertThat(extra).as("lines not expected").isEmpty();
    assertThat(missing).as("lines missing").isEmpty();
    assertThat(actual).hasSameSizeAs(expected);
  }

  /** Reads exported lines into pages by URL. */
  private interface ExportReader {
    Map<String, JsonNode> read(List<String> lines) throws Exception;
  }

  /**
   * Imports a crawl's export, checks its rejects and its pages, and that export, import and export
   * again give the same lines; returns the savepoint.
   */
  private Path importAndRoundTrip(Export e, String format, ExportReader reader) throws Exception {
    Path savepoint = tmp.resolve("sp-" + format);
    Path rejects = tmp.resolve(format + ".rejects.tsv");
    // In partitions of about 10 KB of rows here, in one partition below: the same state.
    String log = importFile(e.file(), format, savepoint, rejects, "0.01");
    checkRejects(e, rejects, log);
    List<String> exported = export(savepoint, format);
    checkPages(e, reader.read(exported));

    // Exported again through gzip (a name in .gz), and imported from that.
    Path again = tmp.resolve("again-" + e.file().getFileName() + ".gz");
    int rc =
        StateToolsCommand.export(
            new String[] {
              "--savepoint", savepoint.toUri().toString(),
              "--format", format,
              "--out", again.toString()
            },
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    assertThat(rc).isZero();
    try (java.io.InputStream gz = new java.util.zip.GZIPInputStream(Files.newInputStream(again))) {
      assertSameLines(
          new String(gz.readAllBytes(), StandardCharsets.UTF_8).lines().toList(), exported);
    }
    Path back = tmp.resolve("sp-" + format + "-again");
    importFile(again, format, back, tmp.resolve("again-" + format + ".rejects.tsv"), "32");
    assertSameLines(export(back, format), exported);
    return savepoint;
  }

  private static Map<String, JsonNode> byUrl(List<String> lines) throws Exception {
    Map<String, JsonNode> m = new HashMap<>();
    for (String l : lines) {
      JsonNode n = JSON.readTree(l);
      m.put(n.get("url").asText(), n);
    }
    return m;
  }

  @Test
  void openSearchIndexIntoTheRunningJob() throws Exception {
    Export os = openSearch(tmp.resolve("status.jsonl"), ROWS * 6 / 10 / PER_HOST);
    Path a = importAndRoundTrip(os, "opensearch", FrontierImportITCase::byUrl);

    // The job from the imported savepoint.
    SavepointJobs.CLOCK.set(T);
    SavepointJobs.Running r =
        SavepointJobs.start(2, a.toUri().toString(), false, Map.of(), Map.of());
    Map<String, CrawlRequest> first = new HashMap<>();
    long planned = os.pages().values().stream().filter(Page::planned).count();
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      for (long t = T; t <= T + 30 * MIN && System.nanoTime() < deadline; t += 10_000) {
        SavepointJobs.CLOCK.set(t);
        Thread.sleep(15);
      }
      while (firstRequests(r, first) < planned && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
    } finally {
      r.cancel();
      SavepointJobs.CLOCK.set(SavepointJobs.END);
    }
    assertThat(first.keySet())
        .isEqualTo(
            os.pages().values().stream()
                .filter(Page::planned)
                .map(Page::url)
                .collect(Collectors.toSet()));
    checkRequests(os, first);
  }

  /** The first request of every imported URL so far; returns how many. */
  private static long firstRequests(SavepointJobs.Running r, Map<String, CrawlRequest> first) {
    for (CrawlRequest q : r.requests().values()) {
      if (q.host().startsWith("os")) {
        first.merge(q.url(), q, (x, y) -> x.time() <= y.time() ? x : y);
      }
    }
    return first.size();
  }

  /**
   * No host over its limit; overdue pages first, in value order (never fetched, then the longest
   * unfetched); then the others never before their date and in their dates' order (pages of one due
   * bucket go best first).
   */
  private static void checkRequests(Export os, Map<String, CrawlRequest> first) {
    Map<String, List<CrawlRequest>> byHost =
        first.values().stream().collect(Collectors.groupingBy(CrawlRequest::host));
    for (List<CrawlRequest> rs : byHost.values()) {
      rs.sort(Comparator.comparingLong(CrawlRequest::time));
      for (int i = 1; i < rs.size(); i++) {
        assertThat(rs.get(i).time() - rs.get(i - 1).time())
            .as("pacing of %s", rs.get(i).host())
            .isGreaterThanOrEqualTo(1_000);
      }
      Page prev = null;
      double prevValue = Double.MAX_VALUE;
      long lastDate = Long.MIN_VALUE;
      for (CrawlRequest q : rs) {
        Page p = os.pages().get(q.url());
        boolean overdue = p.nextFetch() <= T;
        if (prev != null && prev.nextFetch() > T) {
          assertThat(overdue).as("%s after a page not yet due", q.url()).isFalse();
        }
        if (overdue && prev != null && prev.nextFetch() <= T) {
          // never fetched (an unbounded value) first, then by crawl value (weight and age): the
          // value at release has grown by a few seconds' worth at most
          assertThat(prev.lastFetch() != 0 && p.lastFetch() == 0)
              .as("value order: %s after %s", q.url(), prev.url())
              .isFalse();
          if (prev.lastFetch() != 0) {
            assertThat(q.value())
                .as("value order: %s after %s", q.url(), prev.url())
                .isLessThanOrEqualTo(prevValue * 1.001);
          }
        }
        prevValue = q.value();
        if (!overdue) {
          assertThat(q.time()).as(q.url()).isGreaterThanOrEqualTo(p.nextFetch());
          assertThat(p.nextFetch() / MIN).as(q.url()).isGreaterThanOrEqualTo(lastDate / MIN);
          lastDate = Math.max(lastDate, p.nextFetch());
        }
        prev = p;
      }
    }
  }

  @Test
  void exportHoldsTheHostRecordsOfOneKeyGroupNotOfTheWholeSavepoint(@TempDir Path dir)
      throws Exception {
    int hosts = 3_000;
    List<String> seeds = new ArrayList<>();
    for (int i = 0; i < hosts; i++) {
      seeds.add("http://h" + i + ".example/");
    }
    Path in = Files.write(dir.resolve("seeds.txt"), seeds);
    Path savepoint = dir.resolve("savepoint");
    importFile(in, "seeds", savepoint, dir.resolve("rejects.jsonl"), "32");
    Set<String> visited = new HashSet<>();
    int held =
        FrontierReader.forEachHost(
            savepoint.toUri().toString(),
            null,
            (host, h, pages, lambda0) -> {
              assertThat(h).as("the record of %s", host).isNotNull();
              assertThat(visited.add(host)).as("%s visited once", host).isTrue();
            });
    assertThat(visited).hasSize(hosts);
    // Spread over the savepoint's key groups (128 at least): a few dozen share one, not 3,000.
    assertThat(held).isPositive().isLessThan(hosts / 20);
  }

  @Test
  void sqlTableRoundTrips() throws Exception {
    Export sql = sqlCsv(tmp.resolve("urls.csv"), ROWS * 4 / 10 / PER_HOST);
    Path c = importAndRoundTrip(sql, "sql-csv", FrontierImportITCase::fromCsv);

    // The savepoint keeps the settings it was built with: a restore with another due bucket (the
    // due slots are its buckets) is refused, naming the key, as for any savepoint of the job.
    SavepointJobs.Running r =
        SavepointJobs.start(
            1, c.toUri().toString(), false, Map.of("due.bucket", "2 min"), Map.of());
    Throwable failure = null;
    try {
      r.job().getJobExecutionResult().get(30, java.util.concurrent.TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      failure = e;
    } catch (java.util.concurrent.TimeoutException e) {
      r.cancel(); // restored and running: not refused
    }
    StringBuilder messages = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      messages.append(t).append('\n');
    }
    assertThat(messages.toString()).contains("recrawl.engine.due.bucket was 60000");
  }
}
