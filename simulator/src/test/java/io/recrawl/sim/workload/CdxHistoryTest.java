package io.recrawl.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CdxHistoryTest {

  @TempDir Path dir;

  /** Six-hourly captures of a page whose digest changes twice, and a sparse one, and noise. */
  private static final String CDX =
      String.join(
          "\n",
          " CDX N b a m s k r M S V g",
          "org,example)/a 20260101000000 https://example.org/a text/html 200 AAA - - 100 0 f.warc.gz",
          "org,example)/a 20260101060000 https://example.org/a text/html 200 AAA - - 100 9 f.warc.gz",
          "org,example)/a 20260101120000 https://example.org/a warc/revisit - AAA - - 100 9 f.warc.gz",
          "org,example)/a 20260101180000 https://example.org/a text/html 200 BBB - - 100 9 f.warc.gz",
          "org,example)/a 20260102000000 https://example.org/a text/html 503 CCC - - 100 9 f.warc.gz",
          "org,example)/a 20260102060000 https://example.org/a text/html 200 DDD - - 100 9 f.warc.gz",
          "org,example)/a 2026010212 https://example.org/a text/html 200 DDD - - 100 9 f.warc.gz",
          "org,example)/a 20260102120000 https://example.org/a",
          "org,example)/b 20260101000000 https://example.org/b text/html 200 X - - 1 0 f.warc.gz",
          "org,example)/b 20260110000000 https://example.org/b text/html 200 Y - - 1 0 f.warc.gz",
          "org,example)/b 20260120000000 https://example.org/b text/html 200 Z - - 1 0 f.warc.gz",
          "org,example)/c 20260101000000 https://example.org/c text/html 404 - - - 1 0 f.warc.gz",
          "");

  @Test
  void changedDigestsAreChangesHalfWayBetweenCapturesAndBadLinesAreReportedByLine()
      throws Exception {
    Path file = Files.writeString(dir.resolve("index.cdx"), CDX);
    CdxHistory.Options o = new CdxHistory.Options();
    o.file = file;
    CdxHistory h = new CdxHistory(o);
    Workload w = h.load();

    assertThat(w.pages()).isEqualTo(1); // b is captured every ten days: too sparse
    assertThat(w.url(0)).isEqualTo("https://example.org/a");
    // AAA at 0 h and 6 h, a revisit (AAA) at 12 h, BBB at 18 h, DDD at 30 h (the 503 is not a
    // copy).
    assertThat(w.history().times(0))
        .containsExactly(15 / 24.0, 24 / 24.0); // (12 + 18) / 2 h, (18 + 30) / 2 h
    assertThat(w.changeRate(0)).isCloseTo(2 / (30 / 24.0), offset(1e-12));
    CdxHistory.Summary s = h.summary();
    assertThat(s.captures()).isEqualTo(8); // a: 5 (the revisit included), b: 3
    assertThat(s.otherStatus()).isEqualTo(2); // the 503 and c's 404
    assertThat(s.badLines()).isEqualTo(2);
    assertThat(s.bad())
        .containsExactly(
            file + ":8: timestamp must be 14 digits (yyyyMMddHHmmss): 2026010212",
            file + ":9: expected at least 6 fields, got 3");
    assertThat(s.urls()).isEqualTo(3);
    assertThat(s.sparse()).isEqualTo(1);
  }

  @Test
  void aGzippedCdxjIndexReadsTheSame() throws Exception {
    String cdxj =
        String.join(
            "\n",
            "org,example)/a 20260101000000 {\"url\": \"https://example.org/a\", \"status\": \"200\", \"digest\": \"A\"}",
            "org,example)/a 20260101060000 {\"url\": \"https://example.org/a\", \"status\": \"200\", \"digest\": \"B\"}",
            "org,example)/a 20260101120000 {\"url\": \"https://example.org/a\", \"status\": \"200\", \"digest\": \"B\"}",
            "org,example)/a 20260101180000 {not json",
            "");
    Path file = dir.resolve("index.cdxj.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(cdxj.getBytes(StandardCharsets.UTF_8));
    }
    CdxHistory.Options o = new CdxHistory.Options();
    o.file = file;
    CdxHistory h = new CdxHistory(o);
    Workload w = h.load();
    assertThat(w.history().times(0)).containsExactly(3 / 24.0);
    assertThat(h.summary().badLines()).isEqualTo(1);
    assertThat(h.summary().bad().get(0)).startsWith(file + ":4: ");
  }

  @Test
  void anIndexNotSortedByUrlKeyIsRefusedAtTheLine() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("unsorted.cdx"),
            String.join(
                "\n",
                "org,example)/b 20260101000000 https://example.org/b text/html 200 X",
                "org,example)/a 20260101000000 https://example.org/a text/html 200 X",
                ""));
    CdxHistory.Options o = new CdxHistory.Options();
    o.file = file;
    assertThatThrownBy(() -> new CdxHistory(o).load())
        .isInstanceOf(WorkloadException.class)
        .hasMessageContaining(file + ":2: not sorted by URL key");
  }

  @Test
  void anIndexWithNoDenselyCapturedPageIsRefusedWithItsCounts() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("sparse.cdx"),
            "org,example)/b 20260101000000 https://example.org/b text/html 200 X\n");
    CdxHistory.Options o = new CdxHistory.Options();
    o.file = file;
    assertThatThrownBy(() -> new CdxHistory(o).load())
        .isInstanceOf(WorkloadException.class)
        .hasMessageContaining("1 URLs, 1 captures, 0 bad lines");
  }
}
