package io.recrawl.sim.workload;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a workload as {@code pages.csv} and {@code hosts.csv} (only the limited hosts are listed),
 * and its pages' observed changes as {@code changes.csv} when it has them.
 */
public final class WorkloadWriter {

  private WorkloadWriter() {}

  public static void write(Workload w, Path dir) throws IOException {
    Files.createDirectories(dir);
    try (BufferedWriter out =
        Files.newBufferedWriter(dir.resolve(WorkloadLoader.PAGES), StandardCharsets.UTF_8)) {
      out.write(WorkloadLoader.PAGES_HEADER);
      out.newLine();
      for (int p = 0; p < w.pages(); p++) {
        out.write(CsvLine.quote(w.url(p)));
        out.write(',');
        out.write(CsvLine.quote(w.hostName(w.hostOf(p))));
        out.write(',');
        out.write(Double.toString(w.weight(p)));
        out.write(',');
        out.write(Double.toString(w.changeRate(p)));
        out.newLine();
      }
    }
    try (BufferedWriter out =
        Files.newBufferedWriter(dir.resolve(WorkloadLoader.HOSTS), StandardCharsets.UTF_8)) {
      out.write(WorkloadLoader.HOSTS_HEADER);
      out.newLine();
      for (int h = 0; h < w.hosts(); h++) {
        if (w.constrained(h)) {
          out.write(CsvLine.quote(w.hostName(h)));
          out.write(',');
          out.write(Double.toString(w.hostMaxRate(h)));
          out.newLine();
        }
      }
    }
    ChangeHistory history = w.history();
    if (history != null) {
      try (BufferedWriter out =
          Files.newBufferedWriter(dir.resolve(ChangeHistory.FILE), StandardCharsets.UTF_8)) {
        out.write(ChangeHistory.HEADER);
        out.newLine();
        for (int p = 0; p < w.pages(); p++) {
          if (!history.has(p)) {
            continue;
          }
          out.write(CsvLine.quote(w.url(p)));
          out.write(',');
          double[] t = history.times(p);
          for (int i = 0; i < t.length; i++) {
            if (i > 0) {
              out.write(' ');
            }
            out.write(Double.toString(t[i]));
          }
          out.newLine();
        }
      }
    }
  }
}
