package io.recrawl.flink.tools.frontier;

import io.recrawl.wire.StatusEventCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

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

  /**
   * What a byte sequence that is not UTF-8 is read as: a lone surrogate, which no UTF-8 text
   * decodes to, so that the line holding it is known to be malformed (see {@link #notUtf8At}).
   */
  static final char MALFORMED = '\uDFFF';

  /** The byte order mark some tools write at the start of a UTF-8 file; it is not text. */
  private static final char BOM = '\uFEFF';

  private final BufferedReader in;
  private long line;
  private boolean started;

  // Lines are read from this buffer, never more than MAX_RECORD_CHARS of one: a file that is not in
  // lines (a JSON array, an unclosed CSV quote) must not be read into memory whole.
  private final char[] buf = new char[1 << 16];
  private int pos;
  private int end;
  private boolean lineCut;

  RowSource(BufferedReader in) {
    this.in = in;
  }

  /**
   * The text of a file, read as UTF-8: a byte sequence that is not UTF-8 is read as {@link
   * #MALFORMED} (not as U+FFFD, which a file may hold), so that its line becomes a bad row and the
   * next line is read.
   */
  public static BufferedReader utf8(InputStream in) {
    CharsetDecoder strict =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE)
            .replaceWith(String.valueOf(MALFORMED));
    return new BufferedReader(new InputStreamReader(in, strict), 1 << 16);
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
    int bad = notUtf8At(r.text());
    if (bad >= 0) {
      return new BadRow(
          r.line(),
          "bad_encoding",
          "not UTF-8 at character "
              + (bad + 1)
              + " (shown as U+FFFD): convert the file to UTF-8, e.g. iconv -f LATIN1 -t UTF-8",
          readable(r.text()));
    }
    return parseRecord(r);
  }

  /**
   * Where {@code text} holds a byte sequence that was not UTF-8 (a surrogate out of a pair: UTF-8
   * decodes to pairs only), or -1.
   */
  static int notUtf8At(String text) {
    return notUtf8At(text, 0);
  }

  private static int notUtf8At(String text, int from) {
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }

  /** {@code text} with each byte sequence that was not UTF-8 as U+FFFD, for the reject file. */
  private static String readable(String text) {
    StringBuilder b = new StringBuilder(text);
    for (int i = notUtf8At(text, 0); i >= 0; i = notUtf8At(text, i + 1)) {
      b.setCharAt(i, '\uFFFD');
    }
    return b.toString();
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
    if (!started && n > 0) {
      started = true;
      if (buf[0] == BOM) {
        pos = 1; // else the first row (or a SQL file's header) would start with it
      }
    }
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
