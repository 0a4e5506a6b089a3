package io.recrawl.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.estimate.ChangeRateEstimator;
import io.recrawl.estimate.ChangeStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writes a small dataset in the PoliteCrawling layout (docs/simulator.md) and imports it. */
class BingImporterTest {

  @TempDir Path dir;

  private static final double[] TRUE_RATE = {0.05, 0.3, 1.0, 3.0};

  private void writeDataset(int urlsPerRate) throws Exception {
    SplittableRandom rnd = new SplittableRandom(3);
    List<String> urls = new ArrayList<>();
    List<String> imp = new ArrayList<>();
    List<String> hist = new ArrayList<>();
    int id = 0;
    for (int r = 0; r < TRUE_RATE.length; r++) {
      for (int k = 0; k < urlsPerRate; k++, id++) {
        int host = id % 2 == 0 ? 10 : 11;
        urls.add("https://host" + host + ".example/page" + id + "\t" + id + "\t" + host);
        imp.add(id + "\t" + (id % 5 == 0 ? 0 : id % 7 + 1));
        StringBuilder h = new StringBuilder("[");
        for (int c = 0; c < 98; c++) {
          double interval = 0.5 + rnd.nextDouble(); // about daily, irregular
          boolean changed = rnd.nextDouble() < 1 - Math.exp(-TRUE_RATE[r] * interval);
          h.append(c == 0 ? "" : ", ")
              .append('[')
              .append(interval)
              .append(", ")
              .append(changed ? 1 : 0)
              .append(']');
        }
        hist.add(id + "\t" + (rnd.nextDouble() * 3) + "\t" + h.append(']'));
      }
    }
    urls.add("https://host10.example/no-history\t" + id + "\t10");
    Files.write(dir.resolve(BingImporter.URLS), urls);
    Files.write(
        dir.resolve(BingImporter.HOSTS),
        List.of(
            "Host_URL\tHost_ID\tIs_constrained?",
            "http://host10.example/\t10\t1",
            "http://host11.example/\t11\t0"));
    Files.write(dir.resolve(BingImporter.IMPORTANCE), imp);
    Files.write(dir.resolve(BingImporter.HISTORY), hist);
  }

  @Test
  void importsRatesWeightsAndConstrainedHosts() throws Exception {
    int per = 200;
    writeDataset(per);
    BingImporter.Options o = new BingImporter.Options();
    o.constrainedBase = 2;
    o.constrainedPerPage = 0.1;
    BingImporter importer = new BingImporter(o);
    Workload w = importer.load(dir);
    assertThat(w.pages()).isEqualTo(per * TRUE_RATE.length);
    assertThat(importer.summary().noHistory()).isEqualTo(1);
    assertThat(importer.summary().raisedWeights()).isEqualTo(per * TRUE_RATE.length / 5);
    assertThat(w.hosts()).isEqualTo(2);
    int h10 = w.hostOf(0);
    assertThat(w.hostName(h10)).isEqualTo("host10.example");
    assertThat(w.hostMaxRate(h10)).isEqualTo(2 + 0.1 * (per * TRUE_RATE.length / 2));
    assertThat(w.hostMaxRate(w.hostOf(1))).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(w.weight(1)).isEqualTo(1 % 7 + 1);
    assertThat(w.weight(0)).isEqualTo(o.minWeight);
    // Mean estimated rate per true-rate group is close to the truth (98 roughly daily observations
    // each).
    // The default prior (one change a day, worth one observation) lifts the slowest group by about
    // 20 %.
    for (int r = 0; r < TRUE_RATE.length; r++) {
      double sum = 0;
      for (int k = 0; k < per; k++) {
        sum += w.changeRate(r * per + k);
      }
      double mean = sum / per;
      assertThat(mean / TRUE_RATE[r]).as("rate group %s", TRUE_RATE[r]).isBetween(0.85, 1.3);
    }
  }

  @Test
  void ratesAreTheProjectEstimatorsPosteriorMean() throws Exception {
    Files.write(dir.resolve(BingImporter.URLS), List.of("u\t1\t5"));
    Files.write(dir.resolve(BingImporter.HOSTS), List.of("h.example\t5\t0"));
    Files.write(dir.resolve(BingImporter.IMPORTANCE), List.of("1\t3"));
    Files.write(
        dir.resolve(BingImporter.HISTORY), List.of("1\t0.5\t[[1.25, 0], [0.75, 1], [2.0, 0]]"));
    Workload w = new BingImporter(new BingImporter.Options()).load(dir);
    ChangeRateEstimator est = ChangeRateEstimator.defaults();
    ChangeStats s =
        est.observe(est.observe(est.observe(est.prior(), 1.25, false), 0.75, true), 2.0, false);
    assertThat(w.changeRate(0)).isEqualTo(est.rate(s));
    assertThat(w.weight(0)).isEqualTo(3.0);
  }

  @Test
  void malformedRowsAreReportedWithFileAndLine() throws Exception {
    Files.write(dir.resolve(BingImporter.URLS), List.of("u\t1\t5", "v\t2\t99", "w\tx\t5"));
    Files.write(dir.resolve(BingImporter.HOSTS), List.of("h.example\t5\t2"));
    Files.write(dir.resolve(BingImporter.IMPORTANCE), List.of("1\t3", "2"));
    Files.write(dir.resolve(BingImporter.HISTORY), List.of("1\t0.5\t[[1.25, 0], [0.75, 3]]"));
    assertThatThrownBy(() -> new BingImporter(new BingImporter.Options()).load(dir))
        .isInstanceOf(WorkloadException.class)
        .satisfies(
            e ->
                assertThat(((WorkloadException) e).problems())
                    .containsExactly(
                        dir.resolve(BingImporter.HOSTS)
                            + ":1: Is_constrained must be 0 or 1, got '2'",
                        dir.resolve(BingImporter.IMPORTANCE)
                            + ":2: expected 2 tab-separated columns, got 1",
                        dir.resolve(BingImporter.HISTORY)
                            + ":1: Crawl_and_change_history must be a JSON list of [days, 0|1] pairs",
                        dir.resolve(BingImporter.URLS)
                            + ":2: Host_ID 99 is not in host_hostid_isconstrained.txt",
                        dir.resolve(BingImporter.URLS) + ":3: URL_ID must be an integer, got 'x'"));
  }
}
