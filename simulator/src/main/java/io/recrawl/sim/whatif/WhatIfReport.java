package io.recrawl.sim.whatif;

import io.recrawl.sim.SvgChart;
import java.util.Locale;

/** The what-if as a page a crawl team can show: the figures, their assumptions, one chart. */
public final class WhatIfReport {

  private WhatIfReport() {}

  public static String html(String source, WhatIf.Result r) {
    SvgChart chart =
        new SvgChart(
                "Crawl interval by estimated change rate, one point per page",
                "estimated changes a day",
                "days between crawls",
                true,
                true)
            .points("this crawl", r.rates(), r.actualIntervals(), SvgChart.COLORS[1])
            .points(
                "recrawl, same fetches and host limits",
                r.rates(),
                r.recrawlIntervals(),
                SvgChart.COLORS[0]);
    StringBuilder b = new StringBuilder();
    b.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>What recrawl would give ")
        .append(SvgChart.esc(source))
        .append("</title><style>body{font-family:sans-serif;max-width:60em;margin:2em auto}")
        .append("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;")
        .append("text-align:right}th{text-align:left}</style></head><body>");
    b.append("<h1>What recrawl would give this crawl</h1><p>From <code>")
        .append(SvgChart.esc(source))
        .append("</code>: ")
        .append(
            String.format(
                Locale.ROOT,
                "%,d pages on %,d hosts, %,d intervals between captures, %,d observed changes, %,.1f fetches a day.",
                r.pages(),
                r.hosts(),
                r.intervals(),
                r.changes(),
                r.budgetPerDay()))
        .append("</p>");
    b.append("<table><tr><th></th><th>freshness (median)</th><th>90 % range</th></tr>");
    row(b, "this crawl's schedule", r.actual(), r.actualRange());
    row(b, "recrawl's schedule, same fetches, same host limits", r.recrawl(), r.recrawlRange());
    row(b, "gain", r.gain(), r.gainRange());
    b.append("</table>");
    b.append(chart.render());
    b.append("<h2>Assumptions</h2><ul>")
        .append(
            "<li>A page changed between two captures when their content digests differ; several changes between two captures count as one, and each page's change rate is estimated from those verdicts (a Gamma posterior per page, its prior the crawl's mean rate), as recrawl's estimator does.</li>")
        .append(
            "<li>Pages change as Poisson processes at their estimated rates; freshness is the share of time a page's copy is current, every page weighted alike.</li>")
        .append(
            "<li>This crawl's freshness is that of its own capture times under those rates; recrawl's is the static optimum on the same rates (the schedule recrawl's crawl value reaches, within a fraction of a per cent in simulation), at the same number of fetches a day, no host crawled more often in a day than this crawl's busiest day on it.</li>")
        .append(
            "<li>Each figure is the median, and its range the 5th to 95th percentile, over rates drawn from each page's posterior; the chart shows the intervals at the posterior mean rates. It does not cover the model: where changes come in bursts, rate-based schedules gain less than this says.</li>")
        .append("</ul></body></html>\n");
    return b.toString();
  }

  private static void row(StringBuilder b, String what, double value, double[] range) {
    b.append("<tr><th>")
        .append(what)
        .append(
            String.format(
                Locale.ROOT,
                "</th><td>%.4f</td><td>%.4f to %.4f</td></tr>",
                value,
                range[0],
                range[1]));
  }
}
