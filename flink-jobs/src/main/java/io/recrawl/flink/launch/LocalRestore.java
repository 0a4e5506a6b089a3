package io.recrawl.flink.launch;

import io.recrawl.flink.config.ConfigException;
import io.recrawl.flink.config.RecrawlConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A local run's way out and back in: it stops on Ctrl-C with a savepoint, and starts again from
 * that savepoint or from the newest checkpoint it retained.
 */
public final class LocalRestore {

  private LocalRestore() {}

  /**
   * The newest retained checkpoint ({@code <dir>/<job id>/chk-N} with its {@code _metadata}) under
   * the checkpoint directory: Flink's setting, or the work directory's {@code checkpoints}.
   */
  static String latestCheckpoint(RecrawlConfig config, Configuration flink) {
    Path dir =
        flink
            .getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY)
            .map(LocalRestore::localPath)
            .orElse(RunCommand.workDir(config).resolve("checkpoints"));
    Optional<Path> newest;
    try {
      newest = newestCheckpoint(dir);
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new ConfigException("--from-latest-checkpoint", "cannot read " + dir + ": " + e);
    }
    return newest
        .map(Path::toString)
        .orElseThrow(
            () ->
                new ConfigException(
                    "--from-latest-checkpoint", "no retained checkpoint under " + dir));
  }

  /**
   * The newest retained checkpoint ({@code <job id>/chk-N} with its {@code _metadata}) under a
   * local checkpoint directory; empty when there is none.
   */
  public static Optional<Path> newestCheckpoint(Path dir) throws IOException {
    try (Stream<Path> jobs = Files.exists(dir) ? Files.list(dir) : Stream.empty()) {
      return jobs.filter(Files::isDirectory)
          .flatMap(LocalRestore::checkpoints)
          .filter(chk -> Files.exists(chk.resolve("_metadata")))
          .max(Comparator.comparing(LocalRestore::modified));
    }
  }

  /**
   * The newest restore point of a local work directory: of its savepoints ({@code
   * savepoints/savepoint-*}) and its retained checkpoints ({@code checkpoints/<job id>/chk-N}), the
   * one whose {@code _metadata} was written last; empty when there is none.
   */
  public static Optional<Path> newestRestorePoint(Path work) throws IOException {
    Optional<Path> checkpoint = newestCheckpoint(work.resolve("checkpoints"));
    Optional<Path> savepoint;
    Path savepoints = work.resolve("savepoints");
    try (Stream<Path> all = Files.exists(savepoints) ? Files.list(savepoints) : Stream.empty()) {
      savepoint =
          all.filter(p -> Files.exists(p.resolve("_metadata")))
              .max(Comparator.comparing(LocalRestore::modified));
    }
    return Stream.of(checkpoint, savepoint)
        .flatMap(Optional::stream)
        .max(Comparator.comparing(LocalRestore::modified));
  }

  /**
   * Deletes the savepoints and the checkpoint directories of earlier jobs under {@code work}, all
   * but {@code keep} (the restore point a new job starts from): a job restored from a restore point
   * takes a full checkpoint first, so what is older is never read again. Returns how many it
   * deleted.
   */
  public static int pruneOlderThan(Path work, Path keep) throws IOException {
    List<Path> older = new ArrayList<>();
    Path keepJob = keep.getParent();
    for (Path parent : List.of(work.resolve("savepoints"), work.resolve("checkpoints"))) {
      if (!Files.exists(parent)) {
        continue;
      }
      try (Stream<Path> all = Files.list(parent)) {
        all.filter(p -> !p.equals(keep) && !p.equals(keepJob)).forEach(older::add);
      }
    }
    for (Path p : older) {
      try (Stream<Path> tree = Files.walk(p)) {
        for (Path f : tree.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(f);
        }
      }
    }
    return older.size();
  }

  private static Path localPath(String uri) {
    return uri.contains("://") ? Path.of(URI.create(uri)) : Path.of(uri);
  }

  private static Stream<Path> checkpoints(Path jobDir) {
    try {
      return Files.list(jobDir).filter(p -> p.getFileName().toString().startsWith("chk-"));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static FileTime modified(Path chk) {
    try {
      return Files.getLastModifiedTime(chk.resolve("_metadata"));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Runs the job until it ends, or until the JVM is asked to stop (Ctrl-C, SIGTERM): then it stops
   * the job with a savepoint under {@code work/savepoints} and says how to start from it.
   */
  static void runUntilStopped(
      StreamExecutionEnvironment env, String jobName, Path work, Path configFile, PrintStream err)
      throws Exception {
    JobClient job = env.executeAsync(jobName);
    Path savepoints = work.resolve("savepoints");
    err.println(
        "recrawl run: job "
            + job.getJobID()
            + " running; Ctrl-C stops it with a savepoint under "
            + savepoints);
    Thread stopper =
        new Thread(() -> stopWithSavepoint(job, savepoints, configFile, err), "recrawl-stop");
    Runtime.getRuntime().addShutdownHook(stopper);
    try {
      job.getJobExecutionResult().get();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(stopper);
      } catch (IllegalStateException stopping) {
        // the JVM is stopping: the hook takes the savepoint
      }
    }
  }

  private static void stopWithSavepoint(
      JobClient job, Path savepoints, Path configFile, PrintStream err) {
    try {
      if (job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState()) {
        return;
      }
      err.println("recrawl run: stopping with a savepoint ...");
      String location =
          job.stopWithSavepoint(false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
              .get(5, TimeUnit.MINUTES);
      String path =
          location.startsWith("file:") ? Path.of(URI.create(location)).toString() : location;
      err.println("recrawl run: stopped with a savepoint in " + path);
      err.println(
          "recrawl run: start from it with: bin/recrawl run --config "
              + configFile
              + " --from-savepoint "
              + path);
    } catch (Exception e) {
      err.println(
          "recrawl run: no savepoint ("
              + e
              + "); start from the latest checkpoint with --from-latest-checkpoint");
    }
  }
}
