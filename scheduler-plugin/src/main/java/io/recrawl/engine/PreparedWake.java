package io.recrawl.engine;

import io.recrawl.wire.CrawlRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One host's wake-up computed ahead of its turn, possibly on another thread: the requests it
 * released, the wake-ups it asked for and the demand it replaced, kept in order so that
 * {@link LocalFrontier} can apply them at the host's turn exactly as if the wake-up ran then.
 *
 * <p>A wake-up reads and writes only its own host's state, the clock and λ_0; both are fixed for
 * the call ({@link #begin}), so computing it early gives the same result as computing it in turn.
 */
final class PreparedWake implements HostEngine.Context {

  private final String host;
  private final InMemoryHostStore store;
  private long now;
  private double globalLambda;
  private boolean pending;
  private final List<CrawlRequest> released = new ArrayList<>(2);
  private long[] wakes = new long[2];
  private int wakeCount;
  private final List<double[]> demand = new ArrayList<>(2);

  PreparedWake(String host, InMemoryHostStore store) {
    this.host = host;
    this.store = store;
  }

  /** Readies the wake-up at {@code now} under {@code globalLambda}; {@link #compute} then runs it. */
  void begin(long now, double globalLambda) {
    this.now = now;
    this.globalLambda = globalLambda;
    pending = true;
  }

  /** Runs the host's wake-up with {@code engine} (an engine serves one thread at a time). */
  void compute(HostEngine engine) {
    engine.onWake(store, this);
  }

  /** Whether a computed wake-up waits to be applied. */
  boolean pending() {
    return pending;
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
    pending = false;
    released.clear();
    demand.clear();
    wakeCount = 0;
  }

  @Override
  public String host() {
    return host;
  }

  @Override
  public long now() {
    return now;
  }

  @Override
  public double globalLambda() {
    return globalLambda;
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

  /** Not available ahead of turn: the ledger is shared; replacements are recorded instead. */
  @Override
  public DemandLedger ledger() {
    throw new UnsupportedOperationException("a prepared wake-up records its demand");
  }

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
