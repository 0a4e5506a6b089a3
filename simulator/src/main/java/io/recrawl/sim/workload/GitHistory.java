package io.recrawl.sim.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A workload from a git repository's history: each file that passes the path filter is a page at
 * {@code url-prefix + path}, and each commit that touches it is one of its changes, at the commit's
 * time. Read from {@code git log} as it streams, one commit at a time. Commits of one instant (a
 * pull request rebased and merged gives its commits one committer time) are one change: no crawler
 * could see the versions between them.
 *
 * <p>What the replay assumes: every page exists from the history's start (simulated day 0, the
 * first commit read); the commit that adds a file is its first change, and a commit that deletes it
 * is a change too (a crawler would see a 404). A page's oracle rate is its changes over the span of
 * the history.
 */
public final class GitHistory {

  /** What to read and how paths become pages. */
  public static final class Options {
    /** The repository (a work tree or a bare repository). */
    public Path repo;

    /** Paths to keep (a Java regular expression, matched against the whole path); null = all. */
    public Pattern pathFilter;

    /** A page's URL is this prefix followed by its path. */
    public String urlPrefix = "https://git.example/";

    /** {@code .md=.html}: a path's suffix, and what replaces it in the URL; null = none. */
    public String replaceSuffix;

    /** Every page's weight. */
    public double weight = 1.0;

    /** Crawls a day each host may take; +infinity = unlimited. */
    public double hostMaxRate = Double.POSITIVE_INFINITY;

    /** Only commits at or after this epoch second; 0 = the whole history. */
    public long sinceEpochSeconds;
  }

  /**
   * How many commits and touches were read, how many touches the filter left out, and how many
   * changes the kept touches made once those of one instant are merged.
   */
  public record Summary(
      long commits, long touches, long filteredOut, long changes, double spanDays) {}

  private final Options o;
  private Summary summary;

  public GitHistory(Options o) {
    this.o = o;
  }

  public Summary summary() {
    return summary;
  }

  public Workload load() throws IOException, WorkloadException {
    boolean workTree = Files.exists(o.repo.resolve(".git"));
    boolean bare =
        Files.isRegularFile(o.repo.resolve("HEAD")) && Files.isDirectory(o.repo.resolve("objects"));
    if (!workTree && !bare) {
      // Not a subdirectory either: git would read the enclosing repository's whole history.
      throw new WorkloadException(
          List.of(o.repo + " is not a git repository (the top of a work tree, or a bare one)"));
    }
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "git",
                "-c",
                "core.quotePath=false", // paths as they are, in UTF-8
                "-C",
                o.repo.toString(),
                "log",
                "--reverse",
                "--no-renames",
                "--format=@%ct",
                "--name-only"));
    if (o.sinceEpochSeconds > 0) {
      cmd.add("--since=" + o.sinceEpochSeconds);
    }
    Process git = new ProcessBuilder(cmd).redirectErrorStream(false).start();
    git.getOutputStream().close();
    Map<String, Times> touches = new LinkedHashMap<>();
    long commits = 0;
    long touched = 0;
    long filteredOut = 0;
    long first = Long.MIN_VALUE;
    long earliest = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    long commitTime = Long.MIN_VALUE;
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(git.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.isEmpty()) {
          continue;
        }
        if (line.startsWith("@")) {
          commitTime = Long.parseLong(line.substring(1).strip());
          if (first == Long.MIN_VALUE) {
            first = commitTime;
          }
          earliest = Math.min(earliest, commitTime);
          last = Math.max(last, commitTime);
          commits++;
          continue;
        }
        if (commitTime == Long.MIN_VALUE) {
          continue; // nothing before the first commit line
        }
        if (o.pathFilter != null && !o.pathFilter.matcher(line).matches()) {
          filteredOut++;
          continue;
        }
        touched++;
        touches.computeIfAbsent(line, k -> new Times()).add((commitTime - first) / 86_400.0);
      }
    }
    int rc;
    try {
      rc = git.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading git log", e);
    }
    if (rc != 0) {
      String err = new String(git.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      throw new WorkloadException(List.of("git log in " + o.repo + " failed (" + rc + "): " + err));
    }
    if (touches.isEmpty()) {
      throw new WorkloadException(
          List.of(
              "no file of "
                  + o.repo
                  + " passes the path filter ("
                  + commits
                  + " commits, "
                  + filteredOut
                  + " touches left out)"));
    }
    // Day 0 is the earliest commit, which need not be the first git lists.
    double span = Math.max((last - earliest) / 86_400.0, 1.0 / 86_400);
    double shift = (first - earliest) / 86_400.0;
    long changes = 0;
    for (Times t : touches.values()) {
      changes += t.distinct(shift);
    }
    summary = new Summary(commits, touched, filteredOut, changes, span);
    return workload(touches, span);
  }

  /** A file's change times as they are read, in days. */
  private static final class Times {
    double[] days = new double[4];
    int n;

    void add(double day) {
      if (n == days.length) {
        days = Arrays.copyOf(days, n * 2);
      }
      days[n++] = day;
    }

    /**
     * Moves the times {@code shift} days on, sorts them (git's order is the graph's, and a commit's
     * time may go back) and keeps one of each instant; returns how many are left.
     */
    int distinct(double shift) {
      if (shift != 0) {
        for (int i = 0; i < n; i++) {
          days[i] += shift;
        }
      }
      Arrays.sort(days, 0, n);
      int k = 0;
      for (int i = 0; i < n; i++) {
        if (k == 0 || days[i] != days[k - 1]) {
          days[k++] = days[i];
        }
      }
      n = k;
      return n;
    }
  }

  private Workload workload(Map<String, Times> touches, double span) throws WorkloadException {
    int n = touches.size();
    String[] urls = new String[n];
    int[] hostOf = new int[n];
    double[] weight = new double[n];
    double[] rate = new double[n];
    double[][] times = new double[n][];
    Map<String, Integer> hosts = new LinkedHashMap<>();
    int p = 0;
    for (Map.Entry<String, Times> e : touches.entrySet()) {
      String url = url(e.getKey());
      String host = host(url);
      Integer h = hosts.get(host);
      if (h == null) {
        h = hosts.size();
        hosts.put(host, h);
      }
      Times t = e.getValue();
      urls[p] = url;
      hostOf[p] = h;
      weight[p] = o.weight;
      rate[p] = t.n / span;
      times[p] = Arrays.copyOf(t.days, t.n);
      p++;
    }
    double[] maxRate = new double[hosts.size()];
    Arrays.fill(maxRate, o.hostMaxRate);
    return new Workload(
        urls,
        hostOf,
        weight,
        rate,
        hosts.keySet().toArray(new String[0]),
        maxRate,
        new ChangeHistory(times));
  }

  String url(String path) {
    String p = path;
    if (o.replaceSuffix != null) {
      int eq = o.replaceSuffix.indexOf('=');
      String from = o.replaceSuffix.substring(0, eq);
      String to = o.replaceSuffix.substring(eq + 1);
      if (p.endsWith(from)) {
        p = p.substring(0, p.length() - from.length()) + to;
      }
    }
    return o.urlPrefix + encode(p);
  }

  /** A path as URL characters: unreserved ones and '/' kept, the others percent-encoded. */
  static String encode(String path) {
    StringBuilder b = new StringBuilder(path.length());
    for (byte x : path.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (x & 0xff);
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~'
          || c == '/') {
        b.append(c);
      } else {
        b.append('%').append(Character.toUpperCase(Character.forDigit((c >> 4) & 0xf, 16)));
        b.append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return b.toString();
  }

  private static String host(String url) throws WorkloadException {
    try {
      return CdxHistory.HOSTS.keyOf(url);
    } catch (IllegalArgumentException bad) {
      throw new WorkloadException(
          List.of("not a URL with a host: " + url + " (" + bad.getMessage() + ")"));
    }
  }
}
