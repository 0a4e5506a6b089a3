package io.recrawl.optimum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

class ThresholdSearchTest {

  @Test
  void powerLawDemandIsSolvedInAFewSteps() {
    AtomicInteger calls = new AtomicInteger();
    DoubleUnaryOperator d =
        t -> {
          calls.incrementAndGet();
          return 3 / Math.sqrt(t);
        };
    // 3 / sqrt(theta) = 2 at theta = 2.25; start from a guess 100x too small.
    double theta = ThresholdSearch.solve(d, 2, 0, Double.POSITIVE_INFINITY, 0.0225).theta;
    assertEquals(2.25, theta, 1e-12);
    assertTrue(3 / Math.sqrt(theta) <= 2, "the feasible side");
    assertTrue(calls.get() <= 10, calls.get() + " evaluations");
  }

  @Test
  void demandThatReachesZeroIsBracketedAndSolved() {
    // Linear demand hitting 0 at theta = 10: the log of the demand is -infinity past that.
    DoubleUnaryOperator d = t -> Math.max(0, 10 - t);
    double theta = ThresholdSearch.solve(d, 4, 0, 10, 1e6).theta;
    assertEquals(6, theta, 1e-11);
    assertTrue(d.applyAsDouble(theta) <= 4);
  }

  @Test
  void startsFromAPositiveLowEnd() {
    DoubleUnaryOperator d = t -> 1 / (t * t) + 0.5;
    double theta = ThresholdSearch.solve(d, 1.5, 0.5, d.applyAsDouble(0.5), 0.6).theta;
    assertEquals(1, theta, 1e-12);
  }

  @Test
  void floorsThatMeetTheLimitStopTheSearch() {
    // The demand never falls below 1 and the limit is 1: the search must end, not loop.
    DoubleUnaryOperator d = t -> 1 + 1 / t;
    double theta = ThresholdSearch.solve(d, 1, 0, Double.POSITIVE_INFINITY, 1).theta;
    assertTrue(theta >= 1e15, "theta " + theta);
  }

  @Test
  void aJumpAcrossTheLimitIsMixedToMeetIt() {
    // The demand drops from 2 to 0.5 at theta = 1: no threshold meets a limit of 1 exactly.
    DoubleUnaryOperator d = t -> t < 1 ? 2 : 0.5;
    ThresholdRoot root = ThresholdSearch.solve(d, 1, 0, 2, 3);
    assertTrue(root.theta >= 1 && root.theta < 1 + 1e-10, "theta " + root.theta);
    assertTrue(root.lowTheta < 1 && root.lowTheta > 1 - 1e-10, "low " + root.lowTheta);
    assertEquals(1.0 / 3, root.fraction, 1e-15);
  }

  @Test
  void aConvergedRootNeedsNoMix() {
    ThresholdRoot root = ThresholdSearch.solve(t -> 1 / t, 4, 0.1, 10, 0.2);
    assertEquals(0.25, root.theta, 1e-13);
    assertEquals(0.0, root.fraction);
  }
}
