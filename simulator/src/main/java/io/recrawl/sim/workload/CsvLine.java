package io.recrawl.sim.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one CSV line (RFC 4180 quoting, so URLs may contain commas). Returns null on bad quoting.
 */
final class CsvLine {

  private CsvLine() {}

  static List<String> split(String line) {
    List<String> out = new ArrayList<>(4);
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    boolean wasQuoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"') {
          if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
            field.append('"');
            i++;
          } else {
            quoted = false;
          }
        } else {
          field.append(c);
        }
      } else if (c == ',') {
        out.add(field.toString());
        field.setLength(0);
        wasQuoted = false;
      } else if (c == '"' && field.length() == 0 && !wasQuoted) {
        quoted = true;
        wasQuoted = true;
      } else if (c == '"') {
        return null;
      } else {
        field.append(c);
      }
    }
    if (quoted) {
      return null;
    }
    out.add(field.toString());
    return out;
  }

  /** Quotes a field only when it needs it. */
  static String quote(String s) {
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) {
      return s;
    }
    return '"' + s.replace("\"", "\"\"") + '"';
  }
}
