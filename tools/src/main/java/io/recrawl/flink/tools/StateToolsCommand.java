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

  /**
   * Writes the frontier to {@code --out} or to {@code out}. Give it a stream that throws on a
   * failed write (the CLI passes standard output's file descriptor, not {@code System.out}): a
   * {@code PrintStream} swallows errors, so for one it can only tell at the end, from {@code
   * checkError}.
   *
   * @return 0, 1 if the output could not be written, 2 for a bad argument
   */
  public static int export(String[] args, OutputStream out) throws Exception {
    Map<String, String> o = new HashMap<>();
    String extra = parse(args, o);
    if (extra != null || !o.containsKey("savepoint")) {
      System.err.println(EXPORT_USAGE);
      return 2;
    }
    RecrawlConfig config = config(o);
    FrontierFormat format =
        o.getOrDefault("format", "json").equals("json") ? null : FrontierFormat.of(o.get("format"));
    String where = o.containsKey("out") ? o.get("out") : "standard output";
    long n;
    try {
      if (o.containsKey("out")) {
        try (Writer w = writer(Path.of(o.get("out")))) {
          n = write(o, config, format, w);
        }
      } else {
        // The caller's stream: flushed, not closed.
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        n = write(o, config, format, w);
        w.flush();
        if (out instanceof PrintStream p && p.checkError()) {
          throw new IOException("the stream reported an error");
        }
      }
    } catch (IOException e) {
      System.err.println("recrawl export: cannot write " + where + ": " + e.getMessage());
      return 1;
    }
    if (o.containsKey("out")) {
      System.err.printf(
          "recrawl export: %d URLs to %s%s%n",
          n, where, format == null ? "" : " (" + format.flag() + ")");
    }
    return 0;
  }

  /** The frontier as JSON lines ({@code format} null) or in one of the formats import reads. */
  private static long write(
      Map<String, String> o, RecrawlConfig config, FrontierFormat format, Writer w)
      throws Exception {
    if (format != null) {
      return FrontierExport.write(o.get("savepoint"), config.engineSettings(), format, now(o), w);
    }
    long[] n = {0};
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
    return n[0];
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
