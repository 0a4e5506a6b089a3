package io.recrawl.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class WorkloadGeneratorTest {

  @Test
  void zipfSizesSumToThePagesAndFallWithRank() {
    int[] sizes = WorkloadGenerator.zipfSizes(100_000, 1_000, 1.0);
    assertThat(Arrays.stream(sizes).sum()).isEqualTo(100_000);
    assertThat(Arrays.stream(sizes).min().getAsInt()).isGreaterThanOrEqualTo(1);
    // rank 1 gets about 1 / H_1000 = 13.4 % of the pages, rank 2 about half of that
    assertThat(sizes[0]).isBetween(13_200, 13_500);
    assertThat((double) sizes[1] / sizes[0]).isBetween(0.49, 0.51);
  }

  @Test
  void distributionsFollowTheOptions() {
    WorkloadGenerator.Options o = new WorkloadGenerator.Options();
    o.pages = 50_000;
    o.hosts = 500;
    o.seed = 7;
    Workload w = WorkloadGenerator.generate(o);
    assertThat(w.constrainedHosts()).isEqualTo(150);
    double[] rates = w.changeRates();
    Arrays.sort(rates);
    assertThat(rates[rates.length / 2]).isBetween(0.19, 0.21); // median
    assertThat(rates[0]).isGreaterThanOrEqualTo(o.rateMin);
    assertThat(rates[rates.length - 1]).isLessThanOrEqualTo(o.rateMax);
    double[] weights = w.weights();
    Arrays.sort(weights);
    // Pareto(1.5, scale 1): median 2^(1/1.5) = 1.587
    assertThat(weights[weights.length / 2]).isBetween(1.55, 1.63);
    assertThat(weights[0]).isGreaterThanOrEqualTo(1.0);
    int[] sizes = w.hostSizes();
    for (int h = 0; h < w.hosts(); h++) {
      if (w.constrained(h)) {
        assertThat(w.hostMaxRate(h)).isEqualTo(1 + 0.05 * sizes[h]);
      }
    }
  }

  @Test
  void sameSeedSameWorkload() {
    WorkloadGenerator.Options o = new WorkloadGenerator.Options();
    o.pages = 2_000;
    o.hosts = 30;
    Workload a = WorkloadGenerator.generate(o);
    Workload b = WorkloadGenerator.generate(o);
    assertThat(a.weights()).isEqualTo(b.weights());
    assertThat(a.changeRates()).isEqualTo(b.changeRates());
    assertThat(a.hostMaxRates()).isEqualTo(b.hostMaxRates());
    o.seed = 2;
    assertThat(WorkloadGenerator.generate(o).changeRates()).isNotEqualTo(a.changeRates());
  }

  @Test
  void familiesHaveTheirOwnShapes() {
    double[] share = new double[WorkloadGenerator.Family.values().length];
    for (WorkloadGenerator.Family f : WorkloadGenerator.Family.values()) {
      WorkloadGenerator.Options o = WorkloadGenerator.Options.of(f);
      o.pages = 40_000;
      o.hosts = 400;
      Workload w = WorkloadGenerator.generate(o);
      double[] r = w.changeRates();
      Arrays.sort(r);
      assertThat(r[0]).isGreaterThanOrEqualTo(o.rateMin);
      assertThat(r[r.length - 1]).isLessThanOrEqualTo(o.rateMax);
      // The share of pages between 0.1 and 0.5 changes a day: the gap between the bimodal family's
      // modes is nearly empty.
      share[f.ordinal()] =
          Arrays.stream(r).filter(x -> x > 0.1 && x < 0.5).count() / (double) r.length;
      if (f == WorkloadGenerator.Family.PARETO) {
        // a power tail: P(rate > 10 x median) = 10^-0.7 / 2 = 0.0998 (log-normal sigma 1.5: 0.062)
        double median = r[r.length / 2];
        assertThat(Arrays.stream(r).filter(x -> x > 10 * median).count() / (double) r.length)
            .isBetween(0.09, 0.11);
      }
    }
    assertThat(share[WorkloadGenerator.Family.BIMODAL.ordinal()])
        .isLessThan(0.5 * share[WorkloadGenerator.Family.LOGNORMAL.ordinal()]);
    assertThat(WorkloadGenerator.Family.parse("Bimodal"))
        .isEqualTo(WorkloadGenerator.Family.BIMODAL);
  }

  @Test
  void theLogNormalFamilyDrawIsTheOneBeforeFamilies() {
    WorkloadGenerator.Options o = WorkloadGenerator.Options.of(WorkloadGenerator.Family.LOGNORMAL);
    // the first page of the 100,000-page seed-1 workload, as generated before families existed
    Workload w = WorkloadGenerator.generate(o);
    assertThat(w.changeRate(0)).isEqualTo(0.018495642897710808);
    assertThat(w.weight(0)).isEqualTo(1.6256528108674602);
  }

  @Test
  void theZipfTightFamilyHasBigHostsTightLimitsAndTwoSpeeds() {
    WorkloadGenerator.Options o = WorkloadGenerator.Options.of(WorkloadGenerator.Family.ZIPF_TIGHT);
    o.pages = 60_000;
    o.hosts = 600;
    Workload w = WorkloadGenerator.generate(o);
    int[] sizes = w.hostSizes();
    // Zipf 1.3: the ten biggest hosts hold more than half of the pages
    int top = 0;
    for (int h = 0; h < 10; h++) {
      top += sizes[h];
    }
    assertThat(top).isGreaterThan(o.pages / 2);
    assertThat(w.constrainedHosts()).isEqualTo(200);
    double lo = Double.MAX_VALUE;
    double hi = 0;
    for (int h = 0; h < w.hosts(); h++) {
      if (w.constrained(h)) {
        double perPage = (w.hostMaxRate(h) - 1) / sizes[h];
        lo = Math.min(lo, perPage);
        hi = Math.max(hi, perPage);
      }
    }
    assertThat(lo).isBetween(0.02, 0.025);
    assertThat(hi).isBetween(0.14, 0.15);
    double[] r = w.changeRates();
    double fast = Arrays.stream(r).filter(x -> x > 0.5).count() / (double) r.length;
    double slow = Arrays.stream(r).filter(x -> x < 0.1).count() / (double) r.length;
    assertThat(fast).isBetween(0.12, 0.28); // the fast group, each host's share Beta(1, 4)
    assertThat(slow).isGreaterThan(0.6); // the slow majority, median 0.03 a day
    double[] weights = w.weights();
    Arrays.sort(weights);
    // log-normal, sigma 2: median 1, the 90th percentile e^{2 x 1.2816} = 12.97
    assertThat(weights[weights.length / 2]).isBetween(0.9, 1.1);
    assertThat(weights[(int) (0.9 * weights.length)]).isBetween(11.5, 14.5);
    assertThat(WorkloadGenerator.Family.parse("zipf-tight"))
        .isEqualTo(WorkloadGenerator.Family.ZIPF_TIGHT);
  }

  @Test
  void theOtherFamiliesDrawAsBeforeZipfTight() {
    // the first page and the first limited host of each family's 100,000-page seed-1 workload,
    // as generated before the zipf-tight family existed
    double[][] expected = {
      {0.042088672869994674, 2.1337067390384843, 184.85000000000002},
      {0.02561998678670562, 0.0983769969040332, 498.0}
    };
    WorkloadGenerator.Family[] families = {
      WorkloadGenerator.Family.BIMODAL, WorkloadGenerator.Family.PARETO
    };
    for (int i = 0; i < families.length; i++) {
      Workload w = WorkloadGenerator.generate(WorkloadGenerator.Options.of(families[i]));
      assertThat(w.changeRate(0)).isEqualTo(expected[i][0]);
      assertThat(w.weight(0)).isEqualTo(expected[i][1]);
      assertThat(firstLimit(w)).isEqualTo(expected[i][2]);
    }
  }

  private static double firstLimit(Workload w) {
    for (int h = 0; h < w.hosts(); h++) {
      if (w.constrained(h)) {
        return w.hostMaxRate(h);
      }
    }
    return 0;
  }
}
