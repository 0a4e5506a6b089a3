package io.recrawl.frontier;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/recrawl bench frontier}: a gRPC load client against the embedded service (trial
 * broker, job, service in this JVM). It measures discoveries a second through {@code PutURLs} (the
 * outlinks of fetched pages), updates a second (the fetched pages as known items), URLs a second
 * through {@code GetURLs}, each with CPU per URL, and the time from the {@code PutURLs} of a new
 * host's first URL to its {@code GetURLs}.
 */
public final class FrontierBench {

  static final String USAGE =
      String.join(
          "\n",
          "usage: bin/recrawl bench frontier [--pages N] [--outlinks N] [--hosts N] [--latency-samples N]",
          "       bin/recrawl bench frontier --target HOST:PORT --target-pid PID [--pairs N] [--urls N]",
          "                                  [--hosts N] [--cli JAR] [--idle S]",
          "",
          "The embedded service under the project's load client, in this JVM:",
          "  --pages N            fetched pages whose outlinks are put (default 5000)",
          "  --outlinks N         outlinks per page, each a new URL (default 20)",
          "  --hosts N            hosts the URLs spread over (default 1000)",
          "  --latency-samples N  new hosts whose first URL is put and then got, one at a time (default 200)",
          "",
          "Side by side: the same load against bin/recrawl frontier (a process of its own) and another",
          "URL Frontier server, in alternated pairs, each server's CPU from /proc/PID/stat:",
          "  --target HOST:PORT   the other server (URL Frontier's own, say)",
          "  --target-pid PID     its process, for its CPU",
          "  --pairs N            alternated pairs of runs (default 2)",
          "  --urls N             URLs a run (default 100000), on --hosts hosts",
          "  --cli JAR            also put a file with URL Frontier's CLI (urlfrontier-client-*.jar)",
          "  --idle S             seconds of idle CPU measured at the end (default 20)",
          "",
          "examples:",
          "  bin/recrawl bench frontier --pages 5000",
          "  bin/recrawl bench frontier --target 127.0.0.1:7072 --target-pid 12345 --cli urlfrontier-client-2.6.jar");

  private FrontierBench() {}

  public static void main(String[] args) throws Exception {
    int pages = 5_000;
    int outlinks = 20;
    int hosts = 1_000;
    int samples = 200;
    String target = null;
    long targetPid = -1;
    int pairs = 2;
    int urls = 100_000;
    Path cli = null;
    int idle = 20;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--target" -> target = args[++i];
        case "--target-pid" -> targetPid = Long.parseLong(args[++i]);
        case "--pairs" -> pairs = Integer.parseInt(args[++i]);
        case "--urls" -> urls = Integer.parseInt(args[++i]);
        case "--cli" -> cli = Path.of(args[++i]);
        case "--idle" -> idle = Integer.parseInt(args[++i]);
        case "--pages" -> pages = Integer.parseInt(args[++i]);
        case "--outlinks" -> outlinks = Integer.parseInt(args[++i]);
        case "--hosts" -> hosts = Integer.parseInt(args[++i]);
        case "--latency-samples" -> samples = Integer.parseInt(args[++i]);
        case "--help", "-h" -> {
          System.out.println(USAGE);
          return;
        }
        default -> {
          System.err.println("bench frontier: unexpected argument '" + args[i] + "'\n" + USAGE);
          System.exit(2);
        }
      }
    }
    if (target != null) {
      if (targetPid <= 0 || !target.contains(":")) {
        System.err.println("bench frontier: --target HOST:PORT needs --target-pid PID\n" + USAGE);
        System.exit(2);
      }
      FrontierSideBySide.run(target, targetPid, pairs, urls, hosts, cli, idle);
      System.exit(0);
    }
    Path dir = Files.createTempDirectory("recrawl-bench-frontier");
    // Ten URLs a second per host, so that GetURLs is measured rather than politeness; the
    // default delay, and so the job's lease, of bin/recrawl frontier (30 s), so that the backlog of
    // released requests does not run out of its lease before it is taken.
    try (EmbeddedFrontier f =
        new EmbeddedFrontier(
            dir,
            Map.of("recrawl.engine.host.max-rate", 864_000),
            null,
            s -> s.withDefaultDelaySeconds(FrontierSettings.defaults("-").defaultDelaySeconds()))) {
      run(f, pages, outlinks, hosts, samples);
    }
    System.exit(0); // the MiniCluster's threads
  }

  private static void run(EmbeddedFrontier f, int pages, int outlinks, int hosts, int samples)
      throws Exception {
    FrontierClient client = new FrontierClient(f);
    System.out.printf(
        Locale.ROOT,
        "bench frontier: %,d pages x %,d outlinks on %,d hosts; %d latency samples%n",
        pages,
        outlinks,
        hosts,
        samples);
    List<URLItem> discoveries = new ArrayList<>(pages * outlinks);
    for (int p = 0; p < pages; p++) {
      for (int o = 0; o < outlinks; o++) {
        int n = p * outlinks + o;
        discoveries.add(FrontierClient.discovered("http://h" + (n % hosts) + ".bench/" + n));
      }
    }
    Cpu before = Cpu.now();
    long t0 = System.nanoTime();
    int ok = put(client, discoveries);
    double secs = (System.nanoTime() - t0) / 1e9;
    Cpu discovered = Cpu.now();
    report("PutURLs, discoveries", ok, secs, before, discovered);

    List<URLItem> updates = new ArrayList<>(pages);
    for (int p = 0; p < pages; p++) {
      updates.add(
          FrontierClient.known(
              "http://h" + (p % hosts) + ".bench/" + p,
              System.currentTimeMillis() / 1000 + 86_400,
              Map.of("fetch.statusCode", "200", "signature", "s")));
    }
    t0 = System.nanoTime();
    ok = put(client, updates);
    secs = (System.nanoTime() - t0) / 1e9;
    Cpu updated = Cpu.now();
    report("PutURLs, updates", ok, secs, discovered, updated);

    t0 = System.nanoTime();
    int got = 0;
    long quietSince = System.nanoTime();
    while (System.nanoTime() - quietSince < 3_000_000_000L) {
      int n = client.get(GetParams.newBuilder().setDelayRequestable(600).build()).size();
      got += n;
      if (n > 0) {
        quietSince = System.nanoTime();
      }
    }
    secs = (System.nanoTime() - t0 - 3_000_000_000L) / 1e9;
    report("GetURLs", got, secs, updated, Cpu.now());

    long[] ms = new long[samples];
    for (int i = 0; i < samples; i++) {
      String host = "latency" + i + ".bench";
      long start = System.nanoTime();
      put(client, List.of(FrontierClient.discovered("http://" + host + "/")));
      while (client
          .get(GetParams.newBuilder().setKey(host).setDelayRequestable(600).build())
          .isEmpty()) {
        // GetURLs itself waits up to a second for URLs on their way
      }
      ms[i] = (System.nanoTime() - start) / 1_000_000;
    }
    Arrays.sort(ms);
    System.out.printf(
        Locale.ROOT,
        "  latency, PutURLs of a new host's URL to its GetURLs: p50 %d ms, p99 %d ms, max %d ms%n",
        ms[ms.length / 2],
        ms[Math.min(ms.length - 1, (int) Math.ceil(ms.length * 0.99) - 1)],
        ms[ms.length - 1]);
  }

  private static void report(String what, int urls, double secs, Cpu from, Cpu to) {
    System.out.printf(
        Locale.ROOT,
        "  %-22s %,9d URLs in %6.1f s = %,8.0f a second; CPU per URL: %6.1f us the whole JVM,"
            + " %6.1f us the service's threads, %6.1f us the scheduler's%n",
        what,
        urls,
        secs,
        urls / secs,
        (to.process - from.process) * 1e6 / urls,
        (to.service - from.service) * 1e6 / urls,
        (to.scheduler - from.scheduler) * 1e6 / urls);
  }

  /** Puts the items over four streams; the OK acks. */
  private static int put(FrontierClient client, List<URLItem> items) throws InterruptedException {
    return (int)
        client.put(items, 4).stream().filter(a -> a.getStatus() == AckMessage.Status.OK).count();
  }

  /** CPU seconds so far: the whole JVM, the service's threads, the scheduler's threads. */
  private record Cpu(double process, double service, double scheduler) {
    static Cpu now() {
      ThreadMXBean mx = ManagementFactory.getThreadMXBean();
      long service = 0;
      long scheduler = 0;
      for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
        if (t == null) {
          continue;
        }
        String name = t.getThreadName();
        long cpu = Math.max(0, mx.getThreadCpuTime(t.getThreadId()));
        if (name.startsWith("grpc-")
            || name.startsWith("recrawl-frontier")
            || name.startsWith("kafka-producer-network-thread")) {
          service += cpu;
        } else if (name.startsWith("host-scheduler")) {
          scheduler += cpu;
        }
      }
      double process =
          ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                  .getProcessCpuTime()
              / 1e9;
      return new Cpu(process, service / 1e9, scheduler / 1e9);
    }
  }
}
