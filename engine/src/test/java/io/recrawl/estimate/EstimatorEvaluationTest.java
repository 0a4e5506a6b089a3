package io.recrawl.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.recrawl.estimate.EstimatorEvaluation.Gaps;
import io.recrawl.estimate.EstimatorEvaluation.Row;
import io.recrawl.estimate.EstimatorEvaluation.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

class EstimatorEvaluationTest {

  private final EstimatorEvaluation eval =
      new EstimatorEvaluation(ChangeRateEstimator.defaults(), 0.01, 10, 20_000, 42);

  @Test
  void naiveBiasMatchesChoAndGarciaMolinasFactor() {
    // With regular gaps I, E[changes / time] = delta (1 - e^(-r)) / r with r = delta I, whatever
    // delta is.
    for (double r : new double[] {0.2, 1.0, 5.0}) {
      Row row = eval.evaluate(List.of(new Scenario(Gaps.REGULAR, r, 50))).get(0);
      double expected = -Math.expm1(-r) / r - 1;
      assertThat(row.naive().relBias()).as("r=%s", r).isCloseTo(expected, within(0.01));
    }
  }

  @Test
  void choEstimatorIsNearlyUnbiasedOnRegularGapsAndLongHistories() {
    // Cho and Garcia-Molina: E[r^]/r within a few per cent of 1 for n >= 20 and r <= 2.
    Row row = eval.evaluate(List.of(new Scenario(Gaps.REGULAR, 1.0, 50))).get(0);
    assertThat(row.cho().relBias()).isCloseTo(0.0, within(0.03));
    assertThat(row.cho().zeroFraction()).isZero();
  }

  @Test
  void oursBeatsNaiveWhenCrawlsAreFrequentEnoughToSeeChanges() {
    for (Gaps gaps : Gaps.values()) {
      Row row = eval.evaluate(List.of(new Scenario(gaps, 1.0, 50))).get(0);
      assertThat(Math.abs(row.ours().relBias())).as("%s", gaps).isLessThan(0.05);
      assertThat(row.ours().logRmse()).as("%s", gaps).isLessThan(row.naive().logRmse());
      assertThat(row.ours().relRmse()).as("%s", gaps).isLessThan(row.naive().relRmse());
    }
  }

  @Test
  void lastModifiedTimesHelpMostWhereLooksAreRare() {
    for (Gaps gaps : Gaps.values()) {
      Row row = eval.evaluate(List.of(new Scenario(gaps, 5.0, 50))).get(0);
      assertThat(row.oursLastModified().logRmse())
          .as("%s", gaps)
          .isLessThan(row.ours().logRmse() * 0.75)
          .isLessThan(row.cho().logRmse());
      assertThat(Math.abs(row.oursLastModified().relBias())).as("%s", gaps).isLessThan(0.05);
    }
  }

  @Test
  void longerHistoriesGiveSmallerErrors() {
    List<Row> rows =
        eval.evaluate(
            List.of(
                new Scenario(Gaps.EXPONENTIAL, 1.0, 10), new Scenario(Gaps.EXPONENTIAL, 1.0, 50)));
    assertThat(rows.get(1).ours().logRmse()).isLessThan(rows.get(0).ours().logRmse());
  }

  @Test
  void sameSeedSameTable() {
    List<Scenario> sc = EstimatorEvaluation.standardScenarios();
    assertThat(sc).hasSize(12);
    EstimatorEvaluation small =
        new EstimatorEvaluation(ChangeRateEstimator.defaults(), 0.01, 10, 500, 7);
    String a = EstimatorEvaluation.table(small.evaluate(sc));
    String b = EstimatorEvaluation.table(small.evaluate(sc));
    assertThat(a)
        .isEqualTo(b)
        .contains("| exponential | 5.0 | 50 | ours |")
        .contains("| regular | 0.2 | 10 | Cho-GM |");
    String c =
        EstimatorEvaluation.table(
            new EstimatorEvaluation(ChangeRateEstimator.defaults(), 0.01, 10, 500, 8).evaluate(sc));
    assertThat(c).isNotEqualTo(a);
  }
}
