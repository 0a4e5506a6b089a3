package io.recrawl.engine;

import io.recrawl.wire.CrawlRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One host's wake-up computed ahead of its turn, possibly on another thread: the requests it
 * released, the wake-ups it asked for and the demand it replaced, kept in order so that {@link
 * LocalFrontier} can apply them at the host's turn exactly as if the wake-up ran then.
 *
 * <p>A wake-up reads and writes only its own host's state, the clock and λ_0; both are fixed for
 * the call ({@link #begin}), so computing it early gives the same result as computing it in turn.
 */
final class PreparedWake extends HostCall {

  private static final int IDLE = 0;
  private static final int POSTED = 1;
  private static final int CLAIMED = 2;
  private static final int DONE = 3;

  private final InMemoryHostStore store;
  private final AtomicInteger state = new AtomicInteger(IDLE);
  private Throwable failure;
  private final List<CrawlRequest> released = new ArrayList<>(2);
  private long[] wakes = new long[2];
  private int wakeCount;
  private final List<double[]> demand = new ArrayList<>(2);

  /**
   * The host record's in-flight count and ledger rate after the wake-up (see {@link
   * LocalFrontier}).
   */
  int inFlight;

  double ledgerRate;

  PreparedWake(String host, InMemoryHostStore store) {
    this.store = store;
    begin(host, 0, 0);
  }

  /** Readies the wake-up at {@code now} under {@code globalLambda}, for either thread to claim. */
  void begin(long now, double globalLambda) {
    begin(host(), now, globalLambda);
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
      engine.onWake(store, this);
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
      throw new IllegalStateException("a prepared wake-up of host " + host() + " failed", failure);
    }
  }

  /** The wake-ups asked for, in order; valid until {@link #clear}. */
  int wakeCount() {
    return wakeCount;
  }

  long wake(int i) {
    return wakes[i];
  }

  /** Demand replacements as (before, after) pairs, in order. */
  List<double[]> demand() {
    return demand;
  }

  List<CrawlRequest> released() {
    return released;
  }

  /** Forgets the applied wake-up. */
  void clear() {
    released.clear();
    demand.clear();
    wakeCount = 0;
    state.set(IDLE);
  }

  @Override
  public void release(CrawlRequest request) {
    released.add(request);
  }

  @Override
  public void reschedule(long previous, long next) {
    if (wakeCount == wakes.length) {
      wakes = Arrays.copyOf(wakes, wakeCount * 2);
    }
    wakes[wakeCount++] = next;
  }

  /** The ledger is shared: ahead of its turn a wake-up records its replacements instead. */
  @Override
  public void replaceDemand(double[] before, double[] after) {
    demand.add(before);
    demand.add(after);
  }

  @Override
  public EngineListener listener() {
    return EngineListener.NONE;
  }
}
