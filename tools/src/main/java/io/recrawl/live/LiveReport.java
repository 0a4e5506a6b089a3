package io.recrawl.live;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.recrawl.sim.PolicyRun;
import io.recrawl.sim.SvgChart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The live benchmark's summary table, results.json and report.html. */
final class LiveReport {

  private final LiveBench.Options o;
  private final LiveWeb web;
  private final LiveTuning tuning;
  private final LivePrediction prediction;
  private final Map<String, LiveFigures> figures;
  private final Map<LiveFault, FaultRecovery> faults;
  private final Map<String, PolicyRun> gap;

  /** The door's pull through a capacity spell; null without one. */
  private final PullRecord pull;

  LiveReport(
      LiveBench.Options o,
      LiveWeb web,
      LiveTuning tuning,
      LivePrediction prediction,
      Map<String, LiveFigures> figures,
      Map<LiveFault, FaultRecovery> faults,
      Map<String, PolicyRun> gap,
      PullRecord pull) {
    this.pull = pull;
    this.o = o;
    this.web = web;
    this.tuning = tuning;
    this.prediction = prediction;
    this.figures = figures;
    this.faults = faults;
    this.gap = gap;
  }

  private double window() {
    return o.windowSeconds();
  }

  private double optimum() {
    return prediction.optimum.weightedFreshness;
  }

  /** The simulated freshness of the policy that models a system, or NaN. */
  private double simulated(String system) {
    String p = LivePrediction.policyOf(system);
    PolicyRun r = p == null ? null : prediction.runs.get(p);
    return r == null ? Double.NaN : r.weightedFreshness;
  }

  private double simulatedFetchesPerSecond(PolicyRun r) {
    return r.crawlsPerDay / o.web.secondsPerDay;
  }

  String table() {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "%nlive freshness over [%s s, %s s], budget %s fetches/s; optimum (exact static"
                + " solver) %.4f%n",
            LiveBench.fmt(o.warmupSeconds),
            LiveBench.fmt(o.web.durationSeconds),
            LiveBench.fmt(o.budget),
            optimum()));
    b.append(
        String.format(
            Locale.ROOT,
            "%-22s %9s %7s %8s %9s %7s %6s %8s %6s %6s %9s %8s%n",
            "system",
            "freshness",
            "/opt",
            "fetches",
            "fetches/s",
            "budget",
            "viol.",
            "gap/lim",
            "in RA",
            "<delay",
            "simulated",
            "live/sim"));
    for (LiveFigures f : figures.values()) {
      double perSecond = f.fetches() / window();
      double sim = simulated(f.system());
      b.append(
          String.format(
              Locale.ROOT,
              "%-22s %9.4f %7.4f %8d %9.2f %6.0f%% %6d %8.2f %6d %6d %9s %8s%n",
              f.system(),
              f.freshness(),
              f.freshness() / optimum(),
              f.fetches(),
              perSecond,
              100 * perSecond / o.budget,
              f.politenessViolations(),
              f.minGapOverLimit(),
              f.inRetryAfter(),
              f.underCrawlDelay(),
              Double.isNaN(sim) ? "-" : String.format(Locale.ROOT, "%.4f", sim),
              Double.isNaN(sim) ? "-" : String.format(Locale.ROOT, "%.4f", f.freshness() / sim)));
    }
    if (pull != null) {
      b.append(
          String.format(
              Locale.ROOT,
              "%n%s's pull through the capacity spell [%s s, %s s]: the budget came within %.2fx"
                  + " of the halved capacity after %s, of the whole again after %s; at most %d URLs"
                  + " waited in the outbox after the warm-up%n",
              LiveSystems.RECRAWL_FRONTIER,
              SvgChart.fmt(pull.spell()[0]),
              SvgChart.fmt(pull.spell()[1]),
              PullRecord.FOLLOWED,
              seconds(pull.secondsToFollowTheHalving()),
              seconds(pull.secondsToFollowTheDoubling()),
              pull.mostWaiting(o.warmupSeconds)));
    }
    if (!faults.isEmpty()) {
      b.append(
          String.format(
              Locale.ROOT,
              "%nfaults in recrawl's loop (violations above cover the whole run)%n%-14s %9s %10s"
                  + " %9s %9s %9s %11s%n",
              "fault",
              "silence",
              "recovery",
              "pages due",
              "p99 late",
              "max late",
              "not again"));
      faults.forEach(
          (f, r) ->
              b.append(
                  String.format(
                      Locale.ROOT,
                      "%-14s %8.1fs %9.1fs %9d %8.1fs %8.1fs %11d%n",
                      f,
                      r.silenceSeconds(),
                      r.recoverySeconds(),
                      r.pagesDue(),
                      r.p99LateSeconds(),
                      r.maxLateSeconds(),
                      r.notFetchedAgain())));
    }
    if (!prediction.runs.isEmpty()) {
      b.append(String.format(Locale.ROOT, "%nsimulated (same workload, limits, budget, window)%n"));
      b.append(
          String.format(
              Locale.ROOT, "%-22s %9s %7s %9s%n", "policy", "freshness", "/opt", "fetches/s"));
      for (PolicyRun r : prediction.runs.values()) {
        b.append(
            String.format(
                Locale.ROOT,
                "%-22s %9.4f %7.4f %9.2f%n",
                r.policy,
                r.weightedFreshness,
                r.weightedFreshness / optimum(),
                simulatedFetchesPerSecond(r)));
      }
    }
    LiveFigures job = figures.get(LiveSystems.RECRAWL);
    if (!gap.isEmpty() && job != null) {
      double sim = simulated(LiveSystems.RECRAWL);
      b.append(
          String.format(
              Locale.ROOT,
              "%nrecrawl's gap, simulated %.4f to live %.4f, by cause (the simulator's crawl-value)%n",
              sim,
              job.freshness()));
      double before = sim;
      for (Map.Entry<String, PolicyRun> e : gap.entrySet()) {
        double f = e.getValue().weightedFreshness;
        b.append(
            String.format(
                Locale.ROOT,
                "  %-28s %.4f  %+.4f  (%.2f fetches/s)%n",
                e.getKey(),
                f,
                f - before,
                simulatedFetchesPerSecond(e.getValue())));
        before = f;
      }
      b.append(
          String.format(
              Locale.ROOT,
              "  %-28s %.4f  %+.4f%n",
              "the rest (live)",
              job.freshness(),
              job.freshness() - before));
    }
    return b.toString();
  }

  Map<String, Object> results() {
    Map<String, Object> root = new LinkedHashMap<>();
    Map<String, Object> w = new LinkedHashMap<>();
    w.put("family", o.web.workload.family.name().toLowerCase(Locale.ROOT));
    w.put("pages", web.workload().pages());
    w.put("hosts", web.workload().hosts());
    w.put("crawl_delay_hosts", web.crawlDelayHosts());
    w.put("seed", o.web.workload.seed);
    w.put("seconds_per_day", o.web.secondsPerDay);
    w.put("validator_share", o.web.validatorShare);
    w.put("slow_share", o.web.slowShare);
    w.put("pushy_share", o.web.pushyShare);
    w.put("crawl_delay_share", o.web.crawlDelayShare);
    root.put("web", w);
    root.put("budget_fetches_per_second", o.budget);
    root.put("duration_seconds", o.web.durationSeconds);
    root.put("warmup_seconds", o.warmupSeconds);
    Map<String, Object> t = new LinkedHashMap<>();
    t.put("job_budget_crawls_per_day", tuning.crawlsPerDay());
    t.put(
        "default_fetch_interval_simulated_minutes",
        LiveTuning.minutes(tuning.defaultIntervalDays()));
    t.put(
        "adaptive_default_simulated_minutes", LiveTuning.minutes(tuning.adaptive().defaultDays()));
    t.put("adaptive_min_simulated_minutes", LiveTuning.minutes(tuning.adaptive().minDays()));
    t.put("adaptive_max_simulated_minutes", LiveTuning.minutes(tuning.adaptive().maxDays()));
    t.put("adaptive_rate_incr", tuning.adaptive().incr());
    t.put("adaptive_rate_decr", tuning.adaptive().decr());
    t.put("crawl_value_scheduler_min_interval_real_minutes", LiveTuning.floorRealMinutes());
    t.put("crawl_value_scheduler_threshold_real_days", tuning.thetaRealDays());
    t.put("prior_rate_per_real_day", tuning.priorRatePerRealDay());
    root.put("tuning", t);
    Map<String, Object> fs = new LinkedHashMap<>();
    faults.forEach((f, r) -> fs.put(f.toString(), r));
    root.put("faults", fs);
    Map<String, Object> g = new LinkedHashMap<>();
    gap.forEach(
        (k, r) ->
            g.put(
                k,
                Map.of(
                    "freshness",
                    r.weightedFreshness,
                    "fetches_per_second",
                    simulatedFetchesPerSecond(r))));
    root.put("recrawl_gap", g);
    Map<String, Object> opt = new LinkedHashMap<>();
    opt.put("weighted_freshness", optimum());
    opt.put("lambda0_simulated_days", prediction.lambda0());
    root.put("optimum", opt);
    Map<String, Object> systems = new LinkedHashMap<>();
    for (LiveFigures f : figures.values()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("freshness", f.freshness());
      m.put("ratio_to_optimum", f.freshness() / optimum());
      m.put("requests", f.requests());
      m.put("fetches", f.fetches());
      m.put("fetches_per_second", f.fetches() / window());
      m.put("budget_used", f.fetches() / window() / o.budget);
      m.put("politeness_violations", f.politenessViolations());
      m.put("min_gap_over_limit", nullIfNaN(f.minGapOverLimit()));
      m.put("in_retry_after", f.inRetryAfter());
      m.put("under_crawl_delay", f.underCrawlDelay());
      m.put("push_back_answers", f.pushBackAnswers());
      m.put("not_modified", f.notModified());
      double sim = simulated(f.system());
      m.put("simulated_policy", LivePrediction.policyOf(f.system()));
      m.put("simulated_freshness", nullIfNaN(sim));
      m.put("live_over_simulated", nullIfNaN(f.freshness() / sim));
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("seconds", f.seriesSeconds());
      s.put("freshness", f.seriesFreshness());
      m.put("series", s);
      systems.put(f.system(), m);
    }
    root.put("systems", systems);
    Map<String, Object> sim = new LinkedHashMap<>();
    for (PolicyRun r : prediction.runs.values()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("freshness", r.weightedFreshness);
      m.put("ratio_to_optimum", r.weightedFreshness / optimum());
      m.put("fetches_per_second", simulatedFetchesPerSecond(r));
      m.put("politeness_violations", r.politenessViolations);
      sim.put(r.policy, m);
    }
    root.put("simulated", sim);
    if (pull != null) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("spell_seconds", pull.spell());
      m.put("capacity_per_second", pull.capacity());
      m.put("seconds_to_follow_halving", nullIfNaN(pull.secondsToFollowTheHalving()));
      m.put("seconds_to_follow_doubling", nullIfNaN(pull.secondsToFollowTheDoubling()));
      m.put("most_waiting_after_warmup", pull.mostWaiting(o.warmupSeconds));
      m.put("seconds", pull.seconds());
      m.put("budget_per_second", pull.budgets());
      m.put("taken_per_second", pull.takenPerSecond());
      m.put("waiting", pull.waiting());
      root.put("pull", m);
    }
    return root;
  }

  private String pullCharts() {
    double[] t = pull.seconds();
    double[] capacity = new double[t.length];
    for (int i = 0; i < t.length; i++) {
      capacity[i] = pull.capacityAt(t[i]);
    }
    SvgChart rate =
        spellChart(
            "the pull's budget and what the crawler took, through a capacity spell",
            "URLs a second");
    rate.line("budget", t, pull.budgets(), SvgChart.COLORS[0], false);
    rate.line("taken", t, pull.takenPerSecond(), SvgChart.COLORS[1], false);
    rate.line("crawler's capacity", t, capacity, "#000000", true);
    SvgChart outbox = spellChart("URLs waiting in the outbox at each period's end", "URLs");
    outbox.line("waiting", t, pull.waiting(), SvgChart.COLORS[2], false);
    return rate.render() + outbox.render();
  }

  /** A chart of the door's pull over time, the capacity spell's ends marked. */
  private SvgChart spellChart(String title, String yLabel) {
    SvgChart c =
        new SvgChart(
            LiveSystems.RECRAWL_FRONTIER + ": " + title,
            "seconds since the start",
            yLabel,
            false,
            false);
    c.marker(pull.spell()[0], "capacity halves");
    c.marker(pull.spell()[1], "capacity doubles");
    return c;
  }

  private static String seconds(double s) {
    return Double.isNaN(s) ? "never" : String.format(Locale.ROOT, "%.0f s", s);
  }

  private static Object nullIfNaN(double v) {
    return Double.isFinite(v) ? v : null;
  }

  void writeJson(Path file) throws IOException {
    new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .writeValue(file.toFile(), results());
  }

  void writeHtml(Path file) throws IOException {
    Files.writeString(file, html(), StandardCharsets.UTF_8);
  }

  String html() {
    StringBuilder sb = new StringBuilder();
    sb.append(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>recrawl live benchmark</title>"
            + "<style>body{font-family:sans-serif;margin:20px;max-width:960px}"
            + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
            + "th:first-child,td:first-child{text-align:left}</style></head><body>\n");
    sb.append("<h1>recrawl live benchmark</h1>\n<p>");
    sb.append(
        String.format(
            Locale.ROOT,
            "A changing web of %,d pages on %,d hosts (%s family, seed %d), one simulated day ="
                + " %s s; every system crawled it for %s s with a budget of %s fetches/s, measured"
                + " at the web server over [%s s, %s s]. Optimum (exact static solver): weighted"
                + " freshness %.4f.</p>%n",
            web.workload().pages(),
            web.workload().hosts(),
            SvgChart.esc(o.web.workload.family.name().toLowerCase(Locale.ROOT)),
            o.web.workload.seed,
            SvgChart.fmt(o.web.secondsPerDay),
            SvgChart.fmt(o.web.durationSeconds),
            SvgChart.fmt(o.budget),
            SvgChart.fmt(o.warmupSeconds),
            SvgChart.fmt(o.web.durationSeconds),
            optimum()));
    sb.append(
        "<table><tr><th>system</th><th>live freshness</th><th>ratio to optimum</th>"
            + "<th>fetches</th><th>fetches/s</th><th>politeness violations</th>"
            + "<th>min gap / limit</th><th>requests in Retry-After</th><th>under crawl-delay</th>"
            + "<th>simulated</th><th>live / simulated</th></tr>\n");
    for (LiveFigures f : figures.values()) {
      double sim = simulated(f.system());
      sb.append(
          String.format(
              Locale.ROOT,
              "<tr><td>%s</td><td>%.4f</td><td>%.4f</td><td>%,d</td><td>%.2f</td><td>%d</td>"
                  + "<td>%.2f</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td></tr>%n",
              SvgChart.esc(f.system()),
              f.freshness(),
              f.freshness() / optimum(),
              f.fetches(),
              f.fetches() / window(),
              f.politenessViolations(),
              f.minGapOverLimit(),
              f.inRetryAfter(),
              f.underCrawlDelay(),
              Double.isNaN(sim) ? "&ndash;" : String.format(Locale.ROOT, "%.4f", sim),
              Double.isNaN(sim)
                  ? "&ndash;"
                  : String.format(Locale.ROOT, "%.4f", f.freshness() / sim)));
    }
    sb.append("</table>\n");
    SvgChart fresh =
        new SvgChart(
            "Weighted freshness over time, at the web server (dashed: simulated)",
            "seconds since the start",
            "weighted freshness",
            false,
            false);
    fresh.marker(o.warmupSeconds, "warm-up ends");
    int i = 0;
    for (LiveFigures f : figures.values()) {
      String color = SvgChart.COLORS[i++ % SvgChart.COLORS.length];
      fresh.line(f.system(), f.seriesSeconds(), f.seriesFreshness(), color, false);
      String p = LivePrediction.policyOf(f.system());
      PolicyRun r = p == null ? null : prediction.runs.get(p);
      if (r != null) {
        double[] t = new double[r.freshnessSeries.length];
        for (int b = 0; b < t.length; b++) {
          t[b] = (b + 0.5) * r.bucketDays * o.web.secondsPerDay;
        }
        fresh.line(p + " (sim)", t, r.freshnessSeries, color, true);
      }
    }
    double[] ends = {0, o.web.durationSeconds};
    fresh.line("optimum", ends, new double[] {optimum(), optimum()}, "#000000", true);
    sb.append(fresh.render());
    if (pull != null) {
      sb.append(pullCharts());
    }
    sb.append(
        "<p>Every figure comes from the server's request logs and the web's change times"
            + " (docs/live-benchmark.md); <code>java scripts/LiveRecompute.java</code> computes"
            + " them again.</p>\n</body></html>\n");
    return sb.toString();
  }
}
