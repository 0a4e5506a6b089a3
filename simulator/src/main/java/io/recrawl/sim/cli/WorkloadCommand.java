package io.recrawl.sim.cli;

import io.recrawl.sim.workload.BingImporter;
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
      return args[0].equals("generate") ? generate(rest) : importBing(rest);
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
        "         [--min-weight 0.001]      the Bing PoliteCrawling layout (four TSV files)");
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
}
