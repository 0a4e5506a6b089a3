package io.recrawl.sim.cli;

import io.recrawl.sim.whatif.WhatIf;
import io.recrawl.sim.whatif.WhatIfReport;
import io.recrawl.sim.workload.CdxHistory;
import io.recrawl.sim.workload.WorkloadException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/** {@code bin/recrawl whatif --cdx FILE}: what recrawl would give a crawl, from its captures. */
public final class WhatIfCommand {

  private WhatIfCommand() {}

  public static String usage() {
    return String.join(
        "\n",
        "usage: bin/recrawl whatif --cdx FILE [--out whatif.html] [--min-captures 2] [--draws 50] [--seed 1]",
        "  from a crawl's own captures (a CDX or CDXJ index, gzip or not, sorted by URL key): each page's",
        "  change rate, then the freshness of the crawl's schedule beside recrawl's at the same fetches",
        "  and host limits, with a 90 % range; an HTML report");
  }

  public static int run(String[] args) throws Exception {
    try {
      SimOptions o = new SimOptions(args, Set.of(), Set.of());
      CdxHistory.Options c = new CdxHistory.Options();
      c.file = Path.of(o.required("cdx"));
      Path out = Path.of(o.string("out", "whatif.html"));
      WhatIf.Options w = new WhatIf.Options();
      w.minCaptures = (int) o.integer("min-captures", w.minCaptures);
      w.draws = (int) o.integer("draws", w.draws);
      w.seed = o.integer("seed", w.seed);
      if (w.minCaptures < 2) {
        throw new IllegalArgumentException("--min-captures must be at least 2");
      }
      if (w.draws < 2) {
        throw new IllegalArgumentException("--draws must be at least 2");
      }
      o.rejectUnknown();
      WhatIf.Result r = new WhatIf(w).estimate(new CdxHistory(c));
      for (String bad : r.read().bad()) {
        System.err.println("recrawl whatif: bad line " + bad);
      }
      Files.writeString(out, WhatIfReport.html(c.file.toString(), r), StandardCharsets.UTF_8);
      System.err.printf(
          Locale.ROOT,
          "recrawl whatif: %,d pages on %,d hosts, %,.1f fetches a day (%,d bad lines); freshness"
              + " %.4f with this crawl's schedule, %.4f with recrawl's (gain %.4f, 90 %% range %.4f"
              + " to %.4f); %s%n",
          r.pages(),
          r.hosts(),
          r.budgetPerDay(),
          r.read().badLines(),
          r.actual(),
          r.recrawl(),
          r.gain(),
          r.gainRange()[0],
          r.gainRange()[1],
          out);
      return 0;
    } catch (IllegalArgumentException e) {
      System.err.println("recrawl whatif: " + e.getMessage());
      System.err.println(usage());
      return 2;
    } catch (WorkloadException e) {
      System.err.println("recrawl whatif: " + e.getMessage());
      return 1;
    }
  }
}
