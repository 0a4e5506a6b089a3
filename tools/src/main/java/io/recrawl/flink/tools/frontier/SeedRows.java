package io.recrawl.flink.tools.frontier;

import io.recrawl.wire.CrawlStatus;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A seed list (StormCrawler's seed format, the job's {@code recrawl.input.seeds}): a URL a line,
 * optionally followed by tab-separated {@code key=value} metadata (see {@link
 * StormCrawlerFields#toTabText}); {@code #} starts a comment. Every seed is DISCOVERED and due at
 * once.
 */
final class SeedRows extends RowSource {

  SeedRows(BufferedReader in) {
    super(in);
  }

  @Override
  public Record nextRecord() throws IOException {
    return nextLine(true);
  }

  @Override
  Object parseRecord(Record r) {
    return rowOf(r, SeedRows::parse);
  }

  static FrontierRow parse(String s, long line) throws RowRejection {
    String[] parts = s.strip().split("\t");
    Map<String, List<String>> md = new LinkedHashMap<>();
    for (int i = 1; i < parts.length; i++) {
      StormCrawlerFields.addTabPair(md, parts[i]);
    }
    md.replaceAll((k, v) -> List.copyOf(v));
    return new FrontierRow(line, parts[0].strip(), CrawlStatus.DISCOVERED, 0L, md, s);
  }
}
