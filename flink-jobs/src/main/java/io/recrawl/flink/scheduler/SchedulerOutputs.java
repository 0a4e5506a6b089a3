package io.recrawl.flink.scheduler;

import io.recrawl.flink.io.deadletters.DeadLetters;
import io.recrawl.flink.io.decisions.ReleaseDecision;
import io.recrawl.wire.DeadLetter;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.util.OutputTag;

/** The host scheduler's side outputs, and the reasons of the dead letters it sends itself. */
public final class SchedulerOutputs {

  private SchedulerOutputs() {}

  /**
   * Inputs the operator refused, with a reason (the job's shared tag); counted in {@code
   * recrawl.deadLetters.<reason>}.
   */
  public static final OutputTag<DeadLetter> DEAD_LETTERS = DeadLetters.TAG;

  /** One {@link DemandReport} per subtask per tick: input of the global lambda controller. */
  public static final OutputTag<DemandReport> DEMAND =
      new OutputTag<>("demand", TypeInformation.of(DemandReport.class));

  /**
   * The decision log: one {@link ReleaseDecision} per crawl request, with its reason and the host
   * and global lambdas it was released at, when the function is built with it on (the job does so
   * when {@code recrawl.decisions.type} names a sink).
   */
  public static final OutputTag<ReleaseDecision> DECISIONS =
      new OutputTag<>("decisions", TypeInformation.of(ReleaseDecision.class));

  /**
   * Answers to front-end queries ({@link StateQueries}) as the JSON of {@link
   * io.recrawl.wire.QueryAnswer}, for the {@code crawl.answers} topic.
   */
  public static final OutputTag<String> ANSWERS = new OutputTag<>("answers", Types.STRING);

  /** Dead-letter reasons of the operator itself (parsing has its own, see DeadLetterReason). */
  public static final String BAD_CONTROL = "bad_control";

  public static final String REJECTED_BY_ENGINE = "rejected_by_engine";

  /** A host moved aside ({@link Quarantine}), its key as the dead letter's raw. */
  public static final String HOST_QUARANTINED = "host_quarantined";
}
