package io.recrawl.live;

import java.util.List;
import java.util.Locale;

/**
 * A fault the live benchmark injects into recrawl's loop mid-run: its kind and when, in seconds
 * after the start. Every kind kills a JVM with SIGKILL (no shutdown hook, no last checkpoint) and
 * starts it again at once with the same command.
 *
 * <ul>
 *   <li>{@code job}: the job's JVM, restarted from its latest retained checkpoint ({@code
 *       --from-latest-checkpoint}); the local MiniCluster's task manager lives in it, so this is
 *       also the loss of the task manager;
 *   <li>{@code crawler}: the crawler's JVM (StormCrawler's topology); its spout resumes from the
 *       offsets it committed;
 *   <li>{@code kafka}: the broker, on the same port and log directory.
 * </ul>
 */
public record LiveFault(String kind, double atSeconds) {

  static final List<String> KINDS = List.of("job", "crawler", "kafka");

  /** {@code KIND@SECONDS}, as {@code --fault} takes it. */
  public static LiveFault parse(String s) {
    int at = s.indexOf('@');
    if (at < 0) {
      throw new IllegalArgumentException("--fault takes KIND@SECONDS, got '" + s + "'");
    }
    String kind = s.substring(0, at);
    if (!KINDS.contains(kind)) {
      throw new IllegalArgumentException(
          "--fault kinds are " + String.join(", ", KINDS) + "; got '" + kind + "'");
    }
    double seconds;
    try {
      seconds = Double.parseDouble(s.substring(at + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--fault " + s + ": not a number of seconds");
    }
    if (!(seconds > 0)) {
      throw new IllegalArgumentException("--fault " + s + ": the time must be > 0");
    }
    return new LiveFault(kind, seconds);
  }

  /** The JVM this fault kills. */
  String childName() {
    return switch (kind) {
      case "job" -> LiveSystems.RECRAWL + "-job";
      case "crawler" -> LiveSystems.RECRAWL + "-crawler";
      default -> LiveSystems.KAFKA;
    };
  }

  /** When it is due, in ms since the epoch, for a run that starts at {@code t0}. */
  long dueAt(long t0) {
    return t0 + Math.round(atSeconds * 1000);
  }

  /** What the JVM is started again with. */
  List<String> restartArgs() {
    return kind.equals("job") ? List.of("--from-latest-checkpoint") : List.of();
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s@%s", kind, LiveBench.fmt(atSeconds));
  }
}
