package io.recrawl.flink.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/** The benchmarks' command lines ({@code --name value} pairs) and their work directories. */
final class BenchArgs {

  private BenchArgs() {}

  /** The options by name without their dashes, or null (after printing the usage) if malformed. */
  static Map<String, String> parse(String[] args, String usage) {
    Map<String, String> o = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        System.err.println(usage);
        return null;
      }
      o.put(args[i].substring(2), args[++i]);
    }
    return o;
  }

  /** Deletes a work directory left by an earlier run, if there is one. */
  static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
