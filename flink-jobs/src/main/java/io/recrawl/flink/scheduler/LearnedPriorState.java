package io.recrawl.flink.scheduler;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The grid posterior's learned prior in operator state {@code learned-prior}: each subtask keeps
 * its prior's mass (about one unit per page with evidence), and a restore gives every subtask an
 * equal share of the sum, as its key groups hold about that share of the pages at any parallelism.
 */
final class LearnedPriorState {

  private LearnedPriorState() {}

  static String format(double[] mass) {
    return Arrays.stream(mass).mapToObj(Double::toString).collect(Collectors.joining(","));
  }

  /**
   * This subtask's share of the kept priors: their sum over {@code subtasks}; null if none was kept
   * or an entry is unreadable (the prior then starts afresh, as before it was kept).
   */
  static double[] share(Iterable<String> entries, int subtasks) {
    double[] sum = null;
    for (String e : entries) {
      double[] m;
      try {
        m = Arrays.stream(e.split(",")).mapToDouble(Double::parseDouble).toArray();
      } catch (NumberFormatException bad) {
        return null;
      }
      if (sum == null) {
        sum = new double[m.length];
      } else if (m.length != sum.length) {
        return null;
      }
      for (int k = 0; k < m.length; k++) {
        sum[k] += m[k];
      }
    }
    if (sum != null) {
      for (int k = 0; k < sum.length; k++) {
        sum[k] /= Math.max(1, subtasks);
      }
    }
    return sum;
  }
}
