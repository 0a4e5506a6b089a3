package io.recrawl.sim.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recrawl.wire.HostKeys;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * A workload from a crawl archive's index: a CDX or CDXJ file (gzip or not) sorted by URL key, as
 * Heritrix, pywb, the Wayback Machine and Common Crawl write them. Each URL with successful
 * captures is a page; a content digest that differs from the previous capture's is an observed
 * change. Read as it streams, one URL's captures at a time.
 *
 * <p>What the replay assumes: the true change times between two captures are unknown, so a page
 * whose digest changed between two captures is taken to have changed once, half way between them;
 * only pages whose captures are dense enough to stand for their change times are kept (at least
 * {@link Options#minCaptures} captures, the median gap between them at most {@link
 * Options#maxMedianGapDays}); a page has no change outside the span of its own captures.
 */
public final class CdxHistory {

  /** What to read and which pages to keep. */
  public static final class Options {
    public Path file;

    /** A page needs at least this many successful captures. */
    public int minCaptures = 3;

    /** A page's median gap between captures must be at most this many days. */
    public double maxMedianGapDays = 1.0;

    /** Every page's weight. */
    public double weight = 1.0;

    /** Crawls a day each host may take; +infinity = unlimited. */
    public double hostMaxRate = Double.POSITIVE_INFINITY;
  }

  /**
   * What the file held: lines read, captures of pages (status 200 or a revisit), captures left
   * aside (other statuses), bad lines (the first ones listed with their line number), URLs seen,
   * pages kept and pages too sparsely captured.
   */
  public record Summary(
      long lines,
      long captures,
      long otherStatus,
      long badLines,
      List<String> bad,
      long urls,
      long kept,
      long sparse,
      double spanDays) {}

  private static final int MAX_LISTED = 50;
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");
  private static final ObjectMapper JSON = new ObjectMapper();
  static final HostKeys HOSTS = HostKeys.of(HostKeys.Mode.BY_HOST);

  private final Options o;
  private Summary summary;

  public CdxHistory(Options o) {
    this.o = o;
  }

  public Summary summary() {
    return summary;
  }

  /** One capture of a page: its time (epoch seconds), and its content digest. */
  public record Capture(long time, String digest) {}

  /**
   * Receives each URL's captures of a page (status 200 or revisit), in time order, with the URL's
   * host key as the job computes it (null for a URL the job would not crawl, such as {@code dns:}).
   */
  public interface Pages {
    void page(String url, String host, List<Capture> captures) throws WorkloadException;
  }

  /** The columns of a CDX file without a header, and those its header names. */
  private static final class Layout {
    int url = 2;
    int time = 1;
    int status = 4;
    int digest = 5;
    int mime = 3;
    int fields = 6;
  }

  /**
   * Reads the file, handing each URL's captures to {@code pages} as its last line is read; the
   * counts go to {@link #summary} ({@code kept} and {@code sparse} are the caller's to fill).
   */
  public Summary read(Pages pages) throws IOException, WorkloadException {
    List<String> bad = new ArrayList<>();
    long lines = 0;
    long captures = 0;
    long otherStatus = 0;
    long badLines = 0;
    long urlCount = 0;
    Layout layout = new Layout();
    String key = null;
    String url = null;
    List<Capture> group = new ArrayList<>();
    try (BufferedReader in = reader(o.file)) {
      String line;
      while ((line = in.readLine()) != null) {
        lines++;
        if (line.isBlank()) {
          continue;
        }
        if (line.startsWith(" CDX ") || line.startsWith("CDX ")) {
          layout = header(line.strip().substring(4).strip());
          continue;
        }
        String[] f;
        String lineKey;
        String lineUrl;
        String stamp;
        String status;
        String digest;
        String mime;
        try {
          String[] head = line.split(" ", 3);
          if (head.length == 3 && head[2].startsWith("{")) { // CDXJ: key, time, JSON
            JsonNode j = JSON.readTree(head[2]);
            lineKey = head[0];
            stamp = head[1];
            lineUrl = j.path("url").asText(null);
            status = j.path("status").asText("-");
            digest = j.path("digest").asText(null);
            mime = j.path("mime").asText("");
          } else {
            f = line.strip().split(" +");
            if (f.length < layout.fields) {
              throw new IllegalArgumentException(
                  "expected at least " + layout.fields + " fields, got " + f.length);
            }
            lineKey = f[0];
            stamp = f[layout.time];
            lineUrl = f[layout.url];
            status = f[layout.status];
            digest = f[layout.digest];
            mime = layout.mime < f.length ? f[layout.mime] : "";
          }
          if (lineUrl == null || lineUrl.isEmpty()) {
            throw new IllegalArgumentException("no URL");
          }
          long time = epochSeconds(stamp);
          boolean page = status.equals("200") || mime.equals("warc/revisit");
          if (page && (digest == null || digest.isEmpty() || digest.equals("-"))) {
            throw new IllegalArgumentException("a capture without a digest");
          }
          if (key != null && lineKey.compareTo(key) < 0) {
            throw new WorkloadException(
                List.of(
                    o.file
                        + ":"
                        + lines
                        + ": not sorted by URL key ("
                        + lineKey
                        + " after "
                        + key
                        + "); sort it first: LC_ALL=C sort"));
          }
          if (!lineKey.equals(key)) {
            urlCount += key == null ? 0 : 1;
            if (key != null) {
              hand(pages, url, group);
            }
            key = lineKey;
            url = lineUrl;
            group = new ArrayList<>();
          }
          if (page) {
            captures++;
            group.add(new Capture(time, digest));
          } else {
            otherStatus++;
          }
        } catch (IllegalArgumentException | IOException bad1) {
          badLines++;
          if (bad.size() < MAX_LISTED) {
            bad.add(o.file + ":" + lines + ": " + bad1.getMessage());
          }
        }
      }
    }
    if (key != null) {
      urlCount++;
      hand(pages, url, group);
    }
    summary =
        new Summary(lines, captures, otherStatus, badLines, List.copyOf(bad), urlCount, 0, 0, 0);
    return summary;
  }

  private static void hand(Pages pages, String url, List<Capture> group) throws WorkloadException {
    group.sort(Comparator.comparingLong(Capture::time));
    String host;
    try {
      host = HOSTS.keyOf(url);
    } catch (IllegalArgumentException notCrawlable) {
      host = null;
    }
    pages.page(url, host, group);
  }

  public Workload load() throws IOException, WorkloadException {
    List<String> urls = new ArrayList<>();
    List<String> hosts = new ArrayList<>();
    Map<String, Integer> hostIds = new HashMap<>();
    List<Integer> hostOf = new ArrayList<>();
    List<double[]> changes = new ArrayList<>(); // epoch days, made relative at the end
    List<double[]> spans = new ArrayList<>(); // a page's first and last capture, epoch days
    long[] sparse = {0};
    Summary read =
        read(
            (url, host, group) -> {
              if (!keep(url, host, group, urls, hosts, hostIds, hostOf, changes, spans)) {
                sparse[0]++;
              }
            });
    List<String> bad = read.bad();
    long captures = read.captures();
    long badLines = read.badLines();
    long urlCount = read.urls();
    if (urls.isEmpty()) {
      List<String> problems = new ArrayList<>(bad);
      problems.add(
          "no page of "
              + o.file
              + " has "
              + o.minCaptures
              + " captures at most "
              + o.maxMedianGapDays
              + " days apart ("
              + urlCount
              + " URLs, "
              + captures
              + " captures, "
              + badLines
              + " bad lines)");
      throw new WorkloadException(problems);
    }
    double first = Double.POSITIVE_INFINITY;
    double last = Double.NEGATIVE_INFINITY;
    for (double[] s : spans) {
      first = Math.min(first, s[0]);
      last = Math.max(last, s[1]);
    }
    int n = urls.size();
    double[] rate = new double[n];
    double[][] times = new double[n][];
    for (int p = 0; p < n; p++) {
      double[] c = changes.get(p);
      double[] t = new double[c.length];
      for (int i = 0; i < c.length; i++) {
        t[i] = c[i] - first;
      }
      times[p] = t;
      double span = spans.get(p)[1] - spans.get(p)[0];
      rate[p] = span > 0 ? c.length / span : 0;
    }
    double[] weight = new double[n];
    Arrays.fill(weight, o.weight);
    double[] maxRate = new double[hosts.size()];
    Arrays.fill(maxRate, o.hostMaxRate);
    summary =
        new Summary(
            read.lines(),
            captures,
            read.otherStatus(),
            badLines,
            bad,
            urlCount,
            n,
            sparse[0],
            last - first);
    return new Workload(
        urls.toArray(new String[0]),
        hostOf.stream().mapToInt(Integer::intValue).toArray(),
        weight,
        rate,
        hosts.toArray(new String[0]),
        maxRate,
        new ChangeHistory(times));
  }

  /**
   * One URL's captures: kept as a page if they are dense enough, its changes at the midpoints of
   * the gaps its digest changed across. Returns whether it was kept.
   */
  private boolean keep(
      String url,
      String host,
      List<Capture> group,
      List<String> urls,
      List<String> hosts,
      Map<String, Integer> hostIds,
      List<Integer> hostOf,
      List<double[]> changes,
      List<double[]> spans) {
    if (group.size() < o.minCaptures) {
      return group.isEmpty(); // a URL with no capture of a page is not a sparse page
    }
    double[] gaps = new double[group.size() - 1];
    for (int i = 1; i < group.size(); i++) {
      gaps[i - 1] = (group.get(i).time() - group.get(i - 1).time()) / 86_400.0;
    }
    Arrays.sort(gaps);
    if (gaps[gaps.length / 2] > o.maxMedianGapDays || host == null) {
      return false;
    }
    double[] c = new double[group.size()];
    int n = 0;
    for (int i = 1; i < group.size(); i++) {
      if (!group.get(i).digest().equals(group.get(i - 1).digest())) {
        c[n++] = (group.get(i).time() + group.get(i - 1).time()) / 2.0 / 86_400.0;
      }
    }
    Integer h = hostIds.get(host);
    if (h == null) {
      h = hosts.size();
      hostIds.put(host, h);
      hosts.add(host);
    }
    urls.add(url);
    hostOf.add(h);
    changes.add(Arrays.copyOf(c, n));
    spans.add(
        new double[] {
          group.get(0).time() / 86_400.0, group.get(group.size() - 1).time() / 86_400.0
        });
    return true;
  }

  /** A CDX header's field letters: N key, b date, a URL, m MIME type, s status, k (or c) digest. */
  private static Layout header(String letters) {
    String[] f = letters.split(" +");
    Layout l = new Layout();
    l.url = l.time = l.status = l.digest = l.mime = -1;
    for (int i = 0; i < f.length; i++) {
      switch (f[i]) {
        case "a" -> l.url = i;
        case "b" -> l.time = i;
        case "s" -> l.status = i;
        case "k" -> l.digest = i;
        case "c" -> l.digest = l.digest < 0 ? i : l.digest;
        case "m" -> l.mime = i;
        default -> {}
      }
    }
    if (l.url < 0 || l.time < 0 || l.status < 0 || l.digest < 0) {
      throw new IllegalArgumentException(
          "a CDX header must name a (URL), b (date), s (status) and k (digest): " + letters);
    }
    l.fields = Math.max(Math.max(l.url, l.time), Math.max(l.status, l.digest)) + 1;
    if (l.mime < 0) {
      l.mime = Integer.MAX_VALUE;
    }
    return l;
  }

  private static long epochSeconds(String stamp) {
    if (stamp.length() != 14 || !stamp.chars().allMatch(Character::isDigit)) {
      throw new IllegalArgumentException("timestamp must be 14 digits (yyyyMMddHHmmss): " + stamp);
    }
    try {
      return LocalDateTime.parse(stamp, STAMP).toEpochSecond(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("not a date: " + stamp);
    }
  }

  /** The file's lines, through gzip if it starts with gzip's magic bytes. */
  private static BufferedReader reader(Path file) throws IOException {
    InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
    in.mark(2);
    int b1 = in.read();
    int b2 = in.read();
    in.reset();
    if (b1 == 0x1f && b2 == 0x8b) {
      in = new GZIPInputStream(in, 1 << 16);
    }
    return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
  }
}
