// Recomputes the live benchmark's summary from its files alone, without recrawl's code:
//   java scripts/LiveRecompute.java OUT_DIR/web WARMUP_SECONDS END_SECONDS OUT_DIR/requests-*.csv
// The formats and the definitions are in docs/live-benchmark.md.
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

public class LiveRecompute {

  public static void main(String[] args) throws IOException {
    if (args.length < 4) {
      System.err.println("usage: java LiveRecompute.java WEB_DIR WARMUP_S END_S REQUEST_LOG...");
      System.exit(2);
    }
    Path web = Path.of(args[0]);
    long from = Math.round(Double.parseDouble(args[1]) * 1000);
    long to = Math.round(Double.parseDouble(args[2]) * 1000);

    Map<String, long[]> limit = new HashMap<>(); // host -> {limit_ms, crawl_delay_s}
    for (String[] f : csv(web.resolve("hosts.csv"))) {
      limit.put(f[0], new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])});
    }
    Map<String, Double> weight = new HashMap<>();
    Map<String, long[]> changes = new HashMap<>();
    double totalWeight = 0;
    for (String[] f : csv(web.resolve("pages.csv"))) {
      String page = f[0] + f[1];
      weight.put(page, Double.parseDouble(f[2]));
      totalWeight += Double.parseDouble(f[2]);
      String[] times = f[4].isEmpty() ? new String[0] : f[4].split(" ");
      long[] c = new long[times.length];
      for (int i = 0; i < c.length; i++) {
        c[i] = Long.parseLong(times[i]);
      }
      changes.put(page, c);
    }

    System.out.printf(
        Locale.ROOT,
        "%-28s %9s %8s %8s %10s %8s %11s %12s%n",
        "log", "freshness", "requests", "fetches", "violations", "min gap", "in RA", "under delay");
    for (int a = 3; a < args.length; a++) {
      List<String[]> log = csv(Path.of(args[a]));
      log.sort((x, y) -> Long.compare(Long.parseLong(x[0]), Long.parseLong(y[0])));
      Map<String, List<long[]>> fetched = new HashMap<>(); // page -> {t, version held}
      Map<String, Integer> held = new HashMap<>(); // page -> version of its last 200
      Map<String, Long> last = new HashMap<>();
      Map<String, Long> until = new HashMap<>();
      long fetches = 0, violations = 0, inRa = 0, underDelay = 0;
      double minGap = Double.NaN;
      for (String[] f : log) {
        long t = Long.parseLong(f[0]);
        String host = f[1], path = f[2];
        int status = Integer.parseInt(f[3]);
        int version = Integer.parseInt(f[4]);
        if ((status == 200 || status == 304) && version >= 0) {
          // a 304 confirms the client's copy: the version of its last 200, not the server's
          if (status == 200) held.put(host + path, version);
          else version = held.getOrDefault(host + path, -1);
          fetched.computeIfAbsent(host + path, k -> new ArrayList<>()).add(new long[] {t, version});
          if (t >= from && t < to) fetches++;
        }
        if (!limit.containsKey(host) || path.equals("/robots.txt")) continue;
        if (until.containsKey(host) && t < until.get(host)) inRa++;
        if (!f[5].isEmpty()) until.merge(host, t + Long.parseLong(f[5]) * 1000, Math::max);
        Long before = last.put(host, t);
        if (before != null) {
          long gap = t - before;
          double ratio = (double) gap / limit.get(host)[0];
          minGap = Double.isNaN(minGap) ? ratio : Math.min(minGap, ratio);
          if (gap < limit.get(host)[0]) {
            violations++;
            if (limit.get(host)[1] > 0) underDelay++;
          }
        }
      }
      double fresh = 0;
      for (Map.Entry<String, List<long[]>> e : fetched.entrySet()) {
        long[] c = changes.get(e.getKey());
        if (c == null) continue;
        List<long[]> got = e.getValue();
        for (int k = 0; k < got.size(); k++) {
          long start = got.get(k)[0];
          int v = (int) got.get(k)[1];
          long end = v < 0 ? start : v < c.length ? c[v] : Long.MAX_VALUE;
          if (k + 1 < got.size()) end = Math.min(end, got.get(k + 1)[0]);
          end = Math.min(end, to);
          fresh += weight.get(e.getKey()) * Math.max(0, end - Math.max(start, from));
        }
      }
      System.out.printf(
          Locale.ROOT,
          "%-28s %9.4f %8d %8d %10d %8.3f %11d %12d%n",
          Path.of(args[a]).getFileName(),
          fresh / (totalWeight * (to - from)),
          log.size(),
          fetches,
          violations,
          minGap,
          inRa,
          underDelay);
    }
  }

  private static List<String[]> csv(Path file) throws IOException {
    List<String[]> rows = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      if (!line.isEmpty()) rows.add(line.split(",", -1));
    }
    return rows.subList(1, rows.size());
  }
}
