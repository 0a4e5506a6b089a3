package io.recrawl.flink.tools.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.HostKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Checked pages spilled by host and read back: the same pages, a host whole, in input order. */
class PagePartitionsTest {

  @TempDir Path tmp;

  private static final PageImport IMPORT = PageImportTest.importer(HostKeys.Mode.BY_HOST);

  private static ImportedPage page(
      long line, String url, CrawlStatus s, Map<String, List<String>> md) throws RowRejection {
    return IMPORT.page(new FrontierRow(line, url, s, PageImportTest.NOW + line, md, "raw " + line));
  }

  @Test
  void aPageComesBackAsItWentInMetadataErrorsAndLongValuesIncluded() throws Exception {
    String longValue = "x".repeat(70_000); // past DataOutput.writeUTF's 64 KB
    List<ImportedPage> in =
        List.of(
            page(
                1,
                "https://a.example/p",
                CrawlStatus.FETCHED,
                Map.of(
                    "recrawl.weight", List.of("2.5"),
                    "recrawl.lastFetch", List.of("2026-11-20T00:00:00Z"),
                    "long", List.of(longValue, "ü€"))),
            page(
                2,
                "https://a.example/e",
                CrawlStatus.FETCH_ERROR,
                Map.of("fetch.error.count", List.of("2"))),
            page(3, "https://a.example/d", CrawlStatus.DISCOVERED, Map.of()));
    List<ImportedPage> out = new ArrayList<>();
    List<String> raws = new ArrayList<>();
    try (PagePartitions p = new PagePartitions(1, tmp)) {
      for (ImportedPage page : in) {
        p.add(page, "raw " + page.line() + longValue);
      }
      p.read(
          0,
          (page, raw) -> {
            out.add(page);
            raws.add(raw);
          });
    }
    assertThat(out).isEqualTo(in);
    assertThat(out.get(1).events()).hasSize(2); // two errors, replayed a millisecond apart
    assertThat(raws).containsExactly("raw 1" + longValue, "raw 2" + longValue, "raw 3" + longValue);
  }

  @Test
  void everyPageOfAHostIsInOnePartitionInTheOrderAdded() throws Exception {
    Map<String, List<Long>> hostsSeen = new HashMap<>();
    Map<String, Integer> partitionOfHost = new HashMap<>();
    int added = 0;
    try (PagePartitions p = new PagePartitions(7, tmp)) {
      for (int line = 1; line <= 2_000; line++) {
        p.add(
            page(
                line,
                "https://h" + (line % 97) + ".example/" + line,
                CrawlStatus.DISCOVERED,
                Map.of()),
            "r");
        added++;
      }
      int[] read = {0};
      for (int i = 0; i < p.count(); i++) {
        int partition = i;
        p.read(
            i,
            (page, raw) -> {
              read[0]++;
              assertThat(partitionOfHost.putIfAbsent(page.host(), partition)).isIn(null, partition);
              hostsSeen.computeIfAbsent(page.host(), h -> new ArrayList<>()).add(page.line());
            });
      }
      assertThat(read[0]).isEqualTo(added);
    }
    assertThat(hostsSeen).hasSize(97);
    assertThat(new HashMap<>(partitionOfHost).values().stream().distinct().count())
        .isGreaterThan(1);
    for (List<Long> lines : hostsSeen.values()) {
      assertThat(lines).isSorted();
    }
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left).as("spill files are deleted on close").isEmpty();
    }
  }

  @Test
  void partitionsFollowTheInputSize() {
    assertThat(PagePartitions.countFor(0, 64 << 20)).isEqualTo(1);
    assertThat(PagePartitions.countFor(230_000_000L, 64 << 20)).isEqualTo(4);
    assertThat(PagePartitions.countFor(Long.MAX_VALUE / 2, 1))
        .isEqualTo(PagePartitions.MAX_PARTITIONS);
  }
}
