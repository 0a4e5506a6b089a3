package io.recrawl.flink.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.flink.tools.frontier.FrontierExport;
import io.recrawl.flink.tools.frontier.FrontierFormat;
import io.recrawl.flink.tools.frontier.FrontierImport;
import io.recrawl.wire.Dates;
import io.recrawl.wire.HostKeys;
import io.recrawl.wire.Urls;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * {@code bin/recrawl explain URL --savepoint DIR} and {@code bin/recrawl export --savepoint DIR}:
 * the scheduler's frontier as stored in a savepoint, explained with the engine's own numbers.
 */
public final class StateToolsCommand {

  public static final String EXPLAIN_USAGE =
      "usage: bin/recrawl explain URL --savepoint DIR [--config FILE] [--now EPOCH_MS|ISO-8601]";
  public static final String EXPORT_USAGE =
      "usage: bin/recrawl export --savepoint DIR [--config FILE] [--now EPOCH_MS|ISO-8601] [--out FILE]"
          + " [--format json|opensearch|sql-csv|sql-tsv|seeds]";

  private StateToolsCommand() {}

  public static int explain(String[] args, PrintStream out) throws Exception {
    Map<String, String> o = new HashMap<>();
    String url = parse(args, o);
    if (url == null || !o.containsKey("savepoint")) {
      System.err.println(EXPLAIN_USAGE);
      return 2;
    }
    RecrawlConfig config = config(o);
    String host;
    try {
      // The page is stored under the job's one spelling: http://example.com is http://example.com/.
      url = Urls.normalise(url);
      host =
          HostKeys.of(HostKeys.Mode.fromConfigName(config.get(RecrawlOptions.PARTITION_MODE)))
              .keyOf(url);
    } catch (IllegalArgumentException e) {
      System.err.println("recrawl explain: " + e.getMessage());
      return 2;
    }
    List<String> rows =
        FrontierReader.read(o.get("savepoint"), config.engineSettings(), host, url, now(o));
    if (rows.isEmpty()) {
      out.println(url + ": not in the savepoint (host " + host + ")");
      return 1;
    }
    JsonNode row = new ObjectMapper().readTree(rows.get(0));
    for (Iterator<Map.Entry<String, JsonNode>> it = row.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      String value = f.getValue().isNull() ? "-" : f.getValue().asText();
      if (f.getValue().isIntegralNumber() && f.getValue().asLong() > 1_000_000_000_000L) {
        value += " (" + Instant.ofEpochMilli(f.getValue().asLong()) + ")";
      }
      if (f.getKey().equals("due") && f.getValue().isNull()) {
        value = "never";
      }
      out.printf("%-15s %s%n", f.getKey(), value);
    }
    return 0;
  }

  public static int export(String[] args, PrintStream out) throws Exception {
    Map<String, String> o = new HashMap<>();
    String extra = parse(args, o);
    if (extra != null || !o.containsKey("savepoint")) {
      System.err.println(EXPORT_USAGE);
      return 2;
    }
    RecrawlConfig config = config(o);
    String format = o.getOrDefault("format", "json");
    if (!format.equals("json")) {
      return exportAs(FrontierFormat.of(format), o, config, out);
    }
    if (o.containsKey("out")) {
      long[] n = {0};
      try (Writer w = writer(Path.of(o.get("out")))) {
        FrontierReader.read(
            o.get("savepoint"),
            config.engineSettings(),
            null,
            null,
            now(o),
            row -> {
              w.write(row);
              w.write('\n');
              n[0]++;
            });
      }
      System.err.printf("recrawl export: %d URLs to %s%n", n[0], o.get("out"));
    } else {
      FrontierReader.read(
          o.get("savepoint"), config.engineSettings(), null, null, now(o), out::println);
    }
    return 0;
  }

  /** The frontier in one of the formats {@code bin/recrawl import} reads. */
  private static int exportAs(
      FrontierFormat format, Map<String, String> o, RecrawlConfig config, PrintStream out)
      throws Exception {
    if (o.containsKey("out")) {
      try (Writer w = writer(Path.of(o.get("out")))) {
        long n =
            FrontierExport.write(o.get("savepoint"), config.engineSettings(), format, now(o), w);
        System.err.printf("recrawl export: %d URLs to %s (%s)%n", n, o.get("out"), format.flag());
      }
    } else {
      Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
      FrontierExport.write(o.get("savepoint"), config.engineSettings(), format, now(o), w);
      w.flush();
    }
    return 0;
  }

  /** A UTF-8 writer of {@code file}, through gzip when its name ends in {@code .gz}. */
  private static Writer writer(Path file) throws IOException {
    OutputStream raw = Files.newOutputStream(file);
    return new BufferedWriter(
        new OutputStreamWriter(
            FrontierImport.gzipped(file) ? new GZIPOutputStream(raw, 1 << 16) : raw,
            StandardCharsets.UTF_8),
        1 << 16);
  }

  /** Collects --key value options; returns the one positional argument (or null). */
  private static String parse(String[] args, Map<String, String> o) {
    String positional = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].startsWith("--") && i + 1 < args.length) {
        o.put(args[i].substring(2), args[++i]);
      } else if (positional == null) {
        positional = args[i];
      } else {
        throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
      }
    }
    return positional;
  }

  private static RecrawlConfig config(Map<String, String> o) throws Exception {
    return o.containsKey("config")
        ? RecrawlConfig.load(Path.of(o.get("config")))
        : RecrawlConfig.defaults();
  }

  private static Long now(Map<String, String> o) {
    String s = o.get("now");
    if (s == null) {
      return null;
    }
    Long t = Dates.instant(s);
    if (t == null) {
      throw new IllegalArgumentException(
          "--now must be epoch ms or an ISO-8601 instant (a year up to 9999), got " + s);
    }
    return t;
  }
}
