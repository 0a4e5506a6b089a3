package io.recrawl.flink.tools.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.wire.CrawlStatus;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The readers of each frontier format, and every reason a row of theirs is bad. */
class FrontierRowsTest {

  private static List<Object> read(FrontierFormat f, String text) throws IOException {
    RowSource s = RowSource.of(f, new BufferedReader(new StringReader(text)));
    List<Object> out = new ArrayList<>();
    Object o;
    while ((o = s.next()) != null) {
      out.add(o);
    }
    return out;
  }

  /** An exported row read back, after the header its format has. */
  private static List<Object> readExported(FrontierFormat format, String row) throws IOException {
    String header =
        switch (format) {
          case SQL_CSV -> "url,status,nextfetchdate,metadata,bucket,host\n";
          case SQL_TSV -> "url\tstatus\tnextfetchdate\tmetadata\tbucket\thost\n";
          default -> "";
        };
    return read(format, header + row + "\n");
  }

  private static long t(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }

  @Test
  void openSearchSourceAndWholeHits() throws IOException {
    List<Object> rows =
        read(
            FrontierFormat.OPENSEARCH,
            "{\"url\":\"http://a.example/\",\"status\":\"FETCHED\","
                + "\"nextFetchDate\":\"2026-11-26T05:00:00.000Z\","
                + "\"metadata\":{\"protocol%2Eetag\":[\"x\"],\"depth\":\"1\"},\"key\":\"a.example\"}\n"
                + "\n"
                + "{\"_index\":\"status\",\"_id\":\"1\",\"_source\":{\"url\":\"http://b.example/\","
                + "\"status\":\"DISCOVERED\",\"nextFetchDate\":1795582800000}}\n"
                + "{\"url\":\"http://c.example/\",\"status\":\"ERROR\"}\n");
    assertThat(rows).hasSize(3).allMatch(r -> r instanceof FrontierRow);
    FrontierRow a = (FrontierRow) rows.get(0);
    assertThat(a.line()).isEqualTo(1);
    assertThat(a.status()).isEqualTo(CrawlStatus.FETCHED);
    assertThat(a.nextFetch()).isEqualTo(t("2026-11-26T05:00:00Z"));
    assertThat(a.metadata())
        .isEqualTo(Map.of("protocol.etag", List.of("x"), "depth", List.of("1")));
    FrontierRow b = (FrontierRow) rows.get(1);
    assertThat(b.line()).isEqualTo(3);
    assertThat(b.nextFetch()).isEqualTo(1795582800000L);
    assertThat(((FrontierRow) rows.get(2)).nextFetch()).isEqualTo(FrontierRow.NEVER);
  }

  @Test
  void aNullInsideAMetadataArrayAsStormCrawler4WritesItIsNoValue() throws IOException {
    List<Object> rows =
        read(
            FrontierFormat.OPENSEARCH,
            "{\"url\":\"http://a.example/\",\"status\":\"FETCHED\","
                + "\"metadata\":{\"depth\":[\"1\",null],\"parse%2Etitle\":[null]}}\n");
    assertThat(rows).singleElement().isInstanceOf(FrontierRow.class);
    assertThat(((FrontierRow) rows.get(0)).metadata())
        .isEqualTo(Map.of("depth", List.of("1"), "parse.title", List.of()));
  }

  @Test
  void openSearchBadRows() throws IOException {
    List<Object> rows =
        read(
            FrontierFormat.OPENSEARCH,
            String.join(
                "\n",
                "{\"url\":",
                "[1,2]",
                "{\"status\":\"FETCHED\"}",
                "{\"url\":\"http://a.example/\"}",
                "{\"url\":\"http://a.example/\",\"status\":\"GONE\"}",
                "{\"url\":\"http://a.example/\",\"status\":\"FETCHED\",\"nextFetchDate\":\"soon\"}",
                "{\"url\":\"http://a.example/\",\"status\":\"FETCHED\",\"metadata\":{\"k\":[{}]}}",
                "{\"url\":\"http://a.example/\",\"status\":\"FETCHED\",\"metadata\":[]}",
                "{\"url\":7,\"status\":\"FETCHED\"}"));
    assertThat(rows).allMatch(r -> r instanceof BadRow);
    assertThat(rows.stream().map(r -> ((BadRow) r).reason()))
        .containsExactly(
            "malformed_json",
            "not_an_object",
            "missing_field:url",
            "missing_field:status",
            "unknown_status",
            "bad_time",
            "bad_metadata",
            "bad_metadata",
            "bad_url");
    assertThat(rows.stream().map(r -> ((BadRow) r).line()))
        .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
  }

  @Test
  void sqlCsvAsPsqlWritesIt() throws IOException {
    List<Object> rows =
        read(
            FrontierFormat.SQL_CSV,
            "url,status,nextfetchdate,metadata,bucket,host\n"
                + "http://a.example/,FETCHED,2026-11-26 05:00:00+00,\"\tsignature=ab\tdepth=1"
                + "\tdepth=2\",0,a.example\n"
                + "http://b.example/,DISCOVERED,,,0,b.example\n"
                + "\"http://c.example/?a,b\",FETCHED,2026-11-26 05:00:00.250,\"\tnote=two\nlines\","
                + "0,c.example\n");
    assertThat(rows).hasSize(3).allMatch(r -> r instanceof FrontierRow);
    FrontierRow a = (FrontierRow) rows.get(0);
    assertThat(a.nextFetch()).isEqualTo(t("2026-11-26T05:00:00Z"));
    assertThat(a.metadata())
        .isEqualTo(Map.of("signature", List.of("ab"), "depth", List.of("1", "2")));
    assertThat(((FrontierRow) rows.get(1)).nextFetch()).isEqualTo(FrontierRow.NEVER);
    FrontierRow c = (FrontierRow) rows.get(2);
    assertThat(c.url()).isEqualTo("http://c.example/?a,b");
    assertThat(c.line()).isEqualTo(4);
    assertThat(c.nextFetch()).isEqualTo(t("2026-11-26T05:00:00.250Z"));
    assertThat(c.metadata()).isEqualTo(Map.of("note", List.of("two\nlines")));
  }

  @Test
  void sqlCsvBadRows() throws IOException {
    List<Object> rows =
        read(
            FrontierFormat.SQL_CSV,
            "status,url,nextfetchdate,metadata\n"
                + "FETCHED,http://a.example/,2026-11-26 05:00:00\n"
                + "FETCHED,,2026-11-26 05:00:00,\n"
                + "FETCHED,http://a.example/,yesterday,\n"
                + "GONE,http://a.example/,2026-11-26 05:00:00,\n"
                + ",http://a.example/,2026-11-26 05:00:00,\n"
                + "FETCHED,http://a.example/,2026-11-26 05:00:00,\tnoequals\n"
                + "FETCHED,http://a.example/,2026-11-26 05:00:00,\"open\n");
    assertThat(rows.stream().map(r -> ((BadRow) r).reason()))
        .containsExactly(
            "bad_columns",
            "missing_field:url",
            "bad_time",
            "unknown_status",
            "missing_field:status",
            "bad_metadata",
            "malformed_csv");
    assertThat(rows.stream().map(r -> ((BadRow) r).line()))
        .containsExactly(2L, 3L, 4L, 5L, 6L, 7L, 8L);
  }

  @Test
  void sqlHeaderWithoutTheColumnsRefusesTheFile() {
    assertThatThrownBy(() -> read(FrontierFormat.SQL_CSV, "link,state\nx,y\n"))
        .isInstanceOf(SqlRows.BadHeader.class)
        .hasMessageContaining("url, status and nextfetchdate");
    assertThatThrownBy(() -> read(FrontierFormat.SQL_TSV, ""))
        .isInstanceOf(SqlRows.BadHeader.class);
  }

  @Test
  void sqlTsvAsMysqlBatchWritesIt() throws IOException {
    List<Object> rows =
        read(
            FrontierFormat.SQL_TSV,
            "url\tstatus\tnextfetchdate\tmetadata\tbucket\thost\n"
                + "http://a.example/\tFETCHED\t2026-11-26 05:00:00\t\\tsignature=a\\\\b\\tdepth=1\t0\ta.example\n"
                + "http://b.example/\tERROR\tNULL\tNULL\t0\tb.example\n"
                + "http://c.example/\tFETCHED\t2026-11-26 05:00:00\n");
    FrontierRow a = (FrontierRow) rows.get(0);
    assertThat(a.metadata()).isEqualTo(Map.of("signature", List.of("a\\b"), "depth", List.of("1")));
    FrontierRow b = (FrontierRow) rows.get(1);
    assertThat(b.status()).isEqualTo(CrawlStatus.ERROR);
    assertThat(b.nextFetch()).isEqualTo(FrontierRow.NEVER);
    assertThat(b.metadata()).isEmpty();
    assertThat(((BadRow) rows.get(2)).reason()).isEqualTo("bad_columns");
  }

  @Test
  void seeds() throws IOException {
    List<Object> rows =
        read(
            FrontierFormat.SEEDS,
            "# seeds\nhttp://a.example/\tdepth=0\tisSitemap=false\n\nhttp://b.example/\nhttp://c.example/\tnope\n");
    FrontierRow a = (FrontierRow) rows.get(0);
    assertThat(a.line()).isEqualTo(2);
    assertThat(a.status()).isEqualTo(CrawlStatus.DISCOVERED);
    assertThat(a.metadata())
        .isEqualTo(Map.of("depth", List.of("0"), "isSitemap", List.of("false")));
    assertThat(((FrontierRow) rows.get(1)).line()).isEqualTo(4);
    BadRow c = (BadRow) rows.get(2);
    assertThat(c.reason()).isEqualTo("bad_metadata");
    assertThat(c.line()).isEqualTo(5);
  }

  @Test
  void rejectLinesStayOneLine() {
    BadRow b = new BadRow(7, "bad_url", "a\tb", "x\ny\\z");
    assertThat(b.toTsv()).isEqualTo("7\tbad_url\ta\\tb\tx\\ny\\\\z");
  }

  @Test
  void exportedFieldsReadBack() throws Exception {
    Map<String, List<String>> md = Map.of("a.b", List.of("1", "x\ty"), "c", List.of("="));
    assertThat(
            StormCrawlerFields.fromOpenSearch(
                new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(StormCrawlerFields.toOpenSearch(md).toString())))
        .isEqualTo(md);
    assertThat(StormCrawlerFields.time(StormCrawlerFields.sqlTime(1795582800123L)))
        .isEqualTo(1795582800123L);
    assertThat(StormCrawlerFields.time(StormCrawlerFields.isoTime(1795582800123L)))
        .isEqualTo(1795582800123L);
    assertThat(SqlRows.tsv(SqlRows.tsvField("a\tb\\c\nd"))).containsExactly("a\tb\\c\nd");
  }

  /** Metadata that StormCrawler's tab-separated {@code key=value} spelling cannot hold as it is. */
  private static Map<String, List<String>> awkwardMetadata() {
    Map<String, List<String>> md = new java.util.LinkedHashMap<>();
    md.put("depth", List.of("1"));
    md.put(
        "title",
        List.of("a\tb", "line 1\nline 2", "cr\rx", "x=y", "100%", "%09", "ends in a space "));
    md.put("a=b", List.of("c"));
    md.put("tab\tkey", List.of("v"));
    md.put("", List.of("no key"));
    md.put("empty", List.of(""));
    md.put("url.path", List.of("http://x.example/?q=a%3Db&t=%09"));
    md.put("recrawl.escaped", List.of("k=v"));
    return md;
  }

  @ParameterizedTest
  @EnumSource(FrontierFormat.class)
  void exportedMetadataReadsBackTheSame(FrontierFormat format) throws Exception {
    Map<String, List<String>> md = awkwardMetadata();
    String row =
        FrontierExport.row(
            format, "a.example", "http://a.example/", CrawlStatus.FETCHED, 1795582800000L, md);
    List<Object> rows = readExported(format, row);

    assertThat(rows).hasSize(1);
    assertThat(rows.get(0)).as(row).isInstanceOf(FrontierRow.class);
    assertThat(((FrontierRow) rows.get(0)).metadata()).as(row).isEqualTo(md);
  }

  @ParameterizedTest
  @EnumSource(FrontierFormat.class)
  void aPageOfAnotherCrawlExportsItsUrlApartAndImportsBackIntoItsCrawl(FrontierFormat format)
      throws Exception {
    io.recrawl.engine.PageState p = new io.recrawl.engine.PageState();
    p.status = (byte) CrawlStatus.DISCOVERED.ordinal();
    p.weight = 1;
    String key = io.recrawl.wire.PageKeys.of("news", "http://a.example/x");
    String row = FrontierExport.pageRow(format, "a.example", key, p, FrontierRow.NEVER);
    List<Object> rows = readExported(format, row);

    assertThat(rows).singleElement().as(row).isInstanceOf(FrontierRow.class);
    FrontierRow read = (FrontierRow) rows.get(0);
    assertThat(read.url()).isEqualTo("http://a.example/x");
    ImportedPage page = PageImportTest.importer(io.recrawl.wire.HostKeys.Mode.BY_HOST).page(read);
    assertThat(page.url()).isEqualTo(key);
    assertThat(page.events().get(0).metadata()).doesNotContainKey(PageImport.CRAWL_KEY);
  }

  @Test
  void anExportedSeedListReadByTheJobGivesTheSameMetadata() throws Exception {
    String seed =
        FrontierExport.row(
            FrontierFormat.SEEDS,
            "a.example",
            "http://a.example/",
            CrawlStatus.DISCOVERED,
            FrontierRow.NEVER,
            awkwardMetadata());
    io.recrawl.wire.Parsed<io.recrawl.wire.StatusEvent> e =
        new io.recrawl.wire.StatusEventCodec(
                io.recrawl.wire.HostKeys.Mode.BY_HOST,
                -1,
                io.recrawl.wire.StatusEventCodec.DEFAULT_MAX_CHARS)
            .parseSeed(seed, 1);
    assertThat(e.ok()).as(seed).isTrue();
    assertThat(e.value().metadata()).isEqualTo(awkwardMetadata());
  }

  @Test
  void metadataStormCrawlerCanReadIsWrittenAsItIs() throws Exception {
    String seed =
        FrontierExport.row(
            FrontierFormat.SEEDS,
            "a.example",
            "http://a.example/",
            CrawlStatus.DISCOVERED,
            FrontierRow.NEVER,
            awkwardMetadata());
    assertThat(seed).doesNotContain("\n", "\r");
    // As StormCrawler's StringTabScheme reads a seed: tab-separated, each split at its first '='.
    List<String> read = List.of(seed.split("\t")).subList(1, seed.split("\t").length);
    assertThat(read)
        .contains("depth=1", "title=x=y", "title=100%", "title=%09", "empty=")
        .contains("url.path=http://x.example/?q=a%3Db&t=%09")
        .allMatch(kv -> kv.indexOf('=') > 0, "every pair has a key");
    assertThat(read.stream().filter(kv -> !kv.startsWith("recrawl.escaped" + "=")))
        .as("what has no plain spelling is under the escape key")
        .noneMatch(kv -> kv.startsWith("a=b") || kv.startsWith("tab") || kv.startsWith("="));
  }

  /** What a record holds at most: a row any longer is bad, and its reader keeps no more of it. */
  private static final int MAX = RowSource.MAX_RECORD_CHARS;

  @Test
  void aLineLongerThanAnyRowIsRefusedAndTheNextOneIsRead() throws IOException {
    // A JSON array on one line (not JSON lines), then a good row: the long line is one bad row.
    String array =
        "[" + "{\"url\":\"http://a.example/\",\"status\":\"DISCOVERED\"},".repeat(MAX / 40) + "]";
    RowSource s =
        RowSource.of(
            FrontierFormat.OPENSEARCH,
            new BufferedReader(
                new StringReader(
                    array + "\r\n{\"url\":\"http://b.example/\",\"status\":\"DISCOVERED\"}\n")));
    RowSource.Record r = s.nextRecord();
    assertThat(r.text().length()).isLessThanOrEqualTo(MAX);
    Object bad = s.parse(r);
    assertThat(bad).isInstanceOf(BadRow.class);
    assertThat(((BadRow) bad).reason()).isEqualTo("row_too_long");
    assertThat(((BadRow) bad).line()).isEqualTo(1);
    Object next = s.next();
    assertThat(next).isInstanceOf(FrontierRow.class);
    assertThat(((FrontierRow) next).line()).isEqualTo(2);
    assertThat(((FrontierRow) next).url()).isEqualTo("http://b.example/");
    assertThat(s.next()).isNull();
  }

  @Test
  void aCsvQuoteLeftOpenDoesNotSwallowTheRestOfTheFile() throws IOException {
    StringBuilder csv = new StringBuilder("url,status,nextfetchdate,metadata\n");
    csv.append("\"http://a.example/,DISCOVERED,,\n"); // the quote is never closed
    String good = "http://b.example/x,DISCOVERED,,\n";
    int lines = MAX / good.length() * 3;
    for (int i = 0; i < lines; i++) {
      csv.append(good);
    }
    RowSource s =
        RowSource.of(FrontierFormat.SQL_CSV, new BufferedReader(new StringReader(csv.toString())));
    RowSource.Record first = s.nextRecord();
    assertThat(first.line()).isEqualTo(2);
    assertThat(first.text().length()).isLessThanOrEqualTo(MAX);
    assertThat(((BadRow) s.parse(first)).reason()).isEqualTo("row_too_long");
    // The lines after the cut are read as rows again, up to the end.
    int rows = 0;
    Object o;
    while ((o = s.next()) != null) {
      assertThat(o).isInstanceOf(FrontierRow.class);
      rows++;
    }
    assertThat(rows).isPositive().isLessThan(lines);
  }

  @Test
  void aNextFetchBeyondTheFourDigitYearsIsExportedAsTheLastDateItReadsBack() throws Exception {
    long farFuture = 1_000_000_000L * 86_400_000L; // a billion days
    assertThat(StormCrawlerFields.time(StormCrawlerFields.sqlTime(farFuture)))
        .isEqualTo(io.recrawl.wire.Dates.MAX_MILLIS);
    assertThat(StormCrawlerFields.time(StormCrawlerFields.isoTime(farFuture)))
        .isEqualTo(io.recrawl.wire.Dates.MAX_MILLIS);
    assertThat(StormCrawlerFields.isoTime(farFuture)).isEqualTo("9999-12-31T23:59:59.999Z");
  }
}
