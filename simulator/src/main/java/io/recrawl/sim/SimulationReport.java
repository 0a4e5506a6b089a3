package io.recrawl.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/** Writes a simulation's {@code results.json} and its self-contained {@code report.html}. */
public final class SimulationReport {

  private final Simulator.Config cfg;
  private final String workloadName;
  private final Reference reference;
  private final List<PolicyRun> runs;

  public SimulationReport(
      Simulator.Config cfg, String workloadName, Reference reference, List<PolicyRun> runs) {
    this.cfg = cfg;
    this.workloadName = workloadName;
    this.reference = reference;
    this.runs = runs;
  }

  /** The results in the shape. */
  public Map<String, Object> results() {
    Map<String, Object> root = new LinkedHashMap<>();
    Map<String, Object> wl = new LinkedHashMap<>();
    wl.put("source", workloadName);
    wl.put("pages", cfg.workload.pages());
    wl.put("hosts", cfg.workload.hosts());
    wl.put("constrained_hosts", cfg.workload.constrainedHosts());
    root.put("workload", wl);
    root.put("budget", cfg.budget);
    root.put("days", cfg.days);
    root.put("warmup_days", cfg.warmUp);
    root.put("scenario", cfg.scenario.name());
    root.put("start", cfg.start.option());
    root.put("oracle_rates", cfg.oracleRates);
    root.put("seed", cfg.seed);
    root.put("prior_rate", cfg.estimator.rate(cfg.estimator.prior()));
    if (!cfg.engineSettings.isEmpty()) {
      root.put("engine_settings", new java.util.TreeMap<>(cfg.engineSettings));
    }
    if (cfg.scenario.changeTime() < cfg.days) {
      root.put("change_day", cfg.scenario.changeTime());
    }
    if (cfg.signals != null) {
      root.put("signals", cfg.signals);
      root.put("signal_hosts", cfg.signalHosts);
    }
    Map<String, Object> opt = new LinkedHashMap<>();
    opt.put("weighted_freshness", reference.weightedFreshness);
    opt.put("lambda0", reference.lambda0);
    opt.put("crawls_per_day", reference.totalRate);
    opt.put("limited_hosts_crawls_per_day", reference.limitedRate);
    if (!cfg.scenario.stationary()) {
      opt.put("lambda0_after_change", reference.lambda0After);
    }
    root.put("optimum", opt);
    Map<String, Object> policies = new LinkedHashMap<>();
    for (PolicyRun r : runs) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("weighted_freshness", r.weightedFreshness);
      m.put("ratio_to_optimum", r.weightedFreshness / reference.weightedFreshness);
      m.put("crawls_per_day", r.crawlsPerDay);
      m.put("politeness_violations", r.politenessViolations);
      m.put("budget_violations", r.budgetViolations);
      m.put("max_host_rate_ratio", r.maxHostRateRatio);
      m.put("never_crawled", r.neverCrawled);
      m.put("fetches", r.fetches);
      m.put("duplicate_releases", r.duplicateReleases);
      m.put("duplicate_releases_after_warmup", r.duplicateReleasesInWindow);
      m.put("max_queued_after_warmup", r.maxQueuedInWindow);
      m.put("wall_seconds", r.wallSeconds);
      m.put("by_host_class", byHostClass(r));
      m.put("series", series(r));
      m.put("ratio_to_optimum_by_day", learningCurve(r));
      double change = cfg.scenario.changeTime();
      if (change < cfg.days) {
        m.put(
            "freshness_first_day_after_change",
            meanOver(r.freshnessSeries, r.bucketDays, change, change + 1));
        m.put(
            "freshness_after_change", meanOver(r.freshnessSeries, r.bucketDays, change, cfg.days));
      }
      if (r.pushBack != null) {
        m.put("push_back", pushBack(r));
      }
      if (r.estimates != null) {
        m.put("estimates", r.estimates);
      }
      policies.put(r.policy, m);
    }
    root.put("policies", policies);
    return root;
  }

  /** Name suffix of the push-back scenario's run that knows every server's capacity. */
  public static final String ORACLE_CAPACITY = " oracle-capacity";

  /**
   * The push-back scenario's measurements, weighted freshness on the hosts below and at or above
   * their limit, and the ratio to the oracle-capacity run when there is one.
   */
  private Map<String, Object> pushBack(PolicyRun r) {
    Map<String, Object> m = new LinkedHashMap<>(r.pushBack);
    ServerModel servers = cfg.servers();
    double[] weightTime = new double[2];
    double[] freshTime = new double[2];
    for (int p = 0; p < cfg.workload.pages(); p++) {
      int c = servers.belowLimit(cfg.workload.hostOf(p)) ? 0 : 1;
      double w = cfg.workload.weight(p);
      weightTime[c] += w * (cfg.days - cfg.warmUp);
      freshTime[c] += w * r.freshTimeInWindow[p];
    }
    m.put("weighted_freshness_hosts_below_limit", freshTime[0] / weightTime[0]);
    m.put("weighted_freshness_other_hosts", freshTime[1] / weightTime[1]);
    for (PolicyRun o : runs) {
      if (o.policy.endsWith(ORACLE_CAPACITY)) {
        m.put("oracle_capacity_weighted_freshness", o.weightedFreshness);
        m.put("ratio_to_oracle_capacity", r.weightedFreshness / o.weightedFreshness);
      }
    }
    return m;
  }

  /**
   * The learning curve: each whole simulated day's mean freshness (over the chart buckets that lie
   * inside it) divided by the optimum's. Day d is [d, d + 1); NaN where no bucket lies inside.
   */
  double[] learningCurve(PolicyRun r) {
    int days = (int) Math.floor(cfg.days + 1e-9);
    double[] curve = new double[days];
    for (int d = 0; d < days; d++) {
      curve[d] = meanOver(r.freshnessSeries, r.bucketDays, d, d + 1) / reference.weightedFreshness;
    }
    return curve;
  }

  /** The charts' time series, so that a run can be plotted or compared without the HTML report. */
  private static Map<String, Object> series(PolicyRun r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("bucket_days", r.bucketDays);
    m.put("weighted_freshness", r.freshnessSeries);
    m.put("crawls_per_day", r.crawlRateSeries);
    m.put("lambda0", r.lambda0Series);
    return m;
  }

  /**
   * The mean of the chart buckets that lie inside [from, to): how a policy does right after a
   * change.
   */
  private static double meanOver(double[] series, double width, double from, double to) {
    double sum = 0;
    int n = 0;
    for (int b = 0; b < series.length; b++) {
      double start = b * width;
      if (start >= from - 1e-9 && start + width <= to + 1e-9 && !Double.isNaN(series[b])) {
        sum += series[b];
        n++;
      }
    }
    return n > 0 ? sum / n : Double.NaN;
  }

  /** Freshness and crawls per day on limited and on unlimited hosts (limits as at the start). */
  private Map<String, Object> byHostClass(PolicyRun r) {
    double[] weightTime = new double[2];
    double[] freshTime = new double[2];
    double[] fetches = new double[2];
    Scenario sc = cfg.scenario;
    double window = cfg.days - cfg.warmUp;
    for (int p = 0; p < cfg.workload.pages(); p++) {
      int h = cfg.workload.hostOf(p);
      int c = cfg.workload.constrained(h) ? 0 : 1;
      double from =
          sc.hidesHost() && h == sc.host() ? Math.max(cfg.warmUp, sc.changeTime()) : cfg.warmUp;
      double w = cfg.workload.weight(p);
      weightTime[c] += w * Math.max(0, cfg.days - from);
      freshTime[c] += w * r.freshTimeInWindow[p];
      fetches[c] += r.fetchesInWindow[p];
    }
    Map<String, Object> out = new LinkedHashMap<>();
    String[] names = {"limited", "unlimited"};
    for (int c = 0; c < 2; c++) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("weighted_freshness", weightTime[c] > 0 ? freshTime[c] / weightTime[c] : Double.NaN);
      m.put("crawls_per_day", fetches[c] / window);
      out.put(names[c], m);
    }
    return out;
  }

  public void writeJson(Path file) throws IOException {
    new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .writeValue(file.toFile(), results());
  }

  public void writeHtml(Path file) throws IOException {
    Files.writeString(file, html(), StandardCharsets.UTF_8);
  }

  String html() {
    StringBuilder sb = new StringBuilder();
    sb.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>recrawl simulation: ")
        .append(SvgChart.esc(cfg.scenario.name()))
        .append(
            "</title><style>body{font-family:sans-serif;margin:20px;max-width:960px}"
                + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
                + "th:first-child,td:first-child{text-align:left}</style></head><body>\n");
    sb.append("<h1>recrawl simulation</h1>\n<p>");
    sb.append(
        String.format(
            Locale.ROOT,
            "Workload <code>%s</code>: %,d pages on %,d hosts (%,d limited). Budget %s crawls/day, "
                + "%s days (first %s warm-up, not measured), scenario <b>%s</b>, %s change rates, seed %d.",
            SvgChart.esc(workloadName),
            cfg.workload.pages(),
            cfg.workload.hosts(),
            cfg.workload.constrainedHosts(),
            SvgChart.fmt(cfg.budget),
            SvgChart.fmt(cfg.days),
            SvgChart.fmt(cfg.warmUp),
            SvgChart.esc(cfg.scenario.name()),
            cfg.oracleRates ? "oracle" : "learned",
            cfg.seed));
    sb.append(
        String.format(
            Locale.ROOT,
            " Optimum (exact static solver, periodic crawling): weighted freshness %.4f, "
                + "&lambda;<sub>0</sub> = %.4g.</p>%n",
            reference.weightedFreshness,
            reference.lambda0));
    sb.append(
        "<table><tr><th>policy</th><th>weighted freshness</th><th>ratio to optimum</th><th>crawls/day</th>"
            + "<th>politeness violations</th><th>budget violations</th><th>never crawled</th><th>wall s</th></tr>\n");
    for (PolicyRun r : runs) {
      sb.append(
          String.format(
              Locale.ROOT,
              "<tr><td>%s</td><td>%.4f</td><td>%.4f</td><td>%.0f</td><td>%d</td><td>%d</td>"
                  + "<td>%,d</td><td>%.1f</td></tr>%n",
              SvgChart.esc(r.policy),
              r.weightedFreshness,
              r.weightedFreshness / reference.weightedFreshness,
              r.crawlsPerDay,
              r.politenessViolations,
              r.budgetViolations,
              r.neverCrawled,
              r.wallSeconds));
    }
    sb.append("</table>\n");
    if (cfg.scenario.pushBack()) {
      sb.append(
          "<h2>Push-back</h2><table><tr><th>run</th><th>requests after day 1</th>"
              + "<th>refused share after day 1</th><th>503 in maintenance</th>"
              + "<th>requests in a Retry-After block</th><th>requests in a back-off block</th>"
              + "<th>ratio to oracle capacity</th></tr>\n");
      for (PolicyRun r : runs) {
        Map<String, Object> m = pushBack(r);
        sb.append(
            String.format(
                Locale.ROOT,
                "<tr><td>%s</td><td>%,d</td><td>%.4f</td><td>%,d</td><td>%,d</td><td>%,d</td>"
                    + "<td>%.4f</td></tr>%n",
                SvgChart.esc(r.policy),
                (Long) m.get("requests_after_day_1"),
                (Double) m.get("refused_share_after_day_1"),
                (Long) m.get("status_503_in_maintenance"),
                (Long) m.get("retry_after_violations"),
                (Long) m.get("backoff_violations"),
                (Double) m.getOrDefault("ratio_to_oracle_capacity", Double.NaN)));
      }
      sb.append("</table>\n");
    }
    double change = cfg.scenario.changeTime();
    SvgChart fresh =
        new SvgChart(
            "Weighted freshness over time", "simulated day", "weighted freshness", false, false);
    SvgChart crawl =
        new SvgChart(
            "Crawl rate against the budget", "simulated day", "crawls per day", false, false);
    SvgChart lambda =
        new SvgChart("Global lambda (λ0) over time", "simulated day", "λ0", false, false);
    SvgChart learning =
        new SvgChart(
            "Learning curve: each day's freshness as a ratio of the optimum's",
            "simulated day",
            "ratio to optimum",
            false,
            false);
    SvgChart revisit =
        new SvgChart(
            "Revisit interval against change rate (sample of pages; never-crawled pages omitted)",
            "true change rate at start (per day, log)",
            "mean revisit interval in the window (days, log)",
            true,
            true);
    for (SvgChart c : new SvgChart[] {fresh, learning, crawl, lambda}) {
      c.marker(cfg.warmUp, "warm-up ends");
      if (change < cfg.days) {
        c.marker(change, cfg.scenario.name());
      }
    }
    int n = cfg.workload.pages();
    int sample = Math.min(n, 400);
    int[] pick = new SplittableRandom(cfg.seed).ints(sample, 0, n).toArray();
    double window = cfg.days - cfg.warmUp;
    boolean anyLambda = false;
    for (int i = 0; i < runs.size(); i++) {
      PolicyRun r = runs.get(i);
      String color = SvgChart.COLORS[i % SvgChart.COLORS.length];
      double[] t = new double[r.freshnessSeries.length];
      for (int b = 0; b < t.length; b++) {
        t[b] = (b + 0.5) * r.bucketDays;
      }
      fresh.line(r.policy, t, r.freshnessSeries, color, false);
      double[] curve = learningCurve(r);
      double[] days = new double[curve.length];
      for (int d = 0; d < days.length; d++) {
        days[d] = d + 0.5;
      }
      learning.line(r.policy, days, curve, color, false);
      crawl.line(r.policy, t, r.crawlRateSeries, color, false);
      boolean has = false;
      for (double v : r.lambda0Series) {
        has |= !Double.isNaN(v);
      }
      if (has) {
        lambda.line(r.policy, t, r.lambda0Series, color, false);
        anyLambda = true;
      }
      double[] x = new double[sample];
      double[] y = new double[sample];
      for (int k = 0; k < sample; k++) {
        int p = pick[k];
        x[k] = cfg.workload.changeRate(p);
        y[k] = r.fetchesInWindow[p] > 0 ? window / r.fetchesInWindow[p] : Double.NaN;
      }
      revisit.points(r.policy, x, y, color);
    }
    double[] ends = {0, cfg.days};
    fresh.line(
        "optimum",
        ends,
        new double[] {reference.weightedFreshness, reference.weightedFreshness},
        "#000000",
        true);
    learning.line("optimum", ends, new double[] {1, 1}, "#000000", true);
    crawl.line("budget", ends, new double[] {cfg.budget, cfg.budget}, "#000000", true);
    if (!anyLambda) {
      lambda.line(
          "optimum", ends, new double[] {reference.lambda0, reference.lambda0}, "#000000", true);
    }
    sb.append(fresh.render())
        .append(learning.render())
        .append(crawl.render())
        .append(lambda.render())
        .append(revisit.render());
    sb.append("<p>Crawl rates are fetches per chart bucket of ")
        .append(SvgChart.fmt(cfg.bucketDays))
        .append(" days. The revisit chart plots ")
        .append(sample)
        .append(" random pages per policy.</p>\n");
    sb.append("</body></html>\n");
    return sb.toString();
  }
}
