package io.recrawl.live;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@code bench live --suite}: one live run per web, over every family and several seeds, then each
 * system's margin against recrawl (mean and worst, with and without the heaviest 1 % of pages) and
 * recrawl's live/simulated ratio. The runs' own outputs stay in one directory each.
 */
public final class LiveSuite {

  /** The workload families, as {@code --family} names them. */
  public static final List<String> FAMILIES = List.of("lognormal", "bimodal", "pareto");

  /** One web of the suite and what its run measured. */
  public record Web(String name, LiveBench.Options options, LiveBench.Result result) {

    LiveFigures recrawl() {
      return result.figures().get(LiveSystems.RECRAWL);
    }

    double budgetUsed(String system) {
      return result.figures().get(system).fetches() / options.windowSeconds() / options.budget;
    }

    double liveOverSimulated(String system) {
      Double sim = result.simulated().get(LivePrediction.policyOf(system));
      return sim == null ? Double.NaN : result.figures().get(system).freshness() / sim;
    }

    /** recrawl's freshness minus the system's, as {@code freshness} reads them. */
    double margin(String system, ToDoubleFunction<LiveFigures> freshness) {
      return freshness.applyAsDouble(recrawl())
          - freshness.applyAsDouble(result.figures().get(system));
    }
  }

  private LiveSuite() {}

  /** Runs every web in turn; {@code webs} gives each one's options. */
  public static List<Web> run(Map<String, LiveBench.Options> webs, Path out, PrintStream log)
      throws Exception {
    List<Web> done = new ArrayList<>();
    for (Map.Entry<String, LiveBench.Options> e : webs.entrySet()) {
      log.printf("suite: web %d of %d, %s%n", done.size() + 1, webs.size(), e.getKey());
      LiveBench.Result r = LiveBench.run(e.getValue(), log);
      done.add(new Web(e.getKey(), e.getValue(), r));
      // written after every web, so that a suite cut short keeps what it measured
      Files.createDirectories(out);
      Files.writeString(out.resolve("suite.md"), table(done));
    }
    log.print(table(done));
    log.println("suite: wrote " + out.resolve("suite.md"));
    return done;
  }

  /** Each web's figures, then each system's margin against recrawl over the webs. */
  static String table(List<Web> webs) {
    StringBuilder b = new StringBuilder();
    List<String> systems = new ArrayList<>(webs.get(0).result().figures().keySet());
    b.append("| web | system | freshness | without heaviest 1 % | budget used | violations |")
        .append(" in Retry-After | live / simulated |\n");
    b.append("|---|---|---|---|---|---|---|---|\n");
    for (Web w : webs) {
      for (String s : systems) {
        LiveFigures f = w.result().figures().get(s);
        double ratio = w.liveOverSimulated(s);
        b.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %.4f | %.4f | %.0f %% | %d | %d | %s |%n",
                w.name(),
                s,
                f.freshness(),
                f.freshnessLight(),
                100 * w.budgetUsed(s),
                f.politenessViolations(),
                f.inRetryAfter(),
                Double.isNaN(ratio) ? "–" : String.format(Locale.ROOT, "%.3f", ratio)));
      }
    }
    if (!systems.contains(LiveSystems.RECRAWL)) {
      return b.toString();
    }
    b.append("\n| system | mean margin | worst margin | mean, without heaviest 1 % |")
        .append(" worst, without heaviest 1 % | mean budget used |\n");
    b.append("|---|---|---|---|---|---|\n");
    for (String s : systems) {
      double[] all = webs.stream().mapToDouble(w -> w.margin(s, LiveFigures::freshness)).toArray();
      double[] light =
          webs.stream().mapToDouble(w -> w.margin(s, LiveFigures::freshnessLight)).toArray();
      double spend = mean(webs.stream().mapToDouble(w -> w.budgetUsed(s)).toArray());
      b.append(
          s.equals(LiveSystems.RECRAWL)
              ? String.format(Locale.ROOT, "| %s | – | – | – | – | %.0f %% |%n", s, 100 * spend)
              : String.format(
                  Locale.ROOT,
                  "| %s | %s | %s | %s | %s | %.0f %% |%n",
                  s,
                  signed(mean(all)),
                  signed(min(all)),
                  signed(mean(light)),
                  signed(min(light)),
                  100 * spend));
    }
    double[] ratio =
        webs.stream().mapToDouble(w -> w.liveOverSimulated(LiveSystems.RECRAWL)).toArray();
    b.append(
        String.format(
            Locale.ROOT,
            "%nrecrawl live / simulated: mean %.3f, worst %.3f over %d webs; a margin is recrawl's"
                + " freshness minus the system's (positive: recrawl ahead)%n",
            mean(ratio),
            min(ratio),
            webs.size()));
    return b.toString();
  }

  private static double mean(double[] v) {
    double s = 0;
    int n = 0;
    for (double x : v) {
      if (!Double.isNaN(x)) {
        s += x;
        n++;
      }
    }
    return n == 0 ? Double.NaN : s / n;
  }

  private static double min(double[] v) {
    double m = Double.NaN;
    for (double x : v) {
      m = Double.isNaN(m) || x < m ? x : m;
    }
    return m;
  }

  private static String signed(double v) {
    return String.format(Locale.ROOT, "%+.4f", v);
  }
}
