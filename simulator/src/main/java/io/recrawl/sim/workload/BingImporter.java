package io.recrawl.sim.workload;

import io.recrawl.estimate.ChangeRateEstimator;
import io.recrawl.estimate.ChangeStats;
import java.io.BufferedReader;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Imports the layout of Microsoft/Bing's "PoliteCrawling" dataset: four tab-separated files (the
 * names below). Each URL's change rate is the posterior mean of the project's {@link
 * ChangeRateEstimator} over its [interval, changed] history, its weight is its {@code urlid_imp}
 * score, and hosts flagged as constrained get {@code base + perPage x size} crawls per day (the
 * public data has only the flag, not the limits).
 */
public final class BingImporter {

  public static final String URLS = "url_urlid_hostid.txt";
  public static final String HOSTS = "host_hostid_isconstrained.txt";
  public static final String IMPORTANCE = "urlid_imp.txt";
  public static final String HISTORY = "urlid_offset_history.txt";

  /** Import settings. */
  public static final class Options {
    public double constrainedBase = 1.0;
    public double constrainedPerPage = 0.05;

    /** Importance scores below this (Bing's may be 0) are raised to it: weights must be > 0. */
    public double minWeight = 1e-3;

    public ChangeRateEstimator estimator = ChangeRateEstimator.defaults();
  }

  /** What the import did, for the terminal. */
  public record Summary(
      int imported, int noHistory, int noImportance, int raisedWeights, int constrainedHosts) {}

  private final Options options;
  private Summary summary;

  public BingImporter(Options options) {
    this.options = options;
  }

  public Summary summary() {
    return summary;
  }

  public Workload load(Path dir) throws IOException, WorkloadException {
    List<String> problems = new ArrayList<>();
    Map<Long, String> hostName = new HashMap<>();
    Map<Long, Boolean> hostConstrained = new HashMap<>();
    readTsv(
        dir.resolve(HOSTS),
        3,
        1,
        problems,
        (f, where) -> {
          long id = parseLong(f[1], where, "Host_ID", problems);
          int flag = (int) parseLong(f[2], where, "Is_constrained", problems);
          if (flag != 0 && flag != 1 && flag != Integer.MIN_VALUE) {
            problems.add(where + ": Is_constrained must be 0 or 1, got '" + f[2] + "'");
          }
          if (hostName.put(id, hostKey(f[0])) != null) {
            problems.add(where + ": duplicate Host_ID " + id);
          }
          hostConstrained.put(id, flag == 1);
        });
    Map<Long, Double> importance = new HashMap<>();
    readTsv(
        dir.resolve(IMPORTANCE),
        2,
        0,
        problems,
        (f, where) -> {
          long id = parseLong(f[0], where, "URL_ID", problems);
          double imp = parseDouble(f[1], where, "Importance_score", problems);
          importance.put(id, imp);
        });
    Map<Long, Double> rate = new HashMap<>();
    ChangeRateEstimator est = options.estimator;
    readTsv(
        dir.resolve(HISTORY),
        3,
        0,
        problems,
        (f, where) -> {
          long id = parseLong(f[0], where, "URL_ID", problems);
          parseDouble(f[1], where, "First_crawl_time_offset", problems);
          double[] h = parseHistory(f[2]);
          if (h == null) {
            problems.add(
                where + ": Crawl_and_change_history must be a JSON list of [days, 0|1] pairs");
            return;
          }
          ChangeStats s = est.prior();
          for (int k = 0; k < h.length; k += 2) {
            s = est.observe(s, h[k], h[k + 1] == 1);
          }
          rate.put(id, est.rate(s));
        });
    List<String> urls = new ArrayList<>();
    List<Long> urlHost = new ArrayList<>();
    List<Double> urlWeight = new ArrayList<>();
    List<Double> urlRate = new ArrayList<>();
    int[] noHistory = {0};
    int[] noImportance = {0};
    int[] raised = {0};
    readTsv(
        dir.resolve(URLS),
        3,
        1,
        problems,
        (f, where) -> {
          long id = parseLong(f[1], where, "URL_ID", problems);
          long host = parseLong(f[2], where, "Host_ID", problems);
          if (!hostName.containsKey(host)) {
            problems.add(where + ": Host_ID " + host + " is not in " + HOSTS);
            return;
          }
          Double r = rate.get(id);
          Double imp = importance.get(id);
          if (r == null) {
            noHistory[0]++;
            return;
          }
          if (imp == null) {
            noImportance[0]++;
            return;
          }
          double w = imp;
          if (!(w >= options.minWeight)) {
            w = options.minWeight;
            raised[0]++;
          }
          urls.add(f[0].strip());
          urlHost.add(host);
          urlWeight.add(w);
          urlRate.add(r);
        });
    if (!problems.isEmpty()) {
      throw new WorkloadException(problems.size() > 50 ? problems.subList(0, 50) : problems);
    }
    if (urls.isEmpty()) {
      throw new WorkloadException(
          List.of(dir + ": no URL has both a history and an importance score"));
    }
    Map<Long, Integer> hostIndex = new HashMap<>();
    List<Long> hostIds = new ArrayList<>();
    int n = urls.size();
    int[] hostOf = new int[n];
    for (int p = 0; p < n; p++) {
      hostOf[p] =
          hostIndex.computeIfAbsent(
              urlHost.get(p),
              id -> {
                hostIds.add(id);
                return hostIds.size() - 1;
              });
    }
    int[] sizes = new int[hostIds.size()];
    for (int h : hostOf) {
      sizes[h]++;
    }
    String[] names = new String[hostIds.size()];
    double[] maxRate = new double[hostIds.size()];
    int constrained = 0;
    for (int h = 0; h < names.length; h++) {
      names[h] = hostName.get(hostIds.get(h));
      if (hostConstrained.get(hostIds.get(h))) {
        maxRate[h] = options.constrainedBase + options.constrainedPerPage * sizes[h];
        constrained++;
      } else {
        maxRate[h] = Double.POSITIVE_INFINITY;
      }
    }
    double[] weight = new double[n];
    double[] changeRate = new double[n];
    for (int p = 0; p < n; p++) {
      weight[p] = urlWeight.get(p);
      changeRate[p] = urlRate.get(p);
    }
    summary = new Summary(n, noHistory[0], noImportance[0], raised[0], constrained);
    return new Workload(urls.toArray(new String[0]), hostOf, weight, changeRate, names, maxRate);
  }

  /** The host part of a Host_URL ("http://www.example.com/" gives "www.example.com"). */
  static String hostKey(String hostUrl) {
    String s = hostUrl.strip();
    try {
      String h = URI.create(s).getHost();
      if (h != null) {
        return h.toLowerCase(java.util.Locale.ROOT);
      }
    } catch (IllegalArgumentException e) {
      // not a URL: keep the text as the key
    }
    return s.toLowerCase(java.util.Locale.ROOT);
  }

  /** Parses [[d, c], [d, c], ...] into a flat array; null if malformed. */
  static double[] parseHistory(String json) {
    String s = json.strip();
    if (s.length() < 2 || s.charAt(0) != '[' || s.charAt(s.length() - 1) != ']') {
      return null;
    }
    String body = s.substring(1, s.length() - 1).strip();
    if (body.isEmpty()) {
      return new double[0];
    }
    List<Double> values = new ArrayList<>();
    int i = 0;
    while (i < body.length()) {
      int open = body.indexOf('[', i);
      int close = open < 0 ? -1 : body.indexOf(']', open);
      if (open < 0 || close < 0 || !body.substring(i, open).replace(",", "").isBlank()) {
        return null;
      }
      String[] pair = body.substring(open + 1, close).split(",");
      if (pair.length != 2) {
        return null;
      }
      try {
        double d = Double.parseDouble(pair[0].strip());
        double c = Double.parseDouble(pair[1].strip());
        if (!(d >= 0) || Double.isInfinite(d) || (c != 0 && c != 1)) {
          return null;
        }
        values.add(d);
        values.add(c);
      } catch (NumberFormatException e) {
        return null;
      }
      i = close + 1;
    }
    double[] out = new double[values.size()];
    for (int k = 0; k < out.length; k++) {
      out[k] = values.get(k);
    }
    return out;
  }

  private interface RowHandler {
    void row(String[] fields, String where);
  }

  /** Reads a TSV file; a first line whose ID column is a word is taken as a header and skipped. */
  private static void readTsv(
      Path file, int columns, int idColumn, List<String> problems, RowHandler handler)
      throws IOException {
    if (!Files.isRegularFile(file)) {
      problems.add(file + ": missing");
      return;
    }
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int lineNo = 0;
      while ((line = in.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        String[] f = line.split("\t", -1);
        if (lineNo == 1 && looksLikeHeader(f, idColumn)) {
          continue;
        }
        if (f.length != columns) {
          problems.add(
              file
                  + ":"
                  + lineNo
                  + ": expected "
                  + columns
                  + " tab-separated columns, got "
                  + f.length);
          continue;
        }
        int before = problems.size();
        handler.row(f, file + ":" + lineNo);
        if (problems.size() > 200 && problems.size() > before) {
          return; // enough to show the file is broken
        }
      }
    }
  }

  /** A header names its columns: the ID column holds a word such as URL_ID instead of a number. */
  private static boolean looksLikeHeader(String[] f, int idColumn) {
    return f.length > idColumn && f[idColumn].strip().matches("[A-Za-z_?]+");
  }

  private static long parseLong(String s, String where, String column, List<String> problems) {
    try {
      return Long.parseLong(s.strip());
    } catch (NumberFormatException e) {
      problems.add(where + ": " + column + " must be an integer, got '" + s + "'");
      return Integer.MIN_VALUE;
    }
  }

  private static double parseDouble(String s, String where, String column, List<String> problems) {
    try {
      double d = Double.parseDouble(s.strip());
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new NumberFormatException();
      }
      return d;
    } catch (NumberFormatException e) {
      problems.add(where + ": " + column + " must be a finite number, got '" + s + "'");
      return Double.NaN;
    }
  }
}
