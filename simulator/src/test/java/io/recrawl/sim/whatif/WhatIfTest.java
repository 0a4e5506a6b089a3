package io.recrawl.sim.whatif;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.recrawl.sim.workload.CdxHistory;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crawl that captures every page daily, half of whose pages change every few hours and half
 * almost never: recrawl's schedule at the same fetches crawls the changing half more and gains.
 */
class WhatIfTest {

  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");

  @TempDir Path dir;

  @Test
  void aUniformCrawlOfPagesThatChangeAtDifferentRatesGainsFromRecrawlsSchedule() throws Exception {
    Path cdx = dir.resolve("crawl.cdx");
    Random rnd = new Random(5);
    List<String> lines = new ArrayList<>();
    LocalDateTime t0 = LocalDateTime.of(2026, 1, 1, 0, 0);
    for (int u = 0; u < 40; u++) {
      double rate = u % 2 == 0 ? 0.5 : 0.01; // changes a day
      int version = 0;
      for (int d = 0; d < 60; d++) {
        if (d > 0 && rnd.nextDouble() < 1 - Math.exp(-rate)) {
          version++;
        }
        lines.add(
            String.format(
                "org,example)/p%02d %s https://example.org/p%02d text/html 200 V%d",
                u, t0.plusDays(d).plusMinutes(u).format(STAMP), u, version));
      }
    }
    try (BufferedWriter w = Files.newBufferedWriter(cdx)) {
      for (String l : lines) {
        w.write(l);
        w.newLine();
      }
    }
    CdxHistory.Options c = new CdxHistory.Options();
    c.file = cdx;
    WhatIf.Options o = new WhatIf.Options();
    o.draws = 20;
    WhatIf.Result r = new WhatIf(o).estimate(new CdxHistory(c));

    assertThat(r.pages()).isEqualTo(40);
    assertThat(r.budgetPerDay()).isCloseTo(40.0, offset(0.1)); // every page daily
    // Daily crawls: a page changing 0.5 a day is fresh (1 - e^-0.5)/0.5 = 0.79 of the time, a
    // page changing 0.01 a day nearly always.
    assertThat(r.actual()).isBetween(0.85, 0.92);
    assertThat(r.recrawl()).isGreaterThan(r.actual());
    assertThat(r.gainRange()[0]).isGreaterThan(0); // the gain holds over the rates' uncertainty
    // The fast pages get more crawls than once a day, the slow ones fewer.
    for (int p = 0; p < r.pages(); p++) {
      if (r.rates()[p] > 0.2) {
        assertThat(r.recrawlIntervals()[p]).isLessThan(1.0);
      }
    }
    String html = WhatIfReport.html(cdx.toString(), r);
    assertThat(html)
        .contains("<svg", "Assumptions", "recrawl's schedule, same fetches, same host limits");
  }
}
