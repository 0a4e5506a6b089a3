package io.recrawl.flink.bench;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Watches a job's checkpoint directory while it runs: how many checkpoints completed, how many
 * bytes they wrote in all (an incremental RocksDB checkpoint uploads only the SST files the
 * previous one did not have) and how much the directory holds at the end (what the retained
 * checkpoint needs). Read from the file system, so it is what the storage sees, whatever Flink
 * reports.
 */
final class CheckpointFootprint implements AutoCloseable {

  /** The figures at the end. */
  record Result(int checkpoints, long writtenBytes, long largestWriteBytes, long retainedBytes) {
    static final Result NONE = new Result(0, 0, 0, 0);

    long meanWriteBytes() {
      return checkpoints == 0 ? 0 : writtenBytes / checkpoints;
    }
  }

  private final Path dir;
  private final ScheduledExecutorService poller;

  /** Every file seen, with the largest size seen (a file being written grows between polls). */
  private final Map<Path, Long> files = new ConcurrentHashMap<>();

  /** Completed checkpoints (chk-N directories with their _metadata), with the bytes new in each. */
  private final Map<Path, Long> completed = new ConcurrentHashMap<>();

  private long accounted;

  CheckpointFootprint(Path dir) {
    this.dir = dir;
    this.poller =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "checkpoint-footprint");
              t.setDaemon(true);
              return t;
            });
    poller.scheduleWithFixedDelay(this::poll, 0, 200, TimeUnit.MILLISECONDS);
  }

  private synchronized void poll() {
    Set<Path> newlyCompleted = new HashSet<>();
    try {
      walk(
          (file, size) -> {
            files.merge(file, size, Math::max);
            if (file.getFileName().toString().equals("_metadata")
                && !completed.containsKey(file.getParent())) {
              newlyCompleted.add(file.getParent());
            }
          });
    } catch (IOException e) {
      return; // the next poll sees it
    }
    long total = files.values().stream().mapToLong(Long::longValue).sum();
    for (Path chk : newlyCompleted) {
      // Everything written since the last completed checkpoint belongs to this one.
      completed.put(chk, total - accounted);
      accounted = total;
    }
  }

  private interface FileSize {
    void seen(Path file, long size);
  }

  private void walk(FileSize visitor) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    Files.walkFileTree(
        dir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (attrs.isRegularFile()) {
              visitor.seen(file, attrs.size());
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE; // discarded by Flink meanwhile
            }
            throw e;
          }
        });
  }

  /** Stops watching and returns the figures; the retained size is the directory's now. */
  synchronized Result finish() throws IOException {
    poller.shutdownNow();
    poll();
    long[] retained = {0};
    walk((file, size) -> retained[0] += size);
    long largest = completed.values().stream().mapToLong(Long::longValue).max().orElse(0);
    return new Result(completed.size(), accounted, largest, retained[0]);
  }

  @Override
  public void close() {
    poller.shutdownNow();
  }
}
