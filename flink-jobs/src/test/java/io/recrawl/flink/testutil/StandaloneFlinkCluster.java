package io.recrawl.flink.testutil;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Flink session cluster as a distribution runs it: a JobManager and a TaskManager, each its own
 * JVM, with only Flink's jars on the classpath, configured by a {@code config.yaml}. Jobs reach it
 * through Flink's own {@code CliFrontend}, the class behind {@code bin/flink run}.
 */
public final class StandaloneFlinkCluster implements AutoCloseable {

  private final Path dir;
  private final String classpath;
  private final int restPort;
  private Process jobManager;
  private Process taskManager;

  /**
   * @param dir where the configuration, logs and checkpoints go
   * @param classpath the cluster's classpath (what a distribution's lib/ holds)
   * @param settings extra config.yaml entries (the job's Flink settings, as a cluster would have
   *     them)
   */
  public StandaloneFlinkCluster(Path dir, String classpath, Map<String, String> settings)
      throws IOException {
    this.dir = dir;
    this.classpath = classpath;
    this.restPort = freePort();
    StringBuilder conf = new StringBuilder();
    conf.append("jobmanager.rpc.address: localhost\n")
        .append("jobmanager.rpc.port: ")
        .append(freePort())
        .append('\n')
        .append("jobmanager.bind-host: localhost\n")
        .append("taskmanager.bind-host: localhost\n")
        .append("taskmanager.host: localhost\n")
        .append("rest.address: localhost\n")
        .append("rest.bind-address: localhost\n")
        .append("rest.port: ")
        .append(restPort)
        .append('\n')
        .append("jobmanager.memory.process.size: 768m\n")
        .append("taskmanager.numberOfTaskSlots: 2\n")
        // bin/taskmanager.sh derives these from the process size; a bare TaskManagerRunner needs
        // them.
        .append("taskmanager.cpu.cores: 2\n")
        .append("taskmanager.memory.framework.heap.size: 128m\n")
        .append("taskmanager.memory.task.heap.size: 384m\n")
        .append("taskmanager.memory.managed.size: 256m\n")
        .append("taskmanager.memory.framework.off-heap.size: 128m\n")
        .append("taskmanager.memory.task.off-heap.size: 0m\n")
        .append("taskmanager.memory.network.min: 64m\n")
        .append("taskmanager.memory.network.max: 64m\n")
        .append("taskmanager.memory.jvm-metaspace.size: 256m\n")
        .append("taskmanager.memory.jvm-overhead.min: 192m\n")
        .append("taskmanager.memory.jvm-overhead.max: 192m\n");
    settings.forEach((k, v) -> conf.append(k).append(": ").append(v).append('\n'));
    Files.createDirectories(confDir());
    Files.writeString(confDir().resolve("config.yaml"), conf.toString());
  }

  public Path confDir() {
    return dir.resolve("conf");
  }

  public int restPort() {
    return restPort;
  }

  /** Starts the JobManager and the TaskManager and waits until the TaskManager has registered. */
  public void start(Duration timeout) throws Exception {
    jobManager =
        java(
            "jobmanager",
            "-Xmx512m",
            "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
            "--configDir",
            confDir().toString());
    taskManager =
        java(
            "taskmanager",
            "-Xmx640m",
            "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
            "--configDir",
            confDir().toString());
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      String overview = rest("/overview");
      if (overview != null && overview.contains("\"taskmanagers\":1")) {
        return;
      }
      checkAlive(jobManager, "jobmanager");
      checkAlive(taskManager, "taskmanager");
      Thread.sleep(500);
    }
    throw new IllegalStateException(
        "the cluster did not come up within " + timeout + "; see the logs in " + dir);
  }

  private void checkAlive(Process p, String name) {
    if (!p.isAlive()) {
      throw new IllegalStateException(
          "the " + name + " exited:\n" + tail(dir.resolve(name + ".log")));
    }
  }

  /** Runs {@code flink run ARGS} (Flink's CliFrontend, in its own JVM) and returns its output. */
  public String flinkRun(Duration timeout, String... args) throws Exception {
    List<String> cli = new ArrayList<>(List.of("run"));
    cli.addAll(List.of(args));
    Process p =
        java(
            "flink-run",
            "-Xmx256m",
            "org.apache.flink.client.cli.CliFrontend",
            cli.toArray(String[]::new));
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("flink run did not return within " + timeout);
    }
    String out = Files.readString(dir.resolve("flink-run.log"));
    if (p.exitValue() != 0) {
      throw new IllegalStateException("flink run exited with " + p.exitValue() + ":\n" + out);
    }
    return out;
  }

  /** A GET on the cluster's REST API; null if it does not answer (yet). */
  public String rest(String path) {
    try {
      HttpURLConnection c =
          (HttpURLConnection)
              URI.create("http://localhost:" + restPort + path).toURL().openConnection();
      c.setConnectTimeout(1000);
      c.setReadTimeout(5000);
      if (c.getResponseCode() != 200) {
        return null;
      }
      return new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return null;
    }
  }

  private Process java(String name, String heap, String mainClass, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add(heap);
    // Flink on JDK 17 needs the same opens as this test JVM was given.
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-opens") || a.startsWith("--add-exports")) {
        cmd.add(a);
      }
    }
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add(mainClass);
    cmd.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve(name + ".log").toFile());
    pb.environment().put("FLINK_CONF_DIR", confDir().toString());
    return pb.start();
  }

  @Override
  public void close() {
    List<Process> started = new ArrayList<>();
    for (Process p : new Process[] {jobManager, taskManager}) {
      if (p != null) {
        p.destroy();
        started.add(p);
      }
    }
    for (Process p : started) {
      try {
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
          p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.destroyForcibly();
      }
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /** The jar (or directory) a class was loaded from, as a classpath entry. */
  public static String codeSourceOf(Class<?> c) {
    try {
      return new File(c.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
    } catch (Exception e) {
      throw new IllegalStateException("cannot locate the jar of " + c.getName(), e);
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
