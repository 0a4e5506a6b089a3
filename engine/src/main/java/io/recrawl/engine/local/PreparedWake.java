package io.recrawl.engine.local;

import io.recrawl.engine.EngineContext;
import io.recrawl.engine.EngineOutcome;
import io.recrawl.engine.HostEngine;
import io.recrawl.engine.HostState;
import io.recrawl.engine.InMemoryHostStore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One host's wake-up computed ahead of its turn, possibly on another thread: its outcome, which
 * {@link LocalFrontier} applies at the host's turn exactly as if the wake-up ran then.
 *
 * <p>A wake-up reads and writes only its own host's state, the clock and λ_0; both are fixed for
 * the call ({@link #begin}), so computing it early gives the same result as computing it in turn.
 */
final class PreparedWake {

  private static final int IDLE = 0;
  private static final int POSTED = 1;
  private static final int CLAIMED = 2;
  private static final int DONE = 3;

  private final String host;
  private final InMemoryHostStore store;
  private final AtomicInteger state = new AtomicInteger(IDLE);
  private final EngineContext context = new EngineContext();
  private final EngineOutcome outcome = new EngineOutcome();
  private Throwable failure;

  /**
   * The host record's in-flight count and ledger rate after the wake-up (see {@link
   * LocalFrontier}).
   */
  int inFlight;

  double ledgerRate;

  PreparedWake(String host, InMemoryHostStore store) {
    this.host = host;
    this.store = store;
  }

  /** Readies the wake-up at {@code now} under {@code globalLambda}, for either thread to claim. */
  void begin(long now, double globalLambda) {
    context.begin(host, now, globalLambda);
    failure = null;
    state.set(POSTED);
  }

  /** Whether a wake-up was begun and not yet applied. */
  boolean pending() {
    return state.get() != IDLE;
  }

  /** Takes the wake-up to compute; false if the other thread took it first. */
  boolean claim() {
    return state.compareAndSet(POSTED, CLAIMED);
  }

  /** Runs the claimed wake-up with {@code engine} (an engine serves one thread at a time). */
  void compute(HostEngine engine) {
    try {
      engine.onWake(store, context, outcome);
      HostState h = store.host();
      inFlight = h == null ? 0 : h.inFlight;
      ledgerRate = h == null ? 0 : h.ledgerRate;
    } catch (RuntimeException | Error e) {
      failure = e;
    } finally {
      state.set(DONE);
    }
  }

  /** Whether the wake-up has been computed, by either thread. */
  boolean done() {
    return state.get() == DONE;
  }

  /** Throws what the wake-up threw, on whichever thread it ran. */
  void rethrow() {
    if (failure != null) {
      throw new IllegalStateException("a prepared wake-up of host " + host + " failed", failure);
    }
  }

  /** What the computed wake-up decided; valid until {@link #clear}. */
  EngineOutcome outcome() {
    return outcome;
  }

  /** Forgets the applied wake-up. */
  void clear() {
    outcome.clear();
    state.set(IDLE);
  }
}
