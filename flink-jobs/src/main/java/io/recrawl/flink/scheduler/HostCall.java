package io.recrawl.flink.scheduler;

import io.recrawl.engine.EngineContext;
import io.recrawl.engine.EngineOutcome;
import io.recrawl.engine.HostEngine;
import io.recrawl.engine.HostStore;
import io.recrawl.wire.CrawlRequest;
import java.util.function.Consumer;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.util.Collector;

/**
 * One undoable engine call on one host: the host's records, the engine's shared state and the
 * call's {@link EngineOutcome} commit together, and only then does the {@link OutcomeApplier} send
 * what the call decided. A call rolled back sends nothing.
 */
final class HostCall {

  /** A front end's change of one host ({@link StateQueries}), as one engine call. */
  interface HostChange {
    long apply(HostEngine engine, HostStore store, EngineContext ctx, EngineOutcome out);
  }

  private final HostEngine engine;
  private final FlinkHostStore store;
  private final HostStore engineStore;
  private final OutcomeApplier applier;
  private final SchedulerMetrics metrics;
  private final Consumer<String> beforeCommit;
  private final EngineContext context = new EngineContext();
  private final EngineOutcome outcome = new EngineOutcome();

  /**
   * @param engineStore the store the engine works on ({@code store}, or a test's wrapper of it)
   * @param beforeCommit runs after the engine and before the commit (a test's seam)
   */
  HostCall(
      HostEngine engine,
      FlinkHostStore store,
      HostStore engineStore,
      OutcomeApplier applier,
      SchedulerMetrics metrics,
      Consumer<String> beforeCommit) {
    this.engine = engine;
    this.store = store;
    this.engineStore = engineStore;
    this.applier = applier;
    this.metrics = metrics;
    this.beforeCommit = beforeCommit;
  }

  /** Starts a call on {@code host} at {@code now}; its records are begun with the store's. */
  EngineContext start(String host, long now, double lambda0) {
    context.begin(host, now, lambda0);
    engine.begin();
    return context;
  }

  /** The store the engine works on. */
  HostStore engineStore() {
    return engineStore;
  }

  EngineContext context() {
    return context;
  }

  /** The call's outcome, filled by the engine. */
  EngineOutcome outcome() {
    return outcome;
  }

  /** The call's host records and the engine's shared state stand; its outcome is to be applied. */
  void commit(String host) {
    beforeCommit.accept(host);
    store.commit();
    engine.commit();
  }

  /** The call failed: its records, the engine's shared state and its outcome are dropped. */
  void rollback() {
    store.rollback();
    engine.rollback();
    outcome.clear();
  }

  /** Sends what the committed call decided, then forgets it. */
  void send(
      double lambda0,
      TimerService timers,
      long timerTime,
      Collector<CrawlRequest> out,
      SideOutput side) {
    applier.apply(outcome, lambda0, timers, timerTime, out, side);
    outcome.clear();
  }

  /**
   * Runs {@code change} on {@code host}, the current key, as one call: committed, then sent as a
   * status event's is. A failure is rolled back and thrown; nothing was sent.
   */
  long change(
      String host,
      long now,
      double lambda0,
      HostChange change,
      TimerService timers,
      Collector<CrawlRequest> out,
      SideOutput side) {
    store.begin(host);
    start(host, now, lambda0);
    long result;
    try {
      metrics.hostBefore(store.host());
      result = change.apply(engine, engineStore, context, outcome);
      commit(host);
    } catch (RuntimeException failure) {
      rollback();
      throw failure;
    }
    send(lambda0, timers, OutcomeApplier.NO_TIMER, out, side);
    metrics.hostAfter(store.host());
    return result;
  }
}
