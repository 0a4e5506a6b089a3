package io.recrawl.sim.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a workload directory ({@code pages.csv}, optional {@code hosts.csv} and {@code
 * changes.csv}) strictly: every malformed row is reported with its file and line number, and
 * nothing is returned if any row is bad.
 */
public final class WorkloadLoader {

  public static final String PAGES = "pages.csv";
  public static final String HOSTS = "hosts.csv";
  static final String PAGES_HEADER = "url,host,weight,change_rate";
  static final String HOSTS_HEADER = "host,max_rate";

  /**
   * Beyond this many problems the rest are only counted: a broken 1M-row file should not flood the
   * terminal.
   */
  private static final int MAX_LISTED = 50;

  private final double defaultHostMaxRate;

  /**
   * @param defaultHostMaxRate crawls per day for hosts not in hosts.csv; +infinity = unlimited
   */
  public WorkloadLoader(double defaultHostMaxRate) {
    if (!(defaultHostMaxRate > 0)) {
      throw new IllegalArgumentException(
          "default host max rate must be > 0, got " + defaultHostMaxRate);
    }
    this.defaultHostMaxRate = defaultHostMaxRate;
  }

  public Workload load(Path dir) throws IOException, WorkloadException {
    Problems problems = new Problems();
    Path pagesFile = dir.resolve(PAGES);
    Path hostsFile = dir.resolve(HOSTS);
    if (!Files.isRegularFile(pagesFile)) {
      throw new WorkloadException(List.of(pagesFile + ": missing"));
    }
    Map<String, Double> limits =
        Files.isRegularFile(hostsFile) ? readHosts(hostsFile, problems) : Map.of();

    PageColumns pages = new PageColumns();
    Set<String> seenUrls = new HashSet<>();
    boolean headerOk =
        readRows(
            pagesFile,
            PAGES_HEADER,
            problems,
            (lineNo, f) -> {
              String url = f.get(0).strip();
              String host = f.get(1).strip();
              double w = number(f.get(2));
              double d = number(f.get(3));
              if (url.isEmpty()) {
                problems.add(pagesFile, lineNo, "empty url");
              } else if (host.isEmpty()) {
                problems.add(pagesFile, lineNo, "empty host");
              } else if (!(w > 0) || Double.isInfinite(w)) {
                problems.add(
                    pagesFile,
                    lineNo,
                    "weight must be a finite number > 0, got '" + f.get(2) + "'");
              } else if (!(d >= 0) || Double.isInfinite(d)) {
                problems.add(
                    pagesFile,
                    lineNo,
                    "change_rate must be a finite number >= 0, got '" + f.get(3) + "'");
              } else if (!seenUrls.add(url)) {
                problems.add(pagesFile, lineNo, "duplicate url " + url);
              } else {
                pages.add(url, host, w, d);
              }
            });
    if (!headerOk) {
      throw problems.toException();
    }
    if (pages.urls.isEmpty() && problems.isEmpty()) {
      problems.add(pagesFile, 2, "no pages");
    }
    if (!problems.isEmpty()) {
      throw problems.toException();
    }
    Path changesFile = dir.resolve(ChangeHistory.FILE);
    ChangeHistory history =
        Files.isRegularFile(changesFile) ? readChanges(changesFile, pages.urls, problems) : null;
    if (!problems.isEmpty()) {
      throw problems.toException();
    }
    return pages.toWorkload(limits, defaultHostMaxRate, history);
  }

  /**
   * {@code changes.csv}: a page's change times, days from the history's start, space-separated and
   * ascending; one row per page of pages.csv that has a history.
   */
  private static ChangeHistory readChanges(Path file, List<String> urls, Problems problems)
      throws IOException {
    Map<String, Integer> index = new HashMap<>();
    for (int p = 0; p < urls.size(); p++) {
      index.put(urls.get(p), p);
    }
    double[][] times = new double[urls.size()][];
    readRows(
        file,
        ChangeHistory.HEADER,
        problems,
        (lineNo, f) -> {
          String url = f.get(0).strip();
          Integer p = index.get(url);
          if (p == null) {
            problems.add(file, lineNo, "url not in pages.csv: " + url);
            return;
          }
          if (times[p] != null) {
            problems.add(file, lineNo, "duplicate url " + url);
            return;
          }
          String text = f.get(1).strip();
          String[] parts = text.isEmpty() ? new String[0] : text.split(" +");
          double[] t = new double[parts.length];
          for (int i = 0; i < parts.length; i++) {
            t[i] = number(parts[i]);
            if (!(t[i] >= 0) || Double.isInfinite(t[i]) || (i > 0 && t[i] < t[i - 1])) {
              problems.add(
                  file,
                  lineNo,
                  "change_days must be finite numbers >= 0 in ascending order, got '"
                      + parts[i]
                      + "' at position "
                      + (i + 1));
              return;
            }
          }
          times[p] = t;
        });
    return new ChangeHistory(times);
  }

  private static Map<String, Double> readHosts(Path file, Problems problems) throws IOException {
    Map<String, Double> limits = new HashMap<>();
    readRows(
        file,
        HOSTS_HEADER,
        problems,
        (lineNo, f) -> {
          String host = f.get(0).strip();
          double r = number(f.get(1));
          if (host.isEmpty()) {
            problems.add(file, lineNo, "empty host");
          } else if (!(r > 0)) {
            problems.add(
                file,
                lineNo,
                "max_rate must be a number > 0 (crawls per day), got '" + f.get(1) + "'");
          } else if (limits.putIfAbsent(host, r) != null) {
            problems.add(file, lineNo, "duplicate host " + host);
          }
        });
    return limits;
  }

  /** One CSV row: its line number and fields, as many as the header names. */
  private interface RowHandler {
    void row(int lineNo, List<String> fields);
  }

  /**
   * Reads a CSV file that must start with {@code header}: blank lines are skipped, rows with the
   * wrong number of fields are reported, the others handed on. False (reported) for a wrong header.
   */
  private static boolean readRows(Path file, String header, Problems problems, RowHandler handler)
      throws IOException {
    int fields = header.split(",").length;
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line = in.readLine();
      if (line == null || !line.strip().equals(header)) {
        problems.add(file, 1, "header must be '" + header + "'");
        return false;
      }
      int lineNo = 1;
      while ((line = in.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        List<String> f = CsvLine.split(line);
        if (f == null || f.size() != fields) {
          problems.add(file, lineNo, "expected " + fields + " fields " + header);
        } else {
          handler.row(lineNo, f);
        }
      }
    }
    return true;
  }

  /** The pages read so far, column by column, with hosts numbered in order of appearance. */
  private static final class PageColumns {
    final List<String> urls = new ArrayList<>();
    final List<String> hostNames = new ArrayList<>();
    final Map<String, Integer> hostIds = new HashMap<>();
    int[] hostOf = new int[1024];
    double[] weight = new double[1024];
    double[] rate = new double[1024];

    void add(String url, String host, double w, double d) {
      Integer h = hostIds.get(host);
      if (h == null) {
        h = hostNames.size();
        hostIds.put(host, h);
        hostNames.add(host);
      }
      int i = urls.size();
      if (i == hostOf.length) {
        hostOf = Arrays.copyOf(hostOf, i * 2);
        weight = Arrays.copyOf(weight, i * 2);
        rate = Arrays.copyOf(rate, i * 2);
      }
      urls.add(url);
      hostOf[i] = h;
      weight[i] = w;
      rate[i] = d;
    }

    Workload toWorkload(
        Map<String, Double> limits, double defaultHostMaxRate, ChangeHistory history) {
      int n = urls.size();
      double[] maxRate = new double[hostNames.size()];
      for (int h = 0; h < maxRate.length; h++) {
        maxRate[h] = limits.getOrDefault(hostNames.get(h), defaultHostMaxRate);
      }
      return new Workload(
          urls.toArray(new String[0]),
          Arrays.copyOf(hostOf, n),
          Arrays.copyOf(weight, n),
          Arrays.copyOf(rate, n),
          hostNames.toArray(new String[0]),
          maxRate,
          history);
    }
  }

  /** Parses a number; NaN (rejected by every check above) for anything unparsable. */
  private static double number(String s) {
    try {
      return Double.parseDouble(s.strip());
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  /** Collects problems, listing the first few. */
  private static final class Problems {
    private final List<String> listed = new ArrayList<>();
    private int count;

    void add(Path file, int line, String what) {
      count++;
      if (listed.size() < MAX_LISTED) {
        listed.add(file + ":" + line + ": " + what);
      }
    }

    boolean isEmpty() {
      return count == 0;
    }

    WorkloadException toException() {
      List<String> all = new ArrayList<>(listed);
      if (count > listed.size()) {
        all.add("... and " + (count - listed.size()) + " more");
      }
      return new WorkloadException(all);
    }
  }
}
