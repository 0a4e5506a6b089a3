package io.recrawl.live;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A program of the live benchmark in a JVM of its own (the broker, the job, each crawler), with its
 * output in {@code dir/name.log}. Every one still running when this JVM exits (Ctrl-C included) is
 * killed by a shutdown hook, so none outlives the benchmark.
 */
final class ChildJvm {

  private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  for (Process p : RUNNING) {
                    p.destroyForcibly();
                  }
                },
                "live-children"));
  }

  private final String name;
  private final Path dir;
  private final List<String> cmd;
  private final Process process;
  private final Path log;

  private ChildJvm(String name, Path dir, List<String> cmd, Process process, Path log) {
    this.name = name;
    this.dir = dir;
    this.cmd = cmd;
    this.process = process;
    this.log = log;
  }

  /**
   * Starts {@code mainClass} in {@code dir}; the JVM gets this one's module openings (Flink needs
   * them on JDK 17) and {@code jvmOptions}.
   */
  static ChildJvm start(
      Path dir,
      String name,
      String classpath,
      List<String> jvmOptions,
      String mainClass,
      List<String> args)
      throws IOException {
    Files.createDirectories(dir);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-opens") || a.startsWith("--add-exports"))
        .forEach(cmd::add);
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", classpath, mainClass));
    cmd.addAll(args);
    return launch(name, dir, List.copyOf(cmd), false);
  }

  /** Starts {@code cmd} with its output in {@code dir/name.log}, after what it holds if asked. */
  private static ChildJvm launch(String name, Path dir, List<String> cmd, boolean append)
      throws IOException {
    Path log = dir.resolve(name + ".log");
    Process p =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(
                append
                    ? ProcessBuilder.Redirect.appendTo(log.toFile())
                    : ProcessBuilder.Redirect.to(log.toFile()))
            .start();
    RUNNING.add(p);
    return new ChildJvm(name, dir, cmd, p, log);
  }

  /** SIGKILL, as a machine or a container that dies: no shutdown hook, no last checkpoint. */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    RUNNING.remove(process);
  }

  /** The same command again with {@code moreArgs}, its output appended to the same log. */
  ChildJvm restart(List<String> moreArgs) throws IOException {
    if (process.isAlive()) {
      throw new IllegalStateException(name + " is still running");
    }
    Files.writeString(
        log,
        "\n--- restarted by the live benchmark ---\n",
        java.nio.file.StandardOpenOption.APPEND);
    List<String> again = new ArrayList<>(cmd);
    moreArgs.stream().filter(a -> !cmd.contains(a)).forEach(again::add);
    return launch(name, dir, List.copyOf(again), true);
  }

  String name() {
    return name;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  Path logFile() {
    return log;
  }

  String log() throws IOException {
    return Files.exists(log) ? Files.readString(log) : "";
  }

  /** Waits until its log holds {@code marker}; fails if it ends first or time runs out. */
  void awaitLog(String marker, long timeoutMs) throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (!log().contains(marker)) {
      if (!isAlive()) {
        throw new IllegalStateException(name + " ended before it was ready; see " + log);
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException(name + " not ready in time; see " + log);
      }
      Thread.sleep(250);
    }
  }

  /** Closes its input (a LocalCluster crawl then shuts down), killing it after {@code waitMs}. */
  void closeInput(long waitMs) throws InterruptedException {
    try {
      process.getOutputStream().close();
    } catch (IOException gone) {
      // already ended
    }
    awaitEnd(waitMs);
  }

  /** SIGTERM, as Ctrl-C; killed after {@code waitMs}. */
  void stop(long waitMs) throws InterruptedException {
    process.destroy();
    awaitEnd(waitMs);
  }

  private void awaitEnd(long waitMs) throws InterruptedException {
    if (!process.waitFor(waitMs, TimeUnit.MILLISECONDS)) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    RUNNING.remove(process);
  }
}
