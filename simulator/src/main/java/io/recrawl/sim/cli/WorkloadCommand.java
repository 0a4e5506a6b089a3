package io.recrawl.sim.cli;

import io.recrawl.sim.workload.BingImporter;
import io.recrawl.sim.workload.CdxHistory;
import io.recrawl.sim.workload.GitHistory;
import io.recrawl.sim.workload.Workload;
import io.recrawl.sim.workload.WorkloadException;
import io.recrawl.sim.workload.WorkloadGenerator;
import io.recrawl.sim.workload.WorkloadWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;

/**
 * {@code bin/recrawl workload generate|import ...}: writes a workload directory for the simulator.
 */
public final class WorkloadCommand {

  private WorkloadCommand() {}

  public static int run(String[] args) throws Exception {
    if (args.length == 0 || !(args[0].equals("generate") || args[0].equals("import"))) {
      System.err.println(usage());
      return 2;
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    try {
      if (args[0].equals("generate")) {
        return generate(rest);
      }
      if (Arrays.asList(rest).contains("--git")) {
        return importGit(rest);
      }
      return Arrays.asList(rest).contains("--cdx") ? importCdx(rest) : importBing(rest);
    } catch (IllegalArgumentException e) {
      System.err.println("recrawl workload: " + e.getMessage());
      System.err.println(usage());
      return 2;
    } catch (WorkloadException e) {
      System.err.println("recrawl workload: " + e.getMessage());
      return 1;
    }
  }

  public static String usage() {
    return String.join(
        "\n",
        "usage: bin/recrawl workload generate --pages N --hosts H --seed S --out DIR",
        "         [--family lognormal|bimodal|pareto|zipf-tight]                             change-rate family, with its own",
        "                                                                                    weights and host sizes (docs/simulator.md)",
        "         [--rate-median 0.2] [--rate-sigma 1.5] [--rate-min 0.001] [--rate-max 20]   log-normal change rates, per day",
        "         [--weight-alpha 1.5]                                                       Pareto weights (heavy tail)",
        "         [--zipf 1.0]                                                               Zipf host sizes",
        "         [--constrained-fraction 0.3] [--constrained-per-page 0.05] [--constrained-base 1]",
        "                                   limited hosts allow base + per-page x pages crawls/day",
        "       bin/recrawl workload import --bing DIR --out DIR [--constrained-per-page 0.05] [--constrained-base 1]",
        "         [--min-weight 0.001]      the Bing PoliteCrawling layout (four TSV files)",
        "       bin/recrawl workload import --git REPO --out DIR [--path-filter REGEX] [--url-prefix https://git.example/]",
        "         [--replace-suffix .md=.html] [--weight 1] [--host-max-rate R] [--since YYYY-MM-DD]",
        "                                   a git history: each file a page, each commit that touches it a change",
        "                                   (changes.csv; simulate --changes trace replays them)",
        "       bin/recrawl workload import --cdx FILE --out DIR [--min-captures 3] [--max-capture-gap 1] [--weight 1]",
        "         [--host-max-rate R]       a crawl archive's CDX or CDXJ index (gzip or not), sorted by URL key: each URL",
        "                                   captured at least --min-captures times, at most --max-capture-gap days apart",
        "                                   (median), a page; a changed digest a change, half way between its captures");
  }

  private static int generate(String[] args) throws Exception {
    SimOptions o = new SimOptions(args, Set.of(), Set.of());
    WorkloadGenerator.Options g =
        WorkloadGenerator.Options.of(
            WorkloadGenerator.Family.parse(o.string("family", "lognormal")));
    g.pages = (int) o.integer("pages", g.pages);
    g.hosts = (int) o.integer("hosts", g.hosts);
    g.seed = o.integer("seed", g.seed);
    g.rateMedian = o.number("rate-median", g.rateMedian);
    g.rateSigma = o.number("rate-sigma", g.rateSigma);
    g.rateMin = o.number("rate-min", g.rateMin);
    g.rateMax = o.number("rate-max", g.rateMax);
    g.weightAlpha = o.number("weight-alpha", g.weightAlpha);
    g.zipf = o.number("zipf", g.zipf);
    g.constrainedFraction = o.number("constrained-fraction", g.constrainedFraction);
    g.constrainedPerPage = o.number("constrained-per-page", g.constrainedPerPage);
    g.constrainedBase = o.number("constrained-base", g.constrainedBase);
    Path out = Path.of(o.required("out"));
    o.rejectUnknown();
    Workload w = WorkloadGenerator.generate(g);
    WorkloadWriter.write(w, out);
    System.err.printf(
        "wrote %s: %s, %,d pages on %,d hosts, %,d limited%n",
        out, g.family.cliName(), w.pages(), w.hosts(), w.constrainedHosts());
    return 0;
  }

  private static int importBing(String[] args) throws Exception {
    SimOptions o = new SimOptions(args, Set.of(), Set.of());
    BingImporter.Options b = new BingImporter.Options();
    Path in = Path.of(o.required("bing"));
    Path out = Path.of(o.required("out"));
    b.constrainedPerPage = o.number("constrained-per-page", b.constrainedPerPage);
    b.constrainedBase = o.number("constrained-base", b.constrainedBase);
    b.minWeight = o.number("min-weight", b.minWeight);
    o.rejectUnknown();
    BingImporter importer = new BingImporter(b);
    Workload w = importer.load(in);
    WorkloadWriter.write(w, out);
    BingImporter.Summary s = importer.summary();
    System.err.printf(
        "wrote %s: %,d pages on %,d hosts, %,d limited; skipped %,d URLs without history and %,d without "
            + "importance; raised %,d weights to --min-weight%n",
        out,
        s.imported(),
        w.hosts(),
        s.constrainedHosts(),
        s.noHistory(),
        s.noImportance(),
        s.raisedWeights());
    return 0;
  }

  private static int importGit(String[] args) throws Exception {
    SimOptions o = new SimOptions(args, Set.of(), Set.of());
    GitHistory.Options g = new GitHistory.Options();
    g.repo = Path.of(o.required("git"));
    Path out = Path.of(o.required("out"));
    String filter = o.string("path-filter", null);
    if (filter != null) {
      try {
        g.pathFilter = java.util.regex.Pattern.compile(filter);
      } catch (java.util.regex.PatternSyntaxException bad) {
        throw new IllegalArgumentException(
            "--path-filter is not a regular expression: " + bad.getMessage());
      }
    }
    g.urlPrefix = o.string("url-prefix", g.urlPrefix);
    g.replaceSuffix = o.string("replace-suffix", null);
    if (g.replaceSuffix != null && g.replaceSuffix.indexOf('=') <= 0) {
      throw new IllegalArgumentException("--replace-suffix takes FROM=TO, e.g. .md=.html");
    }
    g.weight = weight(o, g.weight);
    g.hostMaxRate = hostMaxRate(o, g.hostMaxRate);
    String since = o.string("since", null);
    if (since != null) {
      try {
        g.sinceEpochSeconds =
            java.time.LocalDate.parse(since).atStartOfDay(java.time.ZoneOffset.UTC).toEpochSecond();
      } catch (java.time.format.DateTimeParseException bad) {
        throw new IllegalArgumentException("--since takes a date, YYYY-MM-DD; got '" + since + "'");
      }
    }
    o.rejectUnknown();
    GitHistory history = new GitHistory(g);
    Workload w = history.load();
    WorkloadWriter.write(w, out);
    GitHistory.Summary s = history.summary();
    System.err.printf(
        java.util.Locale.ROOT,
        "wrote %s: %,d pages on %,d hosts from %,d commits over %.1f days; %,d changes (%,d touches,"
            + " those of one instant merged), %,d touches outside --path-filter%n",
        out,
        w.pages(),
        w.hosts(),
        s.commits(),
        s.spanDays(),
        s.changes(),
        s.touches(),
        s.filteredOut());
    return 0;
  }

  private static int importCdx(String[] args) throws Exception {
    SimOptions o = new SimOptions(args, Set.of(), Set.of());
    CdxHistory.Options c = new CdxHistory.Options();
    c.file = Path.of(o.required("cdx"));
    Path out = Path.of(o.required("out"));
    c.minCaptures = (int) o.integer("min-captures", c.minCaptures);
    if (c.minCaptures < 2) {
      throw new IllegalArgumentException("--min-captures must be at least 2");
    }
    c.maxMedianGapDays = o.number("max-capture-gap", c.maxMedianGapDays);
    if (!(c.maxMedianGapDays > 0)) {
      throw new IllegalArgumentException("--max-capture-gap must be > 0 (days)");
    }
    c.weight = weight(o, c.weight);
    c.hostMaxRate = hostMaxRate(o, c.hostMaxRate);
    o.rejectUnknown();
    CdxHistory history = new CdxHistory(c);
    Workload w = history.load();
    WorkloadWriter.write(w, out);
    CdxHistory.Summary s = history.summary();
    for (String bad : s.bad()) {
      System.err.println("recrawl workload: bad line " + bad);
    }
    System.err.printf(
        java.util.Locale.ROOT,
        "wrote %s: %,d pages on %,d hosts over %.1f days, from %,d lines: %,d captures of pages,"
            + " %,d of other statuses, %,d bad lines; %,d URLs, %,d too sparsely captured%n",
        out,
        s.kept(),
        w.hosts(),
        s.spanDays(),
        s.lines(),
        s.captures(),
        s.otherStatus(),
        s.badLines(),
        s.urls(),
        s.sparse());
    return 0;
  }

  /** A history's {@code --weight}: every page's. */
  private static double weight(SimOptions o, double fallback) {
    double w = o.number("weight", fallback);
    if (!(w > 0) || Double.isInfinite(w)) {
      throw new IllegalArgumentException("--weight must be a finite number > 0");
    }
    return w;
  }

  /** A history's {@code --host-max-rate}: every host's limit. */
  private static double hostMaxRate(SimOptions o, double fallback) {
    double r = o.number("host-max-rate", fallback);
    if (!(r > 0)) {
      throw new IllegalArgumentException("--host-max-rate must be > 0 (crawls a day)");
    }
    return r;
  }
}
