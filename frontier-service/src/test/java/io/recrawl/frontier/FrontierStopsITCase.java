package io.recrawl.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.AnyCrawlID;
import crawlercommons.urlfrontier.Urlfrontier.BlockQueueParams;
import crawlercommons.urlfrontier.Urlfrontier.CountUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.Local;
import crawlercommons.urlfrontier.Urlfrontier.QueueDelayParams;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.recrawl.flink.launch.LocalRestore;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/recrawl frontier} in a JVM of its own, stopped as a user stops it (Ctrl-C, SIGTERM)
 * and as a crash does ({@code kill -9}), and started again with the same {@code --dir}: every time
 * the URLs of both crawls, a URL's status, a queue's block and a host's delay are all there again.
 */
class FrontierStopsITCase {

  @TempDir Path tmp;

  private static final String NEWS = "news";

  @Test
  void everyKindOfStopResumesTheWholeFrontier() throws Exception {
    Path dir = tmp.resolve("frontier");
    int grpc = EmbeddedFrontier.freePort();
    int kafka = EmbeddedFrontier.freePort();
    List<URLInfo> handedOut = new ArrayList<>();

    Child first = Child.start(tmp, "first", dir, grpc, kafka);
    assertThat(first.awaitLog(l -> l.contains("serving URL Frontier"))).contains("a new frontier");
    try (Client c = new Client(grpc)) {
      // The delay first, so that host c.example never goes faster than one URL an hour.
      c.client
          .blocking()
          .setDelay(
              QueueDelayParams.newBuilder().setKey("c.example").setDelayRequestable(3600).build());
      List<URLItem> items = new ArrayList<>();
      for (String host : List.of("a", "b", "c")) {
        items.add(FrontierClient.discovered("http://" + host + ".example/1"));
        items.add(FrontierClient.discovered("http://" + host + ".example/2"));
      }
      for (int i = 0; i < 3; i++) {
        items.add(FrontierClient.discovered(NEWS, "http://a.example/news/" + i));
      }
      assertThat(c.client.put(items)).allMatch(a -> a.getStatus() == AckMessage.Status.OK);
      c.client
          .blocking()
          .blockQueueUntil(
              BlockQueueParams.newBuilder()
                  .setKey("b.example")
                  .setTime(System.currentTimeMillis() / 1000 + 3600)
                  .build());
      handedOut.addAll(c.drain());
      c.assertWhole(handedOut);
    }
    assertThat(first.interrupt()).contains("stopped with a savepoint");

    Child second = resumed("second", "resuming from savepoint", dir, grpc, kafka, handedOut);
    // A checkpoint of the resumed job, then a crash.
    Path checkpoints = dir.resolve("job").resolve("checkpoints");
    long end = System.currentTimeMillis() + 60_000;
    while (LocalRestore.newestCheckpoint(checkpoints).isEmpty()
        && System.currentTimeMillis() < end) {
      Thread.sleep(500);
    }
    second.kill();

    Child third = resumed("third", "resuming from checkpoint", dir, grpc, kafka, handedOut);
    assertThat(third.terminate()).contains("stopped with a savepoint");

    resumed("fourth", "resuming from savepoint", dir, grpc, kafka, handedOut).terminate();
  }

  /** Starts the frontier again, checks what it says it restored, and that the whole is there. */
  private Child resumed(
      String name, String says, Path dir, int grpc, int kafka, List<URLInfo> handedOut)
      throws Exception {
    Child child = Child.start(tmp, name, dir, grpc, kafka);
    assertThat(child.awaitLog(l -> l.contains("serving URL Frontier"))).contains(says);
    try (Client c = new Client(grpc)) {
      handedOut.addAll(c.drain());
      c.assertWhole(handedOut);
    }
    return child;
  }

  /** A gRPC client of the child's service. */
  private static final class Client implements AutoCloseable {
    final ManagedChannel channel;
    final FrontierClient client;

    Client(int port) {
      channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
      client = new FrontierClient(channel);
    }

    long count(String crawl) {
      return client
          .blocking()
          .withDeadlineAfter(20, TimeUnit.SECONDS)
          .countURLs(CountUrlParams.newBuilder().setCrawlID(crawl).build())
          .getValue();
    }

    /** Waits for the job to answer with {@code n} URLs (it may still be starting). */
    void awaitCount(String crawl, long n) throws InterruptedException {
      long end = System.currentTimeMillis() + 60_000;
      long seen = -1;
      while (System.currentTimeMillis() < end) {
        try {
          seen = count(crawl);
          if (seen == n) {
            return;
          }
        } catch (StatusRuntimeException notYet) {
          // the job is still starting
        }
        Thread.sleep(500);
      }
      assertThat(seen).as("CountURLs of crawl '%s'", crawl).isEqualTo(n);
    }

    /** What GetURLs hands out over a few seconds. */
    List<URLInfo> drain() throws InterruptedException {
      List<URLInfo> out = new ArrayList<>();
      long end = System.currentTimeMillis() + 5_000;
      while (System.currentTimeMillis() < end) {
        out.addAll(
            client.get(
                GetParams.newBuilder().setAnyCrawlID(AnyCrawlID.getDefaultInstance()).build()));
        Thread.sleep(200);
      }
      return out;
    }

    /** Both crawls, a URL's status, the block and the delay, as they were put. */
    void assertWhole(List<URLInfo> handedOut) throws InterruptedException {
      awaitCount("", 6);
      assertThat(count(NEWS)).isEqualTo(3);
      assertThat(client.blocking().listCrawls(Local.getDefaultInstance()).getValuesList())
          .containsExactlyInAnyOrder("DEFAULT", NEWS);
      URLItem status =
          client
              .blocking()
              .getURLStatus(
                  URLStatusRequest.newBuilder()
                      .setCrawlID(NEWS)
                      .setUrl("http://a.example/news/1")
                      .build());
      assertThat(status.hasKnown() ? status.getKnown().getInfo() : status.getDiscovered().getInfo())
          .extracting(URLInfo::getUrl, URLInfo::getCrawlID)
          .containsExactly("http://a.example/news/1", NEWS);
      // Blocked for an hour: nothing of b.example after the block; c.example: one URL an hour.
      assertThat(handedOut.stream().filter(u -> u.getKey().equals("c.example")).count())
          .as("hand-outs of c.example, delay 3600 s")
          .isLessThanOrEqualTo(1);
      assertThat(handedOut.stream().filter(u -> u.getKey().equals("a.example")).count())
          .as("a.example's URLs are handed out")
          .isNotZero();
    }

    @Override
    public void close() throws InterruptedException {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** {@code bin/recrawl frontier}'s main in a JVM of its own, its output in a log file. */
  private static final class Child {
    final Process process;
    final Path log;

    private Child(Process process, Path log) {
      this.process = process;
      this.log = log;
    }

    static Child start(Path tmp, String name, Path dir, int grpc, int kafka) throws Exception {
      Path module = Path.of("").toAbsolutePath();
      String classpath =
          module.resolve("target/classes")
              + File.pathSeparator
              + Files.readString(module.resolve("target/frontier-classpath.txt")).trim();
      List<String> cmd = new ArrayList<>();
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.add("-Xmx1g");
      ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
          .filter(a -> a.startsWith("--add-opens") || a.startsWith("--add-exports"))
          .forEach(cmd::add);
      cmd.add(
          "-Dlog4j2.configurationFile="
              + module.resolveSibling("config").resolve("log4j2-cli.properties"));
      cmd.addAll(List.of("-cp", classpath, FrontierCommand.class.getName()));
      cmd.addAll(
          List.of(
              "--dir",
              dir.toString(),
              "--port",
              Integer.toString(grpc),
              "--kafka-port",
              Integer.toString(kafka)));
      Path log = tmp.resolve(name + ".log");
      Process p =
          new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      return new Child(p, log);
    }

    String log() throws Exception {
      return Files.exists(log) ? Files.readString(log) : "";
    }

    String awaitLog(Predicate<String> done) throws Exception {
      long end = System.currentTimeMillis() + 120_000;
      while (!done.test(log())) {
        assertThat(process.isAlive()).as("%s ended early:%n%s", log, log()).isTrue();
        assertThat(System.currentTimeMillis()).as("%s so far:%n%s", log, log()).isLessThan(end);
        Thread.sleep(300);
      }
      return log();
    }

    /** Ctrl-C. */
    String interrupt() throws Exception {
      new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();
      return ended();
    }

    /** SIGTERM. */
    String terminate() throws Exception {
      process.destroy();
      return ended();
    }

    /** {@code kill -9}. */
    void kill() throws Exception {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    private String ended() throws Exception {
      if (!process.waitFor(3, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new AssertionError("did not stop:\n" + log());
      }
      return log();
    }
  }
}
