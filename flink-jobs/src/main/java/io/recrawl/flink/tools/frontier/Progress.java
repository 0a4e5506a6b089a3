package io.recrawl.flink.tools.frontier;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A progress line every few seconds: rows so far, rows a second, and, from the bytes read of the
 * file's size, the estimated time left. Plain lines, so that logs and pipes keep them.
 */
final class Progress {

  private final PrintStream out;
  private final String what;
  private final long totalBytes;
  private final LongSupplier bytesRead;
  private final long everyNanos;
  private final long start = System.nanoTime();
  private long last = start;

  Progress(PrintStream out, String what, long totalBytes, LongSupplier bytesRead, long everyMs) {
    this.out = out;
    this.what = what;
    this.totalBytes = totalBytes;
    this.bytesRead = bytesRead;
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
    long read = bytesRead.getAsLong();
    String eta = "";
    if (totalBytes > 0 && read > 0) {
      double left = secs * (totalBytes - read) / read;
      eta =
          String.format(
              Locale.ROOT,
              ", %.0f%% of %,d bytes, ETA %.0f s",
              100.0 * read / totalBytes,
              totalBytes,
              Math.max(0, left));
    }
    return String.format(
        Locale.ROOT, "recrawl import: %s %,d rows, %,.0f rows/s%s", what, rows, rows / secs, eta);
  }
}
