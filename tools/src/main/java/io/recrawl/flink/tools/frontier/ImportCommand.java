package io.recrawl.flink.tools.frontier;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.wire.Dates;
import io.recrawl.wire.HostKeys;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code bin/recrawl import}: an existing frontier into a savepoint the job starts from. */
public final class ImportCommand {

  public static final String USAGE =
      "usage: bin/recrawl import --in FILE --savepoint DIR [--format opensearch|sql-csv|sql-tsv|seeds]"
          + " [--config FILE] [--rejects FILE] [--max-bad-share 0.01] [--weight-key recrawl.weight|none]"
          + " [--last-fetch-keys recrawl.lastFetch,protocol.date] [--fetch-interval-min 1440]"
          + " [--now EPOCH_MS|ISO-8601] [--first-due next-fetch|value] [--parallelism 2]"
          + " [--partition-mb 32] [--tmp-dir DIR]";

  private static final List<String> FLAGS =
      List.of(
          "in",
          "savepoint",
          "format",
          "config",
          "rejects",
          "max-bad-share",
          "weight-key",
          "last-fetch-keys",
          "fetch-interval-min",
          "now",
          "first-due",
          "parallelism",
          "partition-mb",
          "tmp-dir",
          "progress-ms");

  private ImportCommand() {}

  public static int run(String[] args, PrintStream log) throws Exception {
    Map<String, String> o;
    FrontierImport.Options options;
    try {
      o = flags(args);
      if (!o.containsKey("in") || !o.containsKey("savepoint")) {
        throw new IllegalArgumentException("--in and --savepoint are required");
      }
      options = options(o);
    } catch (IllegalArgumentException e) {
      System.err.println("recrawl import: " + e.getMessage());
      System.err.println(USAGE);
      return 2;
    }
    if (!Files.isRegularFile(options.in())) {
      System.err.println("recrawl import: no such file: " + options.in());
      return 2;
    }
    FrontierImport.Summary s;
    try {
      s = FrontierImport.run(options, log);
    } catch (SqlRows.BadHeader e) {
      System.err.println("recrawl import: " + options.in() + ": " + e.getMessage());
      return 2;
    }
    log.println("recrawl import: " + s.describe());
    log.println("recrawl import: bad rows in " + options.rejects());
    if (s.refused()) {
      return 1;
    }
    log.println("recrawl import: savepoint " + s.savepoint());
    log.println(
        "recrawl import: start the job from it: flink run -s "
            + s.savepoint()
            + " <job jar> run --config ..., or locally with execution.state-recovery.path: "
            + s.savepoint()
            + " in the Flink settings (bin/recrawl run --flink-config FILE)");
    return 0;
  }

  /** The options of the flags, with the job's configuration. */
  static FrontierImport.Options options(Map<String, String> o) throws Exception {
    RecrawlConfig config =
        o.containsKey("config")
            ? RecrawlConfig.load(Path.of(o.get("config")))
            : RecrawlConfig.defaults();
    Path in = Path.of(o.get("in"));
    FrontierFormat format =
        o.containsKey("format") ? FrontierFormat.of(o.get("format")) : guess(in);
    String weightKey = o.getOrDefault("weight-key", ImportSettings.DEFAULT_WEIGHT_KEY);
    List<String> lastFetchKeys =
        o.containsKey("last-fetch-keys")
            ? Arrays.stream(o.get("last-fetch-keys").split(",")).map(String::strip).toList()
            : ImportSettings.DEFAULT_LAST_FETCH_KEYS;
    long now = o.containsKey("now") ? time(o.get("now")) : System.currentTimeMillis();
    ImportSettings settings =
        new ImportSettings(
            HostKeys.Mode.fromConfigName(config.get(RecrawlOptions.PARTITION_MODE)),
            weightKey.equals("none") ? null : weightKey,
            lastFetchKeys,
            Math.round(number(o, "fetch-interval-min", 1440) * 60_000),
            now,
            ImportSettings.FirstDue.of(
                o.getOrDefault("first-due", ImportSettings.FirstDue.NEXT_FETCH.option())));
    double share = number(o, "max-bad-share", 0.01);
    if (!(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException("--max-bad-share must be in [0, 1], got " + share);
    }
    double partitionMb = number(o, "partition-mb", DEFAULT_PARTITION_MB);
    if (!(partitionMb > 0)) {
      throw new IllegalArgumentException("--partition-mb must be positive, got " + partitionMb);
    }
    long maxParallelism = config.get(RecrawlOptions.MAX_PARALLELISM);
    return new FrontierImport.Options(
        in,
        format,
        o.get("savepoint"),
        Path.of(o.getOrDefault("rejects", in + ".rejects.tsv")),
        share,
        settings,
        config.engineSettings(),
        config.get(RecrawlOptions.GLOBAL_LAMBDA),
        maxParallelism == 0 ? 128 : (int) maxParallelism,
        (int) number(o, "parallelism", 2),
        (long) number(o, "progress-ms", 5_000),
        partitionBytes(partitionMb),
        config.get(RecrawlOptions.CONTROLLER_BUDGET),
        o.containsKey("tmp-dir") ? Path.of(o.get("tmp-dir")) : null);
  }

  /** Input built at a time: its pages take about 250 MB of heap (rows of about 230 bytes). */
  public static final double DEFAULT_PARTITION_MB = 32;

  /** {@code --partition-mb} in bytes. */
  public static long partitionBytes(double mb) {
    return Math.max(1, Math.round(mb * (1 << 20)));
  }

  private static FrontierFormat guess(Path in) {
    String name = in.getFileName().toString();
    if (FrontierImport.gzipped(in)) {
      name = name.substring(0, name.length() - ".gz".length());
    }
    if (name.endsWith(".csv")) {
      return FrontierFormat.SQL_CSV;
    }
    if (name.endsWith(".tsv")) {
      return FrontierFormat.SQL_TSV;
    }
    if (name.endsWith(".txt")) {
      return FrontierFormat.SEEDS;
    }
    if (name.endsWith(".jsonl") || name.endsWith(".json") || name.endsWith(".ndjson")) {
      return FrontierFormat.OPENSEARCH;
    }
    throw new IllegalArgumentException("give --format: cannot tell it from the name " + name);
  }

  static Map<String, String> flags(String[] args) {
    Map<String, String> o = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
      }
      String k = args[i].substring(2);
      if (!FLAGS.contains(k)) {
        throw new IllegalArgumentException("unknown option --" + k);
      }
      o.put(k, args[++i]);
    }
    return o;
  }

  private static double number(Map<String, String> o, String key, double dflt) {
    String v = o.get(key);
    if (v == null) {
      return dflt;
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + key + " must be a number, got " + v);
    }
  }

  static long time(String s) {
    Long t = Dates.instant(s);
    if (t == null) {
      throw new IllegalArgumentException(
          "--now must be epoch ms or an ISO-8601 instant (a year up to 9999), got " + s);
    }
    return t;
  }
}
