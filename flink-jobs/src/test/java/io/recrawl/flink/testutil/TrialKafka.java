package io.recrawl.flink.testutil;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.kafka.KafkaCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@code bin/recrawl kafka}'s broker in this JVM, as a user starts it, until closed. */
public final class TrialKafka implements AutoCloseable {

  private final CountDownLatch stop;
  private final CompletableFuture<Integer> done;
  private final String bootstrap;

  private TrialKafka(CountDownLatch stop, CompletableFuture<Integer> done, String bootstrap) {
    this.stop = stop;
    this.done = done;
    this.bootstrap = bootstrap;
  }

  /** Starts the broker with its data under {@code dir} and waits until it is ready. */
  public static TrialKafka start(Path dir) throws Exception {
    CountDownLatch stop = new CountDownLatch(1);
    int port = freePort();
    int controllerPort = freePort();
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    CompletableFuture<Integer> done =
        CompletableFuture.supplyAsync(
            () -> {
              PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8);
              try {
                return KafkaCommand.run(
                    new String[] {
                      "--port",
                      "" + port,
                      "--controller-port",
                      "" + controllerPort,
                      "--dir",
                      dir.toString()
                    },
                    out,
                    out,
                    stop);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    TrialKafka kafka = new TrialKafka(stop, done, "127.0.0.1:" + port);
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (!output.toString(StandardCharsets.UTF_8).contains("Ctrl-C stops it")) {
      if (System.nanoTime() > deadline) {
        kafka.close();
      }
      assertThat(System.nanoTime()).as("broker output: %s", output).isLessThan(deadline);
      Thread.sleep(200);
    }
    return kafka;
  }

  public String bootstrap() {
    return bootstrap;
  }

  @Override
  public void close() throws Exception {
    stop.countDown();
    done.get(1, TimeUnit.MINUTES);
  }

  public static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
