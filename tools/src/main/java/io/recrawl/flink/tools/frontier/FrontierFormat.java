package io.recrawl.flink.tools.frontier;

import java.util.Locale;

/** The frontier files {@code bin/recrawl import} reads and {@code export --format} writes. */
public enum FrontierFormat {
  /** StormCrawler's OpenSearch/Elasticsearch status index: one document (or whole hit) a line. */
  OPENSEARCH("opensearch"),
  /**
   * StormCrawler's SQL {@code urls} table as CSV with a header ({@code psql \copy ... CSV HEADER}).
   */
  SQL_CSV("sql-csv"),
  /** The same table as tab-separated text with a header ({@code mysql -B -e}). */
  SQL_TSV("sql-tsv"),
  /** A seed list: one URL a line, optional tab-separated {@code key=value} metadata. */
  SEEDS("seeds");

  private final String flag;

  FrontierFormat(String flag) {
    this.flag = flag;
  }

  public String flag() {
    return flag;
  }

  /** The format a {@code --format} value names. */
  public static FrontierFormat of(String name) {
    for (FrontierFormat f : values()) {
      if (f.flag.equals(name.toLowerCase(Locale.ROOT))) {
        return f;
      }
    }
    throw new IllegalArgumentException(
        "--format must be opensearch, sql-csv, sql-tsv or seeds, got '" + name + "'");
  }
}
