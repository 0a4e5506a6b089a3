package io.recrawl.flink.job;

import io.recrawl.flink.config.RecrawlConfig;
import io.recrawl.flink.io.control.ControlSinks;
import io.recrawl.flink.io.deadletters.DeadLetterSinks;
import io.recrawl.flink.io.decisions.DecisionSinks;
import io.recrawl.flink.io.decisions.ReleaseDecision;
import io.recrawl.flink.io.requests.RequestSinks;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.DeadLetter;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The job's outputs. Production takes them from the configuration; tests inject collecting ones.
 */
public interface JobSinks {

  /** Attaches the sink of crawl requests. */
  void requests(DataStream<CrawlRequest> requests);

  /** Attaches the sink of dead letters (from every stage of the job). */
  void deadLetters(DataStream<DeadLetter> deadLetters);

  /**
   * Attaches the sink of the controller's λ_0 (only with the controller): where the control stream
   * reads it.
   */
  void globalLambdas(DataStream<ControlMessage> lambdas);

  /** Attaches the sink of the decision log; by default there is none. */
  default void decisions(DataStream<ReleaseDecision> decisions) {}

  /** Attaches the sink of the answers to front-end queries (JSON); by default there is none. */
  default void answers(DataStream<String> answers) {}

  /** The sinks named by the configuration. */
  static JobSinks fromConfig(RecrawlConfig config) {
    return new JobSinks() {
      @Override
      public void requests(DataStream<CrawlRequest> requests) {
        RequestSinks.attach(requests, config);
      }

      @Override
      public void deadLetters(DataStream<DeadLetter> deadLetters) {
        DeadLetterSinks.attach(deadLetters, config);
      }

      @Override
      public void globalLambdas(DataStream<ControlMessage> lambdas) {
        ControlSinks.attach(lambdas, config);
      }

      @Override
      public void decisions(DataStream<ReleaseDecision> decisions) {
        DecisionSinks.attach(decisions, config);
      }

      @Override
      public void answers(DataStream<String> answers) {
        ControlSinks.attachAnswers(answers, config);
      }
    };
  }
}
