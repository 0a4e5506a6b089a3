package io.recrawl.flink.io;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The finished part files of a Flink {@code FileSink} directory, read while the sink may still be
 * writing.
 */
public final class FileSinkParts {

  private FileSinkParts() {}

  /**
   * The finished part files under {@code dir}, sorted. In-progress files (their names start with a
   * dot) are left out, and so is anything the sink renames or removes while the directory is being
   * listed: a plain {@code Files.walk} fails on an in-progress file that is committed under it.
   */
  public static List<Path> finished(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<Path> out = new ArrayList<>();
    Files.walkFileTree(
        dir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (attrs.isRegularFile() && !file.getFileName().toString().startsWith(".")) {
              out.add(file);
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE; // renamed or removed by the sink meanwhile
            }
            throw e;
          }
        });
    Collections.sort(out);
    return out;
  }

  /** The lines of the finished part files under {@code dir}, file by file in name order. */
  public static List<String> lines(Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Path p : finished(dir)) {
      lines.addAll(Files.readAllLines(p));
    }
    return lines;
  }
}
