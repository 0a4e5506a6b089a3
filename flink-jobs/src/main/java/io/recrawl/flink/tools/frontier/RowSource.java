package io.recrawl.flink.tools.frontier;

import java.io.BufferedReader;
import java.io.IOException;

/**
 * Reads the rows of a frontier file in two steps: {@link #nextRecord} cuts the file into records
 * (one line, or a CSV record over several), in order; {@link #parse} turns a record into a {@link
 * FrontierRow} or, when it cannot be read, a {@link BadRow} with its line and reason. Parsing holds
 * no state, so records can be parsed on several threads.
 */
public abstract class RowSource {

  /** One record of the file: the line it starts on, and its text. */
  public record Record(long line, String text) {}

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

  /** The next record, or null at the end. */
  public abstract Record nextRecord() throws IOException;

  /** The row of a record: a {@link FrontierRow} or a {@link BadRow}. */
  public abstract Object parse(Record r);

  /** The next row (a {@link FrontierRow} or a {@link BadRow}), or null at the end. */
  public final Object next() throws IOException {
    Record r = nextRecord();
    return r == null ? null : parse(r);
  }

  /** The next line, or null at the end; counts lines. */
  final String readLine() throws IOException {
    String s = in.readLine();
    if (s != null) {
      line++;
    }
    return s;
  }

  /** The next line that is not blank (nor, with {@code comments}, a {@code #} comment), or null. */
  final Record nextLine(boolean comments) throws IOException {
    String s;
    do {
      s = readLine();
      if (s == null) {
        return null;
      }
    } while (s.isBlank() || (comments && s.strip().startsWith("#")));
    return new Record(line, s);
  }

  /** Parses one record's text. */
  interface TextParser {
    FrontierRow parse(String text, long line) throws RowRejection;
  }

  /** The row {@code parser} makes of a record, or the bad row it refuses. */
  static Object rowOf(Record r, TextParser parser) {
    try {
      return parser.parse(r.text(), r.line());
    } catch (RowRejection e) {
      return e.toBadRow(r.line(), r.text());
    }
  }

  /** The number of the line last read. */
  final long line() {
    return line;
  }
}
