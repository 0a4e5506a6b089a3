package io.recrawl.flink.tools.frontier;

import java.io.BufferedReader;
import java.io.IOException;

/**
 * Reads the rows of a frontier file one at a time: each is a {@link FrontierRow} or, when it cannot
 * be read, a {@link BadRow} with its line and reason.
 */
public abstract class RowSource {

  private final BufferedReader in;
  private long line;

  RowSource(BufferedReader in) {
    this.in = in;
  }

  /** The reader of {@code format} over {@code in}. */
  public static RowSource of(FrontierFormat format, BufferedReader in) {
    return switch (format) {
      case OPENSEARCH -> new OpenSearchRows(in);
      case SQL_CSV -> new SqlRows(in, ',');
      case SQL_TSV -> new SqlRows(in, '\t');
      case SEEDS -> new SeedRows(in);
    };
  }

  /** The next row (a {@link FrontierRow} or a {@link BadRow}), or null at the end. */
  public abstract Object next() throws IOException;

  /** The next line, or null at the end; counts lines. */
  final String readLine() throws IOException {
    String s = in.readLine();
    if (s != null) {
      line++;
    }
    return s;
  }

  /** The number of the line last read. */
  final long line() {
    return line;
  }
}
