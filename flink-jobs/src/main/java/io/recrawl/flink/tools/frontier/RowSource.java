package io.recrawl.flink.tools.frontier;

import io.recrawl.wire.StatusEventCodec;
import java.io.BufferedReader;
import java.io.IOException;

/**
 * Reads the rows of a frontier file in two steps: {@link #nextRecord} cuts the file into records
 * (one line, or a CSV record over several), in order; {@link #parse} turns a record into a {@link
 * FrontierRow} or, when it cannot be read, a {@link BadRow} with its line and reason. Parsing holds
 * no state, so records can be parsed on several threads.
 */
public abstract class RowSource {

  /** Characters a record holds at most: four times what the job's codec takes of one event. */
  public static final int MAX_RECORD_CHARS = 4 * StatusEventCodec.DEFAULT_MAX_CHARS;

  /**
   * One record of the file: the line it starts on, and its text; {@code cut} when the record was
   * longer than {@link #MAX_RECORD_CHARS}, its text then being its first characters only.
   */
  public record Record(long line, String text, boolean cut) {

    public Record(long line, String text) {
      this(line, text, false);
    }
  }

  private final BufferedReader in;
  private long line;

  // Lines are read from this buffer, never more than MAX_RECORD_CHARS of one: a file that is not in
  // lines (a JSON array, an unclosed CSV quote) must not be read into memory whole.
  private final char[] buf = new char[1 << 16];
  private int pos;
  private int end;
  private boolean lineCut;

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
  public final Object parse(Record r) {
    if (r.cut()) {
      return new BadRow(
          r.line(),
          "row_too_long",
          "longer than " + MAX_RECORD_CHARS + " characters: is the file in the format given?",
          r.text());
    }
    return parseRecord(r);
  }

  /** The row of a record that is not cut. */
  abstract Object parseRecord(Record r);

  /** The next row (a {@link FrontierRow} or a {@link BadRow}), or null at the end. */
  public final Object next() throws IOException {
    Record r = nextRecord();
    return r == null ? null : parse(r);
  }

  /**
   * The next line (ended by \n, \r\n or \r, as {@link BufferedReader#readLine}), or null at the
   * end; counts lines. A line longer than {@link #MAX_RECORD_CHARS} is cut there and the rest of it
   * skipped: {@link #lastLineCut} says so.
   */
  final String readLine() throws IOException {
    StringBuilder sb = new StringBuilder();
    lineCut = false;
    boolean any = false;
    while (pos < end || fill()) {
      any = true;
      int start = pos;
      while (pos < end && buf[pos] != '\n' && buf[pos] != '\r') {
        pos++;
      }
      int room = MAX_RECORD_CHARS - sb.length();
      if (pos - start > room) {
        sb.append(buf, start, room);
        lineCut = true;
      } else {
        sb.append(buf, start, pos - start);
      }
      if (pos < end) {
        if (buf[pos++] == '\r' && (pos < end || fill()) && buf[pos] == '\n') {
          pos++;
        }
        break;
      }
    }
    if (!any) {
      return null;
    }
    line++;
    return sb.toString();
  }

  /** Whether the line last read was cut at {@link #MAX_RECORD_CHARS}. */
  final boolean lastLineCut() {
    return lineCut;
  }

  private boolean fill() throws IOException {
    int n = in.read(buf, 0, buf.length);
    pos = 0;
    end = Math.max(0, n);
    return n > 0;
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
    return new Record(line, s, lineCut);
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
