package io.recrawl.frontier;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * {@code bin/recrawl bench frontier}: a gRPC load client against a running {@code bin/recrawl
 * frontier}. Discoveries (20 outlinks for each fetched page) and updates through PutURLs, GetURLs,
 * and the latency from a discovery's PutURLs to its GetURLs. Given the server's process id, it also
 * reads the server's CPU per URL from /proc, split between the service's threads (gRPC's and the
 * service's own) and the rest (the job, the broker, the Kafka clients).
 */
public final class FrontierBench {

  static final String USAGE =
      String.join(
          "\n",
          "usage: bin/recrawl bench frontier [--target HOST:PORT] [--pid PID] [--pages N] [--hosts N]",
          "",
          "A gRPC load client against a running bin/recrawl frontier: discoveries (20 outlinks a",
          "fetched page) and updates through PutURLs, GetURLs, and the latency from a discovery's",
          "PutURLs to its GetURLs (p50, p99). With --pid, the server's CPU per URL from /proc.",
          "",
          "options:",
          "  --target HOST:PORT  the service (default localhost:7071)",
          "  --pid PID           the server's process id (Linux), for its CPU per URL",
          "  --pages N           fetched pages (default 5000): N x 20 discoveries, N updates",
          "  --hosts N           hosts the URLs are spread over (default 500)",
          "",
          "example:",
          "  bin/recrawl frontier --dir /tmp/f & bin/recrawl bench frontier --pid $!");

  private FrontierBench() {}

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.out));
  }

  static int run(String[] args, PrintStream out) throws Exception {
    String target = "localhost:7071";
    long pid = -1;
    int pages = 5_000;
    int hosts = 500;
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (a.equals("--help") || a.equals("-h")) {
          out.println(USAGE);
          return 0;
        } else if (a.equals("--target") && i + 1 < args.length) {
          target = args[++i];
        } else if (a.equals("--pid") && i + 1 < args.length) {
          pid = Long.parseLong(args[++i]);
        } else if (a.equals("--pages") && i + 1 < args.length) {
          pages = Integer.parseInt(args[++i]);
        } else if (a.equals("--hosts") && i + 1 < args.length) {
          hosts = Integer.parseInt(args[++i]);
        } else {
          throw new IllegalArgumentException("unexpected argument '" + a + "'");
        }
      }
      if (pages <= 0 || hosts <= 0) {
        throw new IllegalArgumentException("--pages and --hosts must be positive");
      }
    } catch (IllegalArgumentException e) {
      out.println("recrawl bench frontier: " + e.getMessage());
      out.println(USAGE);
      return 2;
    }
    String host = target.substring(0, target.lastIndexOf(':'));
    int port = Integer.parseInt(target.substring(target.lastIndexOf(':') + 1));
    ManagedChannel channel = NettyChannelBuilder.forAddress(host, port).usePlaintext().build();
    try {
      URLFrontierGrpc.URLFrontierStub async = URLFrontierGrpc.newStub(channel);
      URLFrontierGrpc.URLFrontierBlockingStub blocking = URLFrontierGrpc.newBlockingStub(channel);
      ServerCpu cpu = new ServerCpu(pid);
      String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);

      List<URLItem> discoveries = new ArrayList<>(pages * 20);
      for (int p = 0; p < pages; p++) {
        for (int l = 0; l < 20; l++) {
          discoveries.add(discovered(url(run, (p * 20 + l) % hosts, p + "-" + l)));
        }
      }
      cpu.mark();
      report(out, "discoveries (PutURLs, 20 outlinks a page)", put(async, discoveries), cpu);

      List<URLItem> updates = new ArrayList<>(pages);
      long refetch = System.currentTimeMillis() / 1000 + 3600;
      for (int p = 0; p < pages; p++) {
        updates.add(known(url(run, p * 20 % hosts, p + "-0"), refetch, p));
      }
      cpu.mark();
      report(out, "updates (PutURLs, known items)", put(async, updates), cpu);

      cpu.mark();
      long t0 = System.nanoTime();
      long got = 0;
      while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(20)) {
        Iterator<URLInfo> it =
            blocking.getURLs(
                GetParams.newBuilder().setMaxUrlsPerQueue(10).setDelayRequestable(60).build());
        while (it.hasNext()) {
          it.next();
          got++;
        }
      }
      double secs = (System.nanoTime() - t0) / 1e9;
      report(out, "GetURLs (as the job releases them)", new double[] {got / secs, got}, cpu);

      long[] lat = new long[100];
      for (int i = 0; i < lat.length; i++) {
        String h = "lat" + i + "-" + run + ".bench";
        long s = System.nanoTime();
        put(async, List.of(discovered("http://" + h + "/")));
        while (!blocking
            .getURLs(GetParams.newBuilder().setKey(h).setDelayRequestable(60).build())
            .hasNext()) {
          // GetURLs waits a bounded time for URLs on their way
        }
        lat[i] = (System.nanoTime() - s) / 1_000_000;
      }
      Arrays.sort(lat);
      out.printf(
          "latency PutURLs(discovered) -> GetURLs, new hosts: p50 %d ms, p99 %d ms, max %d ms (%d)%n",
          lat[lat.length / 2], lat[98], lat[lat.length - 1], lat.length);
      return 0;
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  static String url(String run, int host, String page) {
    return "http://h" + host + "-" + run + ".bench/p" + page;
  }

  static URLItem discovered(String url) {
    return URLItem.newBuilder()
        .setDiscovered(DiscoveredURLItem.newBuilder().setInfo(URLInfo.newBuilder().setUrl(url)))
        .build();
  }

  static URLItem known(String url, long refetch, int n) {
    URLInfo info =
        URLInfo.newBuilder()
            .setUrl(url)
            .putMetadata("fetch.statusCode", StringList.newBuilder().addValues("200").build())
            .putMetadata("signature", StringList.newBuilder().addValues("s" + (n % 7)).build())
            .build();
    return URLItem.newBuilder()
        .setKnown(KnownURLItem.newBuilder().setInfo(info).setRefetchableFromDate(refetch))
        .build();
  }

  /** Puts the items on 4 streams: {URLs a second until the last ack, URLs}; all must be OK. */
  static double[] put(URLFrontierGrpc.URLFrontierStub async, List<URLItem> items) throws Exception {
    int streams = 4;
    long t0 = System.nanoTime();
    AtomicLong notOk = new AtomicLong();
    List<CompletableFuture<Void>> done = new ArrayList<>();
    for (int s = 0; s < streams; s++) {
      CompletableFuture<Void> d = new CompletableFuture<>();
      done.add(d);
      StreamObserver<URLItem> in =
          async.putURLs(
              new StreamObserver<>() {
                @Override
                public void onNext(AckMessage a) {
                  if (a.getStatus() != AckMessage.Status.OK) {
                    notOk.incrementAndGet();
                  }
                }

                @Override
                public void onError(Throwable t) {
                  d.completeExceptionally(t);
                }

                @Override
                public void onCompleted() {
                  d.complete(null);
                }
              });
      for (int i = s; i < items.size(); i += streams) {
        in.onNext(items.get(i));
      }
      in.onCompleted();
    }
    CompletableFuture.allOf(done.toArray(new CompletableFuture[0])).get(10, TimeUnit.MINUTES);
    if (notOk.get() > 0) {
      throw new IllegalStateException(notOk.get() + " items not acknowledged OK");
    }
    return new double[] {items.size() / ((System.nanoTime() - t0) / 1e9), items.size()};
  }

  static void report(PrintStream out, String what, double[] rateAndCount, ServerCpu cpu)
      throws IOException {
    long[] d = cpu.since();
    double n = rateAndCount[1];
    out.printf(
        "%-44s %,9.0f URLs/s  server CPU per URL: service %s, job+broker %s (%,.0f URLs)%n",
        what,
        rateAndCount[0],
        d == null ? "-" : String.format("%.1f µs", d[0] / 1e3 / n),
        d == null ? "-" : String.format("%.1f µs", d[1] / 1e3 / n),
        n);
  }

  /**
   * The server's CPU time by thread, from /proc (Linux): the service's threads are gRPC's and those
   * named recrawl-frontier*, the rest is the job, the broker and the Kafka clients.
   */
  static final class ServerCpu {
    private final long pid;
    private final long nanosPerTick = 10_000_000L; // USER_HZ is 100 on Linux
    private long[] last;

    ServerCpu(long pid) {
      this.pid = pid;
    }

    void mark() throws IOException {
      last = pid < 0 ? null : now();
    }

    /** {service, rest} nanoseconds since the mark, or null without a process id. */
    long[] since() throws IOException {
      if (last == null) {
        return null;
      }
      long[] now = now();
      return new long[] {now[0] - last[0], now[1] - last[1]};
    }

    private long[] now() throws IOException {
      long service = 0;
      long rest = 0;
      try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
        for (Path t : tasks.toList()) {
          String stat;
          try {
            stat = Files.readString(t.resolve("stat"));
          } catch (IOException gone) {
            continue; // the thread ended
          }
          String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
          String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime
          if (name.startsWith("grpc-") || name.startsWith("recrawl-frontie")) {
            service += ticks * nanosPerTick;
          } else {
            rest += ticks * nanosPerTick;
          }
        }
      }
      return new long[] {service, rest};
    }
  }
}
