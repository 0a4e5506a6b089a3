package io.recrawl.sim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.estimate.ChangeRateEstimator;
import org.junit.jupiter.api.Test;

class FamilyEstimatesTest {

  @Test
  void theGridWithItsLearnedPriorIsCloserToTheTruthOnEveryFamily() {
    String table = FamilyEstimates.report(3000, 2, ChangeRateEstimator.defaults());
    String[] lines = table.split("\n");
    int families = io.recrawl.sim.workload.WorkloadGenerator.Family.values().length;
    assertThat(lines).hasSize(2 + families * 4 * 2);
    for (int i = 2; i < lines.length; i += 2) {
      String[] gamma = lines[i].split("\\|");
      String[] grid = lines[i + 1].split("\\|");
      assertThat(gamma[4].strip()).isEqualTo("Gamma in place");
      assertThat(grid[4].strip()).isEqualTo("grid, learned prior");
      // log RMSE (column 8) and |log bias| (column 7)
      assertThat(Double.parseDouble(grid[8]))
          .as(lines[i + 1])
          .isLessThan(Double.parseDouble(gamma[8]));
      assertThat(Math.abs(Double.parseDouble(grid[7])))
          .as(lines[i + 1])
          .isLessThan(Math.abs(Double.parseDouble(gamma[7])));
    }
  }
}
