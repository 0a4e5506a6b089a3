package io.recrawl.flink.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.flink.tools.frontier.FrontierFormat;
import io.recrawl.flink.tools.frontier.FrontierImport;
import io.recrawl.flink.tools.frontier.ImportCommand;
import io.recrawl.flink.tools.frontier.ImportSettings;
import io.recrawl.wire.HostKeys;
import java.io.BufferedWriter;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/recrawl bench import}: imports a generated OpenSearch status index of {@code --urls}
 * URLs on {@code --hosts} hosts and reports URLs a second and bytes per URL of the savepoint; then
 * pushes the same URLs through the running job as DISCOVERED events ({@link
 * ThroughputBenchmark#discovered}) for comparison.
 */
public final class ImportBenchmark {

  public static final String OPTIONS =
      "[--urls 1000000] [--hosts 10000] [--parallelism 2] [--job true] [--work-dir target/bench-import]";

  private ImportBenchmark() {}

  public static int run(String[] args) throws Exception {
    Map<String, String> o = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        System.err.println("usage: bin/recrawl bench import " + OPTIONS);
        return 2;
      }
      o.put(args[i].substring(2), args[++i]);
    }
    long urls = Long.parseLong(o.getOrDefault("urls", "1000000"));
    long hosts = Long.parseLong(o.getOrDefault("hosts", "10000"));
    int parallelism = Integer.parseInt(o.getOrDefault("parallelism", "2"));
    boolean job = Boolean.parseBoolean(o.getOrDefault("job", "true"));
    Path work = Path.of(o.getOrDefault("work-dir", "target/bench-import")).toAbsolutePath();
    if (urls < 1 || hosts < 1 || hosts > urls) {
      System.err.println("bench import: need 1 <= hosts <= urls");
      return 2;
    }
    Files.createDirectories(work);
    long now = System.currentTimeMillis();
    Path in = work.resolve("status.jsonl");
    long t0 = System.nanoTime();
    generate(in, urls, hosts, now);
    System.out.printf(
        Locale.ROOT,
        "bench import: %,d URLs on %,d hosts, OpenSearch JSON lines of %,d bytes (written in %.1f s)%n",
        urls,
        hosts,
        Files.size(in),
        (System.nanoTime() - t0) / 1e9);

    RecrawlConfig config = RecrawlConfig.defaults();
    Path savepoint = work.resolve("savepoint-" + now);
    FrontierImport.Summary s =
        FrontierImport.run(
            new FrontierImport.Options(
                in,
                FrontierFormat.OPENSEARCH,
                savepoint.toUri().toString(),
                work.resolve("rejects.tsv"),
                0.01,
                new ImportSettings(
                    HostKeys.Mode.BY_HOST,
                    ImportSettings.DEFAULT_WEIGHT_KEY,
                    ImportSettings.DEFAULT_LAST_FETCH_KEYS,
                    ImportSettings.DEFAULT_FETCH_INTERVAL_MS,
                    now),
                config.engineSettings(),
                config.get(RecrawlOptions.GLOBAL_LAMBDA),
                config.get(RecrawlOptions.MAX_PARALLELISM).intValue(),
                parallelism,
                10_000,
                ImportCommand.partitionBytes(ImportCommand.DEFAULT_PARTITION_MB),
                config.get(RecrawlOptions.CONTROLLER_BUDGET),
                null),
            System.err);
    long bytes = ThroughputBenchmark.directorySize(Path.of(URI.create(s.savepoint())));
    System.out.printf(
        Locale.ROOT,
        "  import:  %,.0f URLs/s (%,d URLs in %.1f s: read and check %.1f s, build %.1f s, write"
            + " the savepoint %.1f s); savepoint %,d bytes = %.1f bytes per URL%n",
        s.good() / s.seconds(),
        s.good(),
        s.seconds(),
        s.readSeconds(),
        s.buildSeconds(),
        s.writeSeconds(),
        bytes,
        bytes / (double) s.good());
    if (job) {
      double[] m = ThroughputBenchmark.discovered(urls, hosts, parallelism, work.resolve("job"));
      System.out.printf(
          Locale.ROOT,
          "  the job: %,.0f DISCOVERED events/s (%,d in %.1f s); its native savepoint %,.0f bytes ="
              + " %.1f bytes per URL%n",
          m[0],
          urls,
          m[2],
          m[1],
          m[1] / urls);
      System.out.printf(
          Locale.ROOT,
          "  import / job: %.1f times the URLs a second%n",
          (s.good() / s.seconds()) / m[0]);
    }
    return 0;
  }

  /**
   * The status index of the synthetic URLs ({@link ThroughputBenchmark#url}): 30 % DISCOVERED, the
   * rest FETCHED a few hours to days ago with a signature and an ETag, next fetch dates from a day
   * ago to a day ahead.
   */
  static void generate(Path file, long urls, long hosts, long now) throws Exception {
    JsonFactory json = new JsonFactory().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        BufferedWriter out = new BufferedWriter(w, 1 << 20)) {
      for (long i = 0; i < urls; i++) {
        long mix = (i * 0x9E3779B97F4A7C15L) >>> 33;
        boolean fetched = mix % 10 >= 3;
        try (JsonGenerator g = json.createGenerator(out)) {
          g.writeStartObject();
          g.writeStringField("url", ThroughputBenchmark.url(i, hosts));
          g.writeStringField("status", fetched ? "FETCHED" : "DISCOVERED");
          g.writeStringField(
              "nextFetchDate",
              Instant.ofEpochMilli(now + (mix % 2880 - 1440) * 60_000L).toString());
          g.writeObjectFieldStart("metadata");
          if (fetched) {
            g.writeArrayFieldStart("signature");
            g.writeString(Long.toHexString(mix * 31 + i));
            g.writeEndArray();
            g.writeArrayFieldStart("protocol%2Eetag");
            g.writeString("\"" + Long.toHexString(mix) + "\"");
            g.writeEndArray();
            g.writeArrayFieldStart("recrawl%2ElastFetch");
            g.writeString(Instant.ofEpochMilli(now - (1 + mix % 96) * 3_600_000L).toString());
            g.writeEndArray();
          }
          g.writeArrayFieldStart("depth");
          g.writeString(Long.toString(mix % 4));
          g.writeEndArray();
          g.writeEndObject();
          g.writeStringField("key", ThroughputBenchmark.host(i, hosts));
          g.writeEndObject();
        }
        out.write('\n');
      }
    }
  }
}
