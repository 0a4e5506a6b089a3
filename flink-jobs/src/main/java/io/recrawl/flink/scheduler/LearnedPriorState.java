package io.recrawl.flink.scheduler;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The grid posterior's learned prior in operator state {@code learned-prior}: each subtask keeps
 * its prior's mass (about one unit per page with evidence) under its index and the parallelism. At
 * the same parallelism a restore gives each subtask its own back, so that a recovery replays
 * exactly what a run without failures did; after a rescale every subtask gets an equal share of the
 * sum, as its key groups hold about that share of the pages.
 */
final class LearnedPriorState {

  private LearnedPriorState() {}

  /** The entry of subtask {@code index} of {@code subtasks}: {@code index/subtasks:m0,m1,...}. */
  static String format(int index, int subtasks, double[] mass) {
    return index
        + "/"
        + subtasks
        + ":"
        + Arrays.stream(mass).mapToObj(Double::toString).collect(Collectors.joining(","));
  }

  /**
   * Subtask {@code index}'s prior from the kept entries: its own at the same parallelism, else an
   * equal share of their sum; null if none was kept or an entry is unreadable (the prior then
   * starts afresh, as before it was kept).
   */
  static double[] restore(Iterable<String> entries, int index, int subtasks) {
    double[] sum = null;
    double[] own = null;
    int kept = 0;
    for (String e : entries) {
      int colon = e.indexOf(':');
      String[] owner = e.substring(0, Math.max(0, colon)).split("/");
      double[] m;
      try {
        m =
            Arrays.stream(e.substring(colon + 1).split(","))
                .mapToDouble(Double::parseDouble)
                .toArray();
        if (owner.length == 2
            && Integer.parseInt(owner[0]) == index
            && Integer.parseInt(owner[1]) == subtasks) {
          own = m;
        }
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
      kept++;
    }
    if (own != null && kept == subtasks) {
      return own;
    }
    if (sum != null) {
      for (int k = 0; k < sum.length; k++) {
        sum[k] /= Math.max(1, subtasks);
      }
    }
    return sum;
  }
}
