package io.recrawl.flink.tools.frontier;

import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.GlobalLambdaController;
import io.recrawl.engine.HostEngine;
import io.recrawl.flink.scheduler.StateBootstrap;
import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.GZIPInputStream;

/**
 * {@code bin/recrawl import}: reads an existing frontier, checks every row, builds each host's
 * state with the engine and writes it as a savepoint the job starts from. Bad rows go to the reject
 * file; a file with more than {@code maxBadShare} of them is refused and no savepoint is written.
 * Good rows are spilled in {@link PagePartitions} by host and built a partition at a time, so the
 * heap holds one partition, not the frontier.
 */
public final class FrontierImport {

  /**
   * What to import and how.
   *
   * @param engineSettings the job's {@code recrawl.engine} settings
   * @param lambda0 the job's {@code recrawl.global-lambda}
   * @param maxParallelism the job's {@code recrawl.max-parallelism}
   * @param parallelism threads that check rows, and of the job that writes the savepoint
   * @param progressEveryMs how often a progress line is printed
   * @param partitionBytes about how many bytes of the input's rows are built at a time (each
   *     partition's pages are in memory together)
   * @param budget the job's {@code recrawl.controller.budget}, crawls a day (0 = none)
   * @param tmpDir where the import's temporary files go (null: the system's temporary directory)
   */
  public record Options(
      Path in,
      FrontierFormat format,
      String savepoint,
      Path rejects,
      double maxBadShare,
      ImportSettings settings,
      Map<String, ?> engineSettings,
      double lambda0,
      int maxParallelism,
      int parallelism,
      long progressEveryMs,
      long partitionBytes,
      double budget,
      Path tmpDir) {}

  /**
   * What an import did.
   *
   * @param savepoint the savepoint written, or null when the file was refused
   * @param readSeconds reading and checking the rows
   * @param buildSeconds building the hosts' state with the engine
   * @param writeSeconds writing the savepoint
   */
  public record Summary(
      long rows,
      long good,
      long bad,
      Map<String, Long> badByReason,
      int hosts,
      String savepoint,
      double readSeconds,
      double buildSeconds,
      double writeSeconds) {

    public boolean refused() {
      return savepoint == null;
    }

    public double seconds() {
      return readSeconds + buildSeconds + writeSeconds;
    }

    public String describe() {
      return String.format(
          Locale.ROOT,
          "%,d rows: %,d imported on %,d hosts, %,d bad %s; %.1f s (read %.1f, build %.1f, write"
              + " %.1f), %,.0f rows/s",
          rows,
          good,
          hosts,
          bad,
          badByReason,
          seconds(),
          readSeconds,
          buildSeconds,
          writeSeconds,
          rows / Math.max(1e-9, seconds()));
    }
  }

  private FrontierImport() {}

  public static Summary run(Options o, PrintStream log) throws Exception {
    EngineConfig cfg = EngineConfig.fromMap(o.engineSettings(), "recrawl.engine.");
    PageImport pages = new PageImport(o.settings(), cfg.maxFetchErrors);
    long t0 = System.nanoTime();
    int partitions = PagePartitions.countFor(rowBytes(o.in()), o.partitionBytes());
    try (Rejects rejects = new Rejects(o.rejects());
        PagePartitions spill = new PagePartitions(partitions, o.tmpDir())) {
      long rows = readRows(o, pages, rejects, spill, log);
      double readSeconds = (System.nanoTime() - t0) / 1e9;
      if (refused(o, rows, rejects.count(), log)) {
        return summary(rows, rejects, 0, null, readSeconds, 0, 0);
      }
      long t1 = System.nanoTime();
      long toBuild = rows - rejects.count();
      double lambda0 = o.lambda0();
      if (o.settings().firstDue() == ImportSettings.FirstDue.VALUE && o.budget() > 0) {
        // Pages are planned at a price: the budget's, from every host's demand, which a first
        // build finds (demand does not depend on the price the pages are planned at).
        HostImporter pricing = importer(o, lambda0);
        buildHosts(spill, pricing, null, null, toBuild, "priced", o, log);
        lambda0 = budgetPrice(cfg, o.budget(), pricing.demand());
        log.printf(
            Locale.ROOT,
            "recrawl import: --first-due value: pages planned at the budget's price, a global"
                + " lambda of %.4g%n",
            lambda0);
      }
      HostImporter importer = importer(o, lambda0);
      try (ImportedSavepoint savepoint = new ImportedSavepoint(o.tmpDir())) {
        Built built = buildHosts(spill, importer, rejects, savepoint, toBuild, "built", o, log);
        double buildSeconds = (System.nanoTime() - t1) / 1e9;
        advisePrice(o, cfg, importer.demand(), log);
        // Duplicates are known only now; the engine's own refusals do not count against the file.
        if (refused(o, rows, rejects.count() - built.refusedByEngine(), log)) {
          return summary(rows, rejects, built.hosts(), null, readSeconds, buildSeconds, 0);
        }
        long t2 = System.nanoTime();
        log.printf(
            Locale.ROOT,
            "recrawl import: writing the savepoint: %,d hosts, %,d rows%n",
            built.hosts(),
            rows - rejects.count());
        String written =
            savepoint.write(
                o.savepoint(),
                o.maxParallelism(),
                o.parallelism(),
                StateBootstrap.engineSettingsEntry(
                    o.engineSettings(), o.settings().mode().configName()),
                o.settings().now());
        double writeSeconds = (System.nanoTime() - t2) / 1e9;
        return summary(
            rows, rejects, built.hosts(), written, readSeconds, buildSeconds, writeSeconds);
      }
    }
  }

  private static Summary summary(
      long rows,
      Rejects rejects,
      int hosts,
      String savepoint,
      double readSeconds,
      double buildSeconds,
      double writeSeconds) {
    return new Summary(
        rows,
        rows - rejects.count(),
        rejects.count(),
        new TreeMap<>(rejects.byReason()),
        hosts,
        savepoint,
        readSeconds,
        buildSeconds,
        writeSeconds);
  }

  /** What the build did: the hosts it wrote and the pages the engine refused. */
  private record Built(int hosts, long refusedByEngine) {}

  private static HostImporter importer(Options o, double lambda0) {
    return new HostImporter(
        new HostEngine(buildConfig(o)), o.settings().now(), lambda0, o.settings().firstDue());
  }

  /**
   * Builds the hosts of one partition at a time (its pages in memory, each URL once: later copies
   * go to the reject file) and adds them to the savepoint; with a null savepoint and reject file,
   * only builds them (for their demand).
   */
  private static Built buildHosts(
      PagePartitions spill,
      HostImporter importer,
      Rejects rejects,
      ImportedSavepoint savepoint,
      long toBuild,
      String what,
      Options o,
      PrintStream log)
      throws IOException {
    int hosts = 0;
    long refusedByEngine = 0;
    long[] read = {0};
    Progress progress =
        new Progress(log, what, toBuild, "rows", () -> read[0], o.progressEveryMs());
    for (int i = 0; i < spill.count(); i++) {
      Map<String, List<ImportedPage>> byHost = new TreeMap<>();
      Map<String, Long> seen = new HashMap<>();
      spill.read(
          i,
          (page, raw) -> {
            read[0]++;
            Long first = seen.putIfAbsent(page.url(), page.line());
            if (first != null) {
              if (rejects != null) {
                rejects.add(
                    new BadRow(
                        page.line(), "duplicate_url", "the URL of line " + first + " again", raw));
              }
              return;
            }
            byHost.computeIfAbsent(page.host(), h -> new ArrayList<>()).add(page);
          });
      for (Map.Entry<String, List<ImportedPage>> e : byHost.entrySet()) {
        List<BadRow> refused = new ArrayList<>();
        RecordingHostStore state = importer.build(e.getKey(), e.getValue(), refused::add);
        if (savepoint == null) {
          continue;
        }
        for (BadRow b : refused) {
          rejects.add(b);
        }
        refusedByEngine += refused.size();
        if (state.host() != null) {
          savepoint.add(e.getKey(), state);
          hosts++;
        }
      }
      progress.update(read[0]);
    }
    return new Built(hosts, refusedByEngine);
  }

  /**
   * Reads and checks every row, in order: bad ones go to the reject file, good ones to their host's
   * partition. Returns the number of rows.
   */
  private static long readRows(
      Options o, PageImport pages, Rejects rejects, PagePartitions spill, PrintStream log)
      throws Exception {
    long rows = 0;
    try (Counting counted = new Counting(Files.newInputStream(o.in()));
        BufferedReader reader =
            RowSource.utf8(gzipped(o.in()) ? new GZIPInputStream(counted, 1 << 16) : counted)) {
      Progress progress =
          new Progress(
              log, "read", Files.size(o.in()), "bytes", () -> counted.count, o.progressEveryMs());
      RowSource source = RowSource.of(o.format(), reader);
      int threads = Math.max(1, o.parallelism());
      ExecutorService pool = Executors.newFixedThreadPool(threads, FrontierImport::checker);
      try {
        // Records are cut in order here and checked in batches on the pool; results are taken in
        // order, so line numbers and the reject file are as a single thread's.
        ArrayDeque<Future<Object[]>> pending = new ArrayDeque<>();
        boolean more = true;
        while (true) {
          while (more && pending.size() < 2 * threads) {
            List<RowSource.Record> batch = new ArrayList<>(BATCH);
            RowSource.Record r;
            while (batch.size() < BATCH && (r = source.nextRecord()) != null) {
              batch.add(r);
            }
            more = batch.size() == BATCH;
            if (!batch.isEmpty()) {
              pending.add(pool.submit(() -> check(source, pages, batch)));
            }
          }
          if (pending.isEmpty()) {
            return rows;
          }
          for (Object checked : result(pending.poll())) {
            rows++;
            progress.update(rows);
            if (checked instanceof BadRow b) {
              rejects.add(b);
            } else {
              Checked c = (Checked) checked;
              spill.add(c.page(), c.raw());
            }
          }
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }

  /**
   * Says what the imported hosts' demand makes the price of the budget, the controller's first
   * price, and whether the job's start price ({@code recrawl.global-lambda}, until the controller's
   * first period) is near it; without a budget, warns when {@code --first-due value} planned every
   * page at a price of 0. Returns the budget's price (NaN without a budget).
   */
  static double advisePrice(Options o, EngineConfig cfg, double[] demand, PrintStream log) {
    if (!(o.budget() > 0)) {
      if (o.settings().firstDue() == ImportSettings.FirstDue.VALUE && !(o.lambda0() > 0)) {
        log.println(
            "recrawl import: warning: --first-due value with recrawl.global-lambda 0 and no"
                + " recrawl.controller.budget: no page is under that price, so every page will be"
                + " due when the job starts; set recrawl.global-lambda near the job's price");
      }
      return Double.NaN;
    }
    double price = budgetPrice(cfg, o.budget(), demand);
    log.printf(
        Locale.ROOT,
        "recrawl import: these hosts' demand prices recrawl.controller.budget (%,.0f crawls a day)"
            + " at a global lambda of %.4g%n",
        o.budget(),
        price);
    // A price of 0: the hosts ask for less than the budget.
    boolean near =
        price > 0 ? Math.abs(Math.log(o.lambda0() / price)) < PRICE_TOLERANCE : o.lambda0() == 0;
    if (!near) {
      log.printf(
          Locale.ROOT,
          "recrawl import: the job starts at recrawl.global-lambda (%.4g) until the controller's"
              + " first period: set recrawl.global-lambda: %.4g to start at the budget's price%n",
          o.lambda0(),
          price);
    }
    return price;
  }

  /** The controller's first price of {@code budget} over summed capped demand. */
  static double budgetPrice(EngineConfig cfg, double budget, double[] demand) {
    return new GlobalLambdaController(cfg.grid, budget, 1.0).update(demand, Double.NaN);
  }

  /** How far (in log) the job's start price may be from the budget's before the import says so. */
  static final double PRICE_TOLERANCE = 0.25;

  /** A file whose name ends in {@code .gz} is read (and exported) through gzip. */
  public static boolean gzipped(Path in) {
    return in.getFileName().toString().endsWith(".gz");
  }

  /**
   * About how many bytes of rows the file holds: its size, or ten times it when gzipped (JSON and
   * CSV rows of a status index shrink about tenfold), so that parts are no larger than asked.
   */
  private static long rowBytes(Path in) throws IOException {
    long size = Files.size(in);
    return gzipped(in) ? size * GZIP_RATIO : size;
  }

  private static final int GZIP_RATIO = 10;

  /** Whether the file has more bad rows than {@code --max-bad-share} allows; says so if it has. */
  private static boolean refused(Options o, long rows, long bad, PrintStream log) {
    if (rows == 0 || bad <= o.maxBadShare() * rows) {
      return false;
    }
    log.printf(
        Locale.ROOT,
        "recrawl import: refused: %,d of %,d rows are bad (%.2f%%), more than --max-bad-share"
            + " %s; see %s%n",
        bad,
        rows,
        100.0 * bad / rows,
        o.maxBadShare(),
        o.rejects());
    return true;
  }

  /** Records checked in one task. */
  private static final int BATCH = 2_000;

  /** A good row, with its text in case it repeats an earlier URL. */
  private record Checked(ImportedPage page, String raw) {}

  /** Parses and checks a batch of records: each becomes a {@link Checked} or a {@link BadRow}. */
  private static Object[] check(RowSource source, PageImport pages, List<RowSource.Record> batch) {
    Object[] out = new Object[batch.size()];
    for (int i = 0; i < out.length; i++) {
      Object parsed = source.parse(batch.get(i));
      if (parsed instanceof FrontierRow row) {
        try {
          parsed = new Checked(pages.page(row), row.raw());
        } catch (RowRejection r) {
          parsed = r.toBadRow(row.line(), row.raw());
        }
      }
      out[i] = parsed;
    }
    return out;
  }

  private static Object[] result(Future<Object[]> f) throws Exception {
    try {
      return f.get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception x ? x : e;
    }
  }

  private static Thread checker(Runnable r) {
    Thread t = new Thread(r, "recrawl-import-check");
    t.setDaemon(true);
    return t;
  }

  /**
   * The engine the state is built with: the job's, but without push-back. A frontier holds each
   * URL's last status, not the host's history of answers, so its errors are not news of the host
   * now: judged in import order they could mark a host down and leave pages without their status.
   * The job learns the hosts' answers anew from the crawler's statuses (crawl-delays still count).
   */
  private static EngineConfig buildConfig(Options o) {
    Map<String, Object> m = new HashMap<>(o.engineSettings());
    m.put("politeness.push-back", false);
    return EngineConfig.fromMap(m, "recrawl.engine.");
  }

  /** Counts the bytes read, for the progress line's estimate. */
  private static final class Counting extends FilterInputStream {
    volatile long count;

    Counting(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }
}
