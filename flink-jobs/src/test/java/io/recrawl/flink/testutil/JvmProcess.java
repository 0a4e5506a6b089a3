package io.recrawl.flink.testutil;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A program in a JVM of its own, as a user starts it from a shell, with its output in {@code
 * dir/name.log}: stopped with SIGTERM as Ctrl-C does, or by closing its input.
 */
public final class JvmProcess implements AutoCloseable {

  private final Process process;
  private final Path log;

  private JvmProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** The job's launcher ({@code bin/recrawl run}, the jar's main), on flink-jobs' class path. */
  public static JvmProcess job(Path dir, String name, String... args) throws IOException {
    Path module = RepoFiles.root().resolve("flink-jobs");
    String classpath =
        module.resolve("target/classes")
            + File.pathSeparator
            + Files.readString(module.resolve("target/cli-classpath.txt")).trim();
    return start(
        dir,
        name,
        classpath,
        List.of("-Dlog4j2.configurationFile=" + RepoFiles.file("config/log4j2-cli.properties")),
        io.recrawl.flink.launch.JobMain.class.getName(),
        args);
  }

  /** Starts {@code mainClass} with this JVM's module openings, in {@code dir}. */
  public static JvmProcess start(
      Path dir,
      String name,
      String classpath,
      List<String> jvmOptions,
      String mainClass,
      String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx1g");
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-opens") || a.startsWith("--add-exports"))
        .forEach(cmd::add);
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", classpath, mainClass));
    cmd.addAll(List.of(args));
    Path log = dir.resolve(name + ".log");
    Process p =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    return new JvmProcess(p, log);
  }

  /**
   * Runs a program as a user does from a shell started with {@code nohup} or {@code &}: no standard
   * input, the environment with {@code env} added, in {@code dir}.
   */
  public static JvmProcess command(
      Path dir, String name, java.util.Map<String, String> env, String... cmd) throws IOException {
    Path log = dir.resolve(name + ".log");
    ProcessBuilder b =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    b.environment().putAll(env);
    return new JvmProcess(b.start(), log);
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** What it printed so far. */
  public String log() throws IOException {
    return Files.exists(log) ? Files.readString(log) : "";
  }

  /** Waits until its output satisfies {@code done}; fails if it ends first or time runs out. */
  public String awaitLog(Predicate<String> done, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!done.test(log())) {
      assertThat(System.nanoTime()).as("%s so far:%n%s", log, log()).isLessThan(deadline);
      assertThat(isAlive()).as("%s ended early:%n%s", log, log()).isTrue();
      Thread.sleep(500);
    }
    return log();
  }

  /** SIGTERM, as Ctrl-C; returns its whole output once it has ended. */
  public String stop() throws Exception {
    process.destroy();
    if (!process.waitFor(3, TimeUnit.MINUTES)) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      throw new AssertionError("did not stop on SIGTERM:\n" + log());
    }
    return log();
  }

  /** Kills it without warning, as a crash would. */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
  }

  /** Closes its input (a program that reads it to its end then stops), else kills it. */
  @Override
  public void close() throws Exception {
    try {
      process.getOutputStream().close();
    } catch (IOException gone) {
      // already ended
    }
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      kill();
    }
  }
}
