package io.recrawl.live;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The live web as its files describe it (docs/live-benchmark.md#the-server-log): what the judge
 * needs and nothing the server keeps in memory, so the figures come from the files alone.
 */
final class GroundTruth {

  static final String WEB = "web.csv";
  static final String HOSTS = "hosts.csv";
  static final String SPELLS = "spells.csv";
  static final String PAGES = "pages.csv";

  /** A host's limits. */
  record Host(long limitMillis, int crawlDelaySeconds) {}

  /** A page's weight and change times (ms since the start, ascending). */
  record Page(double weight, long[] changes) {
    /** When the page left version v: the time of its change v + 1, or never. */
    long end(int v) {
      return v < changes.length ? changes[v] : Long.MAX_VALUE;
    }
  }

  final Map<String, Host> hosts = new HashMap<>();
  final Map<String, Page> pages = new HashMap<>(); // "host path"
  double totalWeight;

  static String key(String host, String path) {
    return host + " " + path;
  }

  static GroundTruth read(Path dir) throws IOException {
    GroundTruth g = new GroundTruth();
    for (String[] f : rows(dir.resolve(HOSTS))) {
      g.hosts.put(f[0], new Host(Long.parseLong(f[1]), Integer.parseInt(f[2])));
    }
    for (String[] f : rows(dir.resolve(PAGES))) {
      double weight = Double.parseDouble(f[2]);
      String[] times = f.length > 4 && !f[4].isEmpty() ? f[4].split(" ") : new String[0];
      long[] changes = new long[times.length];
      for (int i = 0; i < times.length; i++) {
        changes[i] = Long.parseLong(times[i]);
      }
      g.pages.put(key(f[0], f[1]), new Page(weight, changes));
      g.totalWeight += weight;
    }
    return g;
  }

  /** The rows of a CSV file after its header, split on commas (no field holds one). */
  static List<String[]> rows(Path file) throws IOException {
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return r.lines().skip(1).filter(l -> !l.isEmpty()).map(l -> l.split(",", -1)).toList();
    }
  }
}
