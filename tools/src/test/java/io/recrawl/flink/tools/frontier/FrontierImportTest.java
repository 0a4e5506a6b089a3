package io.recrawl.flink.tools.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.config.RecrawlOptions;
import io.recrawl.wire.HostKeys;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The import's verdict on a file, in parts: duplicates found part by part still count as bad. */
class FrontierImportTest {

  @TempDir Path tmp;

  private final ByteArrayOutputStream log = new ByteArrayOutputStream();

  private FrontierImport.Summary importSeeds(List<String> lines, double maxBadShare)
      throws Exception {
    return importSeeds(lines, maxBadShare, ImportSettings.FirstDue.NEXT_FETCH, 0);
  }

  private FrontierImport.Summary importSeeds(
      List<String> lines, double maxBadShare, ImportSettings.FirstDue firstDue, double budget)
      throws Exception {
    Path in = tmp.resolve("seeds.txt");
    Files.write(in, lines);
    return importSeeds(in, maxBadShare, firstDue, budget);
  }

  private FrontierImport.Summary importSeeds(
      Path in, double maxBadShare, ImportSettings.FirstDue firstDue, double budget)
      throws Exception {
    return importFile(in, FrontierFormat.SEEDS, maxBadShare, firstDue, budget);
  }

  private FrontierImport.Summary importFile(
      Path in,
      FrontierFormat format,
      double maxBadShare,
      ImportSettings.FirstDue firstDue,
      double budget)
      throws Exception {
    RecrawlConfig config = RecrawlConfig.defaults();
    FrontierImport.Options o =
        new FrontierImport.Options(
            in,
            format,
            tmp.resolve("savepoint").toUri().toString(),
            tmp.resolve("rejects.tsv"),
            maxBadShare,
            new ImportSettings(
                HostKeys.Mode.BY_HOST,
                ImportSettings.DEFAULT_WEIGHT_KEY,
                ImportSettings.DEFAULT_LAST_FETCH_KEYS,
                ImportSettings.DEFAULT_FETCH_INTERVAL_MS,
                PageImportTest.NOW,
                firstDue),
            config.engineSettings(),
            config.get(RecrawlOptions.GLOBAL_LAMBDA),
            128,
            1,
            60_000,
            64, // parts of 64 bytes: a few lines each
            budget,
            tmp.resolve("work"));
    return FrontierImport.run(o, new PrintStream(log, true, StandardCharsets.UTF_8));
  }

  private static List<String> withFourCopies() {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      lines.add("https://h" + (i % 9) + ".example/" + i);
    }
    // Four copies of earlier URLs, each read long after its first copy: 4 of 44 rows are bad.
    lines.addAll(List.of(lines.get(0), lines.get(10), lines.get(21), lines.get(33)));
    return lines;
  }

  @Test
  void duplicatesFoundInTheirPartsCountTowardsRefusingTheFile() throws Exception {
    FrontierImport.Summary s = importSeeds(withFourCopies(), 0.05);

    assertThat(s.refused()).isTrue();
    assertThat(s.rows()).isEqualTo(44);
    assertThat(s.badByReason()).isEqualTo(Map.of("duplicate_url", 4L));
    assertThat(Files.exists(tmp.resolve("savepoint"))).isFalse();
    List<String> rejects = Files.readAllLines(tmp.resolve("rejects.tsv"));
    assertThat(rejects).hasSize(5); // the header and the four copies, with their lines
    assertThat(rejects.subList(1, 5))
        .extracting(l -> l.split("\t")[0])
        .containsExactlyInAnyOrder("41", "42", "43", "44");
    try (java.util.stream.Stream<Path> left = Files.list(tmp.resolve("work"))) {
      assertThat(left).as("temporary files are deleted").isEmpty();
    }
  }

  @Test
  void byValueWithABudgetPlansAtTheBudgetsPriceAndReportsEachBadRowOnce() throws Exception {
    FrontierImport.Summary s =
        importSeeds(withFourCopies(), 0.05, ImportSettings.FirstDue.VALUE, 5);

    String text = log.toString(StandardCharsets.UTF_8);
    java.util.regex.Matcher planned =
        java.util.regex.Pattern.compile("planned at the budget's price, a global lambda of (\\S+)")
            .matcher(text);
    java.util.regex.Matcher priced =
        java.util.regex.Pattern.compile("crawls a day\\) at a global lambda of (\\S+)")
            .matcher(text);
    assertThat(planned.find()).as(text).isTrue();
    assertThat(priced.find()).as(text).isTrue();
    assertThat(Double.parseDouble(planned.group(1))).isPositive();
    assertThat(planned.group(1)).isEqualTo(priced.group(1));
    // The pricing build reports nothing: each copy is in the reject file once.
    assertThat(s.badByReason()).isEqualTo(Map.of("duplicate_url", 4L));
    assertThat(Files.readAllLines(tmp.resolve("rejects.tsv"))).hasSize(5);
  }

  @Test
  void aGzippedFileIsReadAsItsRowsAndItsFormatToldFromTheNameUnderGz() throws Exception {
    Path in = tmp.resolve("seeds.txt.gz");
    try (java.io.Writer w =
        new java.io.OutputStreamWriter(
            new java.util.zip.GZIPOutputStream(Files.newOutputStream(in)),
            StandardCharsets.UTF_8)) {
      w.write(String.join("\n", withFourCopies()) + "\n");
    }

    FrontierImport.Summary s = importSeeds(in, 0.05, ImportSettings.FirstDue.NEXT_FETCH, 0);

    assertThat(s.rows()).isEqualTo(44);
    assertThat(s.badByReason()).isEqualTo(Map.of("duplicate_url", 4L));
    assertThat(ImportCommand.options(Map.of("in", "x/status.jsonl.gz", "savepoint", "sp")).format())
        .isEqualTo(FrontierFormat.OPENSEARCH);
  }

  @Test
  void aDateBeyondWhatAnInstantHoldsIsOneBadTimeRowAndTheRestImport() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      lines.add(
          "{\"url\":\"https://h"
              + (i % 3)
              + ".example/"
              + i
              + "\",\"status\":\"FETCHED\",\"nextFetchDate\":\"2026-11-26T05:00:00.000Z\"}");
    }
    // Each parses as a date but overflows epoch milliseconds.
    lines.set(
        3,
        "{\"url\":\"https://h0.example/x\",\"status\":\"FETCHED\","
            + "\"nextFetchDate\":\"+300000000-01-01T00:00:00Z\"}");
    lines.set(
        7,
        "{\"url\":\"https://h1.example/y\",\"status\":\"FETCHED\","
            + "\"nextFetchDate\":\"2026-11-26T05:00:00.000Z\","
            + "\"metadata\":{\"recrawl.lastFetch\":[\"+999999999-12-31\"]}}");
    lines.set(
        11,
        "{\"url\":\"https://h2.example/z\",\"status\":\"FETCHED\","
            + "\"nextFetchDate\":100000000000000000000}");
    Path in = tmp.resolve("status.jsonl");
    Files.write(in, lines);

    FrontierImport.Summary s =
        importFile(in, FrontierFormat.OPENSEARCH, 0.5, ImportSettings.FirstDue.NEXT_FETCH, 0);

    assertThat(s.refused()).isFalse();
    assertThat(s.rows()).isEqualTo(20);
    assertThat(s.badByReason()).isEqualTo(Map.of("bad_time", 3L));
    assertThat(Files.readAllLines(tmp.resolve("rejects.tsv")).subList(1, 4))
        .extracting(l -> l.split("\t")[0])
        .containsExactlyInAnyOrder("4", "8", "12");
    assertThat(Files.exists(tmp.resolve("savepoint"))).isTrue();
  }

  /** A UTF-8 byte order mark, as Windows tools write it at the start of a file. */
  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  private Path file(String name, byte[]... parts) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      b.write(p);
    }
    return Files.write(tmp.resolve(name), b.toByteArray());
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aLineNotInUtf8IsRejectedWithItsReasonAndABomIsSkipped() throws Exception {
    // A seed list saved with a BOM, one line of it in Latin-1 (é as the single byte 0xE9).
    Path in =
        file(
            "seeds.txt",
            BOM,
            utf8("https://a.example/1\n"),
            "https://b.example/caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1),
            utf8("https://c.example/caf\u00e9\n"));

    FrontierImport.Summary s = importFile(in, FrontierFormat.SEEDS, 0.5, FIRST, 0);

    assertThat(s.rows()).isEqualTo(3);
    assertThat(s.badByReason()).isEqualTo(Map.of("bad_encoding", 1L));
    List<String> rejects = Files.readAllLines(tmp.resolve("rejects.tsv"));
    assertThat(rejects).hasSize(2);
    assertThat(rejects.get(1)).startsWith("2\tbad_encoding\t");
    assertThat(rejects.get(1)).contains("https://b.example/caf\ufffd");
  }

  @Test
  void aBomDoesNotHideTheHeaderOfASqlExport() throws Exception {
    Path in =
        file(
            "urls.csv",
            BOM,
            utf8("url,status,nextfetchdate,metadata,bucket,host\n"),
            utf8("https://a.example/1,DISCOVERED,,,0,a.example\n"));

    FrontierImport.Summary s = importFile(in, FrontierFormat.SQL_CSV, 0, FIRST, 0);

    assertThat(s.rows()).isEqualTo(1);
    assertThat(s.good()).isEqualTo(1);
  }

  private static final ImportSettings.FirstDue FIRST = ImportSettings.FirstDue.NEXT_FETCH;
}
