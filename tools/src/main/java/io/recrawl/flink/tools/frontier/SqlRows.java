package io.recrawl.flink.tools.frontier;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * StormCrawler's SQL {@code urls} table ({@code url, status, nextfetchdate, metadata, bucket,
 * host}) exported with a header row: as CSV ({@code psql \copy (SELECT ...) TO 'f.csv' CSV HEADER};
 * RFC 4180 quoting, an empty unquoted field is NULL) or as tab-separated text ({@code mysql -B -e
 * 'SELECT ...'}; {@code \t}, {@code \n}, {@code \\} and {@code \0} escaped, {@code NULL} for NULL).
 * Columns are found by name; {@code bucket} and {@code host} are not needed (the host key is
 * recomputed).
 */
final class SqlRows extends RowSource {

  private final char delimiter;
  private int url = -1;
  private int status = -1;
  private int next = -1;
  private int metadata = -1;
  private int columns;

  SqlRows(BufferedReader in, char delimiter) {
    super(in);
    this.delimiter = delimiter;
  }

  /** Thrown when the header lacks a required column: the whole file is refused. */
  static final class BadHeader extends IOException {
    private static final long serialVersionUID = 1L;

    BadHeader(String message) {
      super(message);
    }
  }

  @Override
  public Record nextRecord() throws IOException {
    if (columns == 0) {
      readHeader();
    }
    String s;
    do {
      s = readLine();
      if (s == null) {
        return null;
      }
    } while (s.isEmpty());
    long first = line();
    if (delimiter == '\t' || lastLineCut()) {
      return new Record(first, s, lastLineCut());
    }
    // A CSV record goes on while a quoted field is open: an odd number of quotes so far, up to the
    // longest record (a quote never closed would take the rest of the file).
    StringBuilder record = new StringBuilder(s);
    int quotes = quotes(s);
    boolean cut = false;
    while (quotes % 2 == 1 && !cut) {
      String more = readLine();
      if (more == null) {
        break; // parse finds the field unclosed
      }
      record.append('\n').append(more);
      quotes += quotes(more);
      if (lastLineCut() || record.length() > MAX_RECORD_CHARS) {
        record.setLength(Math.min(record.length(), MAX_RECORD_CHARS));
        cut = true;
      }
    }
    return new Record(first, record.toString(), cut);
  }

  @Override
  Object parseRecord(Record r) {
    List<String> fields = delimiter == '\t' ? tsv(r.text()) : csv(r.text(), delimiter);
    if (fields == null) {
      return new BadRow(r.line(), "malformed_csv", "a quoted field is not closed", r.text());
    }
    try {
      return row(fields, r.line(), r.text());
    } catch (RowRejection e) {
      return e.toBadRow(r.line(), r.text());
    }
  }

  private static int quotes(String s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) == '"') {
        n++;
      }
    }
    return n;
  }

  private void readHeader() throws IOException {
    String h = readLine();
    if (h == null) {
      throw new BadHeader("the file is empty: a header row is needed");
    }
    if (notUtf8At(h) >= 0) {
      throw new BadHeader("the header row is not UTF-8: convert the file to UTF-8");
    }
    List<String> names = delimiter == '\t' ? tsv(h) : csv(h, delimiter);
    if (names == null) {
      throw new BadHeader("the header row is not " + (delimiter == '\t' ? "TSV" : "CSV"));
    }
    for (int i = 0; i < names.size(); i++) {
      String n = names.get(i) == null ? "" : names.get(i).strip().toLowerCase(Locale.ROOT);
      switch (n) {
        case "url" -> url = i;
        case "status" -> status = i;
        case "nextfetchdate" -> next = i;
        case "metadata" -> metadata = i;
        default -> {}
      }
    }
    if (url < 0 || status < 0 || next < 0) {
      throw new BadHeader(
          "the header row must name the columns url, status and nextfetchdate (and metadata), got "
              + h);
    }
    columns = names.size();
  }

  private FrontierRow row(List<String> f, long line, String raw) throws RowRejection {
    if (f.size() != columns) {
      throw new RowRejection("bad_columns", f.size() + " fields where the header has " + columns);
    }
    String u = f.get(url);
    if (u == null || u.isBlank()) {
      throw new RowRejection("missing_field:url", "no url");
    }
    String n = f.get(next);
    long nextFetch = n == null || n.isBlank() ? FrontierRow.NEVER : StormCrawlerFields.time(n);
    return new FrontierRow(
        line,
        u,
        StormCrawlerFields.status(f.get(status)),
        nextFetch,
        StormCrawlerFields.fromSqlText(metadata < 0 ? null : f.get(metadata)),
        raw);
  }

  /** mysql -B: fields split on tabs, escapes undone, NULL as null. */
  static List<String> tsv(String s) {
    List<String> out = new ArrayList<>();
    for (String f : s.split("\t", -1)) {
      if (f.equals("NULL") || f.equals("\\N")) {
        out.add(null);
        continue;
      }
      StringBuilder b = new StringBuilder(f.length());
      for (int i = 0; i < f.length(); i++) {
        char c = f.charAt(i);
        if (c == '\\' && i + 1 < f.length()) {
          char e = f.charAt(++i);
          b.append(
              switch (e) {
                case 't' -> '\t';
                case 'n' -> '\n';
                case 'r' -> '\r';
                case '0' -> '\0';
                default -> e;
              });
        } else {
          b.append(c);
        }
      }
      out.add(b.toString());
    }
    return out;
  }

  /**
   * The RFC 4180 fields of a record (which may hold newlines inside quotes), or null when a quoted
   * field is not closed. An empty unquoted field is null (psql's NULL).
   */
  static List<String> csv(String record, char delimiter) {
    List<String> out = new ArrayList<>();
    StringBuilder f = new StringBuilder();
    boolean quoted = false;
    boolean wasQuoted = false;
    for (int i = 0; i < record.length(); i++) {
      char c = record.charAt(i);
      if (quoted) {
        if (c != '"') {
          f.append(c);
        } else if (i + 1 < record.length() && record.charAt(i + 1) == '"') {
          f.append('"');
          i++;
        } else {
          quoted = false;
        }
      } else if (c == '"') {
        quoted = true;
        wasQuoted = true;
      } else if (c == delimiter) {
        out.add(f.length() == 0 && !wasQuoted ? null : f.toString());
        f.setLength(0);
        wasQuoted = false;
      } else {
        f.append(c);
      }
    }
    if (quoted) {
      return null;
    }
    out.add(f.length() == 0 && !wasQuoted ? null : f.toString());
    return out;
  }

  /** A CSV field, quoted when it must be. */
  static String csvField(String s) {
    if (s == null) {
      return "";
    }
    if (s.isEmpty()
        || s.indexOf(',') >= 0
        || s.indexOf('"') >= 0
        || s.indexOf('\n') >= 0
        || s.indexOf('\r') >= 0) {
      return '"' + s.replace("\"", "\"\"") + '"';
    }
    return s;
  }

  /** A field as mysql -B writes it. */
  static String tsvField(String s) {
    if (s == null) {
      return "NULL";
    }
    return s.replace("\\", "\\\\")
        .replace("\t", "\\t")
        .replace("\n", "\\n")
        .replace("\r", "\\r")
        .replace("\0", "\\0");
  }
}
