package io.recrawl.flink.tools.frontier;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A progress line every few seconds: rows so far, rows a second, and, from the share of the work
 * done (bytes of the file read, or rows built of those to build), the estimated time left. Plain
 * lines, so that logs and pipes keep them.
 */
final class Progress {

  private final PrintStream out;
  private final String what;
  private final long total;
  private final String unit;
  private final LongSupplier done;
  private final long everyNanos;
  private final long start = System.nanoTime();
  private long last = start;

  /**
   * @param total the work to do, in {@code unit}s ({@code done} of it is done so far)
   */
  Progress(PrintStream out, String what, long total, String unit, LongSupplier done, long everyMs) {
    this.out = out;
    this.what = what;
    this.total = total;
    this.unit = unit;
    this.done = done;
    this.everyNanos = everyMs * 1_000_000L;
  }

  /** Prints a line if the last one is old enough. */
  void update(long rows) {
    long t = System.nanoTime();
    if (t - last >= everyNanos) {
      last = t;
      out.println(line(rows, t));
    }
  }

  String line(long rows, long nanos) {
    double secs = Math.max(1e-9, (nanos - start) / 1e9);
    long d = done.getAsLong();
    String eta = "";
    if (total > 0 && d > 0) {
      double left = secs * (total - d) / d;
      eta =
          String.format(
              Locale.ROOT,
              ", %.0f%% of %,d %s, ETA %.0f s",
              100.0 * d / total,
              total,
              unit,
              Math.max(0, left));
    }
    return String.format(
        Locale.ROOT, "recrawl import: %s %,d rows, %,.0f rows/s%s", what, rows, rows / secs, eta);
  }
}
