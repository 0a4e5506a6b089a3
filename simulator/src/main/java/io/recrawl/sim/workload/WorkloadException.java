package io.recrawl.sim.workload;

import java.util.List;

/** Raised when workload files are malformed; lists every bad row as {@code file:line: reason}. */
public final class WorkloadException extends Exception {

  private final List<String> problems;

  public WorkloadException(List<String> problems) {
    super(problems.size() + " problem(s) in the workload:\n  " + String.join("\n  ", problems));
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }
}
