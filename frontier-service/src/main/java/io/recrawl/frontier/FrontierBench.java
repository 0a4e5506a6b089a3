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
import io.grpc.ManagedChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code recrawl bench frontier}: a gRPC load client against the embedded frontier in this JVM.
 * Discoveries (20 outlinks for each fetched page) and updates through PutURLs, GetURLs, and the
 * latency from a discovery's PutURLs to its GetURLs; CPU per URL of the service's threads and of
 * the rest of the process (the job and the broker).
 */
public final class FrontierBench {

  private FrontierBench() {}

  public static void main(String[] args) throws Exception {
    int pages = 5_000;
    int hosts = 500;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--pages" -> pages = Integer.parseInt(args[i + 1]);
        case "--hosts" -> hosts = Integer.parseInt(args[i + 1]);
        default -> {
          System.err.println(
              "usage: bin/recrawl bench frontier [--pages N] [--hosts N]\n"
                  + "example:\n  bin/recrawl bench frontier --pages 5000 --hosts 500");
          System.exit(2);
        }
      }
    }
    Path dir = Files.createTempDirectory("frontier-bench");
    try (EmbeddedFrontier f = EmbeddedFrontier.start(dir, 0, Map.of(), 10_000)) {
      ManagedChannel channel =
          ManagedChannelBuilder.forAddress("localhost", f.port()).usePlaintext().build();
      URLFrontierGrpc.URLFrontierStub async = URLFrontierGrpc.newStub(channel);
      URLFrontierGrpc.URLFrontierBlockingStub blocking = URLFrontierGrpc.newBlockingStub(channel);
      Cpu cpu = new Cpu();

      // Discoveries: each fetched page's 20 outlinks, on `hosts` hosts.
      List<URLItem> discoveries = new ArrayList<>(pages * 20);
      for (int p = 0; p < pages; p++) {
        for (int l = 0; l < 20; l++) {
          int h = (p * 20 + l) % hosts;
          discoveries.add(discovered("http://h" + h + ".bench/p" + p + "-" + l));
        }
      }
      cpu.mark();
      double rate = put(async, discoveries);
      report("discoveries (PutURLs, 20 outlinks a page)", rate, discoveries.size(), cpu);

      // Updates: a known item for each fetched page, with a fetch's metadata.
      List<URLItem> updates = new ArrayList<>(pages);
      long refetch = System.currentTimeMillis() / 1000 + 3600;
      for (int p = 0; p < pages; p++) {
        updates.add(known("http://h" + (p * 20 % hosts) + ".bench/p" + p + "-0", refetch, p));
      }
      cpu.mark();
      rate = put(async, updates);
      report("updates (PutURLs, known items)", rate, updates.size(), cpu);

      // GetURLs: what the job has released (one a second per host at its default pacing).
      Thread.sleep(5_000);
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
      report("GetURLs (released by the job, 1/s per host)", got / secs, got, cpu);

      // Latency: a discovery on a host of its own, then GetURLs for its queue.
      long[] lat = new long[100];
      for (int i = 0; i < lat.length; i++) {
        String host = "lat" + i + ".bench";
        long s = System.nanoTime();
        put(async, List.of(discovered("http://" + host + "/")));
        boolean seen = false;
        while (!seen) {
          seen =
              blocking
                  .getURLs(GetParams.newBuilder().setKey(host).setDelayRequestable(60).build())
                  .hasNext();
        }
        lat[i] = (System.nanoTime() - s) / 1_000_000;
      }
      Arrays.sort(lat);
      System.out.printf(
          "latency PutURLs(discovered) -> GetURLs: p50 %d ms, p99 %d ms, max %d ms (%d samples)%n",
          lat[lat.length / 2], lat[lat.length * 99 / 100 - 1], lat[lat.length - 1], lat.length);
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    System.exit(0);
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

  /** Puts the items on 4 streams; URLs a second, once every item is acknowledged OK. */
  static double put(URLFrontierGrpc.URLFrontierStub async, List<URLItem> items) throws Exception {
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
    return items.size() / ((System.nanoTime() - t0) / 1e9);
  }

  static void report(String what, double rate, long n, Cpu cpu) {
    long[] d = cpu.since();
    System.out.printf(
        "%-48s %,10.0f URLs/s  CPU per URL: service %5.1f µs, job+broker %5.1f µs (%d URLs)%n",
        what, rate, d[0] / 1e3 / n, d[1] / 1e3 / n, n);
  }

  /** CPU time of the service's threads (gRPC, its Kafka clients) and of the rest of the JVM. */
  static final class Cpu {
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private long service;
    private long total;

    void mark() {
      long[] now = now();
      service = now[0];
      total = now[1];
    }

    long[] since() {
      long[] now = now();
      return new long[] {now[0] - service, (now[1] - total) - (now[0] - service)};
    }

    private long[] now() {
      long svc = 0;
      for (long id : threads.getAllThreadIds()) {
        java.lang.management.ThreadInfo info = threads.getThreadInfo(id);
        if (info == null) {
          continue;
        }
        String name = info.getThreadName();
        long t = threads.getThreadCpuTime(id);
        if (t > 0 && isService(name)) {
          svc += t;
        }
      }
      long all =
          ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
              .getProcessCpuTime();
      return new long[] {svc, all};
    }

    /** The service's threads: gRPC's, and its Kafka clients' (named after their client ids). */
    static boolean isService(String name) {
      return name.startsWith("grpc-") || name.contains("recrawl-frontier");
    }
  }
}
