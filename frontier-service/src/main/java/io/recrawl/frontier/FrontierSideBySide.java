package io.recrawl.frontier;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.Local;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code bin/recrawl bench frontier --target HOST:PORT --target-pid PID}: the same load against
 * {@code bin/recrawl frontier} (started here as a process of its own) and against another URL
 * Frontier server, in alternated pairs, each server's CPU read from {@code /proc/PID/stat}. The
 * load is the project's gRPC client and, with {@code --cli JAR}, URL Frontier's own CLI: new URLs
 * put by each, {@code GetURLs} until nothing comes, and the crawler's answer for each URL as a
 * known URL with a date. Idle CPU is read first, each server at rest; a smaller run warms each up.
 */
final class FrontierSideBySide {

  /** The kernel's clock ticks a second: the unit of {@code /proc/PID/stat}'s times (Linux: 100). */
  private static final double TICKS = 100.0;

  private static final int QUIET_MS = 3_000;

  private static final int SETTLE_MS = 30_000;

  /** A server under load: its address and its process. */
  private record Server(String name, String host, int port, long pid) {}

  /** One phase's figures: URLs, seconds, the server's CPU seconds. */
  private record Run(long urls, double secs, double cpu) {
    double rate() {
      return urls / secs;
    }

    double microsPerUrl() {
      return cpu * 1e6 / Math.max(1, urls);
    }
  }

  private FrontierSideBySide() {}

  static void run(
      String target, long targetPid, int pairs, int urls, int hosts, Path cli, int idleSeconds)
      throws Exception {
    int colon = target.lastIndexOf(':');
    Server other =
        new Server(
            "target " + target,
            target.substring(0, colon),
            Integer.parseInt(target.substring(colon + 1)),
            targetPid);
    Path dir = Files.createTempDirectory("recrawl-bench-side-by-side");
    int port = EmbeddedFrontier.freePort();
    Process child = startFrontier(dir, port);
    try {
      Server recrawl = new Server("bin/recrawl frontier", "127.0.0.1", port, child.pid());
      awaitServing(recrawl, child);
      System.out.printf(
          Locale.ROOT,
          "bench frontier side by side: %,d URLs on %,d hosts a run, %d pairs, %s vs %s (pid %d)%n",
          urls,
          hosts,
          pairs,
          recrawl.name(),
          other.name(),
          other.pid());
      Map<String, List<Run>> figures = new LinkedHashMap<>();
      Thread.sleep(SETTLE_MS); // the start's tail (JIT, the job's first checkpoint) is not rest
      for (Server s : List.of(recrawl, other)) { // before any load: the frontier at rest
        double before = cpuSeconds(s.pid());
        Thread.sleep(idleSeconds * 1_000L);
        double used = cpuSeconds(s.pid()) - before;
        figures
            .computeIfAbsent(s.name() + "\tidle", k -> new ArrayList<>())
            .add(new Run(0, idleSeconds, used));
      }
      for (Server s : List.of(recrawl, other)) { // warm-up, not counted: the JIT, the caches
        load(s, "warm", Math.max(1, urls / 5), hosts, cli, dir, new LinkedHashMap<>());
      }
      for (int pair = 0; pair < pairs; pair++) {
        List<Server> order = pair % 2 == 0 ? List.of(recrawl, other) : List.of(other, recrawl);
        for (Server s : order) {
          String prefix = "r" + pair + (s == recrawl ? "a" : "b");
          load(s, prefix, urls, hosts, cli, dir, figures);
        }
      }
      report(figures, recrawl, other);
    } finally {
      child.destroy(); // SIGTERM: the frontier stops with a savepoint
      if (!child.waitFor(60, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
    }
  }

  /** {@code bin/recrawl frontier} in a JVM of its own, on this one's class path. */
  private static Process startFrontier(Path dir, int port) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(java());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(FrontierCommand.class.getName());
    cmd.addAll(
        List.of(
            "--dir",
            dir.resolve("frontier").toString(),
            "--port",
            Integer.toString(port),
            "--kafka-port",
            Integer.toString(EmbeddedFrontier.freePort()),
            // Ten URLs a second per host: GetURLs is measured, not politeness.
            "-Drecrawl.engine.host.max-rate=864000"));
    return new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("frontier.log").toFile())
        .start();
  }

  private static void awaitServing(Server s, Process child) throws Exception {
    long end = System.currentTimeMillis() + 120_000;
    while (System.currentTimeMillis() < end) {
      if (!child.isAlive()) {
        throw new IllegalStateException("bin/recrawl frontier exited with " + child.exitValue());
      }
      ManagedChannel ch = channel(s);
      try {
        URLFrontierGrpc.newBlockingStub(ch)
            .withDeadlineAfter(2, TimeUnit.SECONDS)
            .listCrawls(Local.getDefaultInstance());
        return;
      } catch (RuntimeException notYet) {
        Thread.sleep(500);
      } finally {
        ch.shutdownNow();
      }
    }
    throw new IllegalStateException("bin/recrawl frontier did not serve within 120 s");
  }

  private static ManagedChannel channel(Server s) {
    return NettyChannelBuilder.forAddress(s.host(), s.port())
        .usePlaintext()
        .maxInboundMessageSize(64 << 20)
        .build();
  }

  /** One run of every phase against {@code s}, with URLs of its own ({@code prefix}). */
  private static void load(
      Server s,
      String prefix,
      int urls,
      int hosts,
      Path cli,
      Path dir,
      Map<String, List<Run>> figures)
      throws Exception {
    ManagedChannel ch = channel(s);
    try {
      FrontierClient client = new FrontierClient(ch);
      List<URLItem> discovered = new ArrayList<>(urls);
      List<URLItem> known = new ArrayList<>(2 * urls);
      long refetch = System.currentTimeMillis() / 1000 + 86_400;
      List<String> cliUrls = new ArrayList<>();
      for (int i = 0; i < urls; i++) {
        String url = "http://h" + (i % hosts) + "." + prefix + ".bench/" + i;
        discovered.add(FrontierClient.discovered(url));
        known.add(FrontierClient.known(url, refetch, Map.of("fetch.statusCode", "200")));
        if (cli != null) {
          String other = "http://h" + (i % hosts) + "." + prefix + "-cli.bench/" + i;
          cliUrls.add(other);
          known.add(FrontierClient.known(other, refetch, Map.of("fetch.statusCode", "200")));
        }
      }
      record(figures, s, "PutURLs, new URLs (gRPC client)", () -> put(client, discovered));
      if (cli != null) {
        Path file = dir.resolve(prefix + "-cli.txt");
        Files.write(file, cliUrls);
        record(figures, s, "PutURLs, new URLs (URL Frontier's CLI)", () -> cli(cli, s, file, urls));
      }
      // New URLs are due at once in both; then the crawler's answer for each, as known URLs.
      record(figures, s, "GetURLs", QUIET_MS, () -> drain(client));
      record(figures, s, "PutURLs, known URLs (gRPC client)", () -> put(client, known));
    } finally {
      ch.shutdownNow();
    }
  }

  private interface Phase {
    long urls() throws Exception;
  }

  private static void record(Map<String, List<Run>> figures, Server s, String what, Phase phase)
      throws Exception {
    record(figures, s, what, 0, phase);
  }

  /** One phase's run; {@code tailMs}, the wait at its end that found nothing more, is not timed. */
  private static void record(
      Map<String, List<Run>> figures, Server s, String what, long tailMs, Phase phase)
      throws Exception {
    double cpu0 = cpuSeconds(s.pid());
    long t0 = System.nanoTime();
    long n = phase.urls();
    double secs = (System.nanoTime() - t0) / 1e9 - tailMs / 1e3;
    Run r = new Run(n, secs, cpuSeconds(s.pid()) - cpu0);
    figures.computeIfAbsent(s.name() + "\t" + what, k -> new ArrayList<>()).add(r);
    System.out.printf(
        Locale.ROOT,
        "  %-22s %-40s %,9d URLs %6.1f s %,8.0f/s %7.1f us CPU a URL%n",
        s.name(),
        what,
        n,
        secs,
        r.rate(),
        r.microsPerUrl());
  }

  private static long put(FrontierClient client, List<URLItem> items) throws Exception {
    return client.put(items, 4).stream().filter(a -> a.getStatus() == AckMessage.Status.OK).count();
  }

  private static long drain(FrontierClient client) {
    long got = 0;
    long quietSince = System.currentTimeMillis();
    while (System.currentTimeMillis() - quietSince < QUIET_MS) {
      int n = client.get(GetParams.newBuilder().setDelayRequestable(600).build()).size();
      got += n;
      if (n > 0) {
        quietSince = System.currentTimeMillis();
      }
    }
    return got;
  }

  private static long cli(Path jar, Server s, Path file, long urls) throws Exception {
    Process p =
        new ProcessBuilder(
                java(),
                "-jar",
                jar.toString(),
                "-t",
                s.host(),
                "-p",
                Integer.toString(s.port()),
                "PutURLs",
                "-f",
                file.toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("URL Frontier's CLI exited with " + p.exitValue());
    }
    return urls;
  }

  /** This JVM's {@code java}, for the processes the benchmark starts. */
  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** User and system CPU seconds of process {@code pid} so far. */
  static double cpuSeconds(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    // The command name (field 2) may hold spaces: the fields after it start past its ')'.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS; // utime, stime
  }

  private static void report(Map<String, List<Run>> figures, Server recrawl, Server other) {
    System.out.println();
    System.out.println("medians over the pairs (rate: URLs a second; CPU: server us a URL)");
    System.out.printf(
        Locale.ROOT,
        "  %-40s %22s %22s %16s%n",
        "",
        recrawl.name(),
        other.name(),
        "ratio rate, CPU");
    List<String> phases = new ArrayList<>();
    for (String key : figures.keySet()) {
      String phase = key.substring(key.indexOf('\t') + 1);
      if (!phases.contains(phase)) {
        phases.add(phase);
      }
    }
    for (String phase : phases) {
      List<Run> a = figures.get(recrawl.name() + "\t" + phase);
      List<Run> b = figures.get(other.name() + "\t" + phase);
      if (a == null || b == null) {
        continue;
      }
      if (phase.equals("idle")) {
        double ca = a.get(0).cpu() / a.get(0).secs() * 100;
        double cb = b.get(0).cpu() / b.get(0).secs() * 100;
        System.out.printf(
            Locale.ROOT, "  %-40s %20.1f %% %20.1f %% %16s%n", "idle, % of a core", ca, cb, "");
        continue;
      }
      double ra = median(a, Run::rate);
      double rb = median(b, Run::rate);
      double ua = median(a, Run::microsPerUrl);
      double ub = median(b, Run::microsPerUrl);
      System.out.printf(
          Locale.ROOT,
          "  %-40s %,10.0f/s %7.1f us %,10.0f/s %7.1f us %7.2f, %5.2f%n",
          phase,
          ra,
          ua,
          rb,
          ub,
          ra / rb,
          ua / ub);
    }
  }

  private static double median(List<Run> runs, java.util.function.ToDoubleFunction<Run> f) {
    double[] v = runs.stream().mapToDouble(f).toArray();
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
