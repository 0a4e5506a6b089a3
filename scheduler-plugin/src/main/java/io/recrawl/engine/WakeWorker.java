package io.recrawl.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A second thread that computes prepared wake-ups alongside the thread that hands them over: both
 * take the next one until none is left. Which thread computes which wake-up does not matter (see
 * {@link PreparedWake}); the caller applies them afterwards in its own order.
 */
final class WakeWorker implements AutoCloseable {

  /** Idle polls before the worker parks: a batch comes every few milliseconds at most. */
  private static final int SPINS = 2_000;

  /** One hand-over: the wake-ups, the next one to take and how many are not done yet. */
  private record Batch(PreparedWake[] wakes, int count, AtomicInteger next, AtomicInteger remaining) {}

  private final HostEngine engine;
  private final Thread thread;
  private volatile Batch posted;
  private volatile boolean closed;
  private volatile Throwable failure;

  /** @param config the worker's own engine is built from it: an engine keeps per-call scratch */
  WakeWorker(EngineConfig config) {
    this.engine = new HostEngine(config);
    this.thread = new Thread(this::loop, "recrawl-wake-worker");
    thread.setDaemon(true);
    thread.start();
  }

  /** Computes {@code wakes[0..count)}, sharing them with the worker; returns when all are done. */
  void computeAll(PreparedWake[] wakes, int count, HostEngine callerEngine) {
    Batch b = new Batch(wakes, count, new AtomicInteger(), new AtomicInteger(count));
    posted = b;
    LockSupport.unpark(thread);
    work(b, callerEngine);
    for (int spins = 0; b.remaining.get() > 0; spins++) { // the worker is finishing the one it took
      if (spins < SPINS) {
        Thread.onSpinWait();
      } else {
        Thread.yield();
      }
    }
    Throwable t = failure;
    if (t != null) {
      failure = null;
      throw new IllegalStateException("a wake-up failed on the worker thread", t);
    }
  }

  private void work(Batch b, HostEngine engine) {
    for (int i = b.next.getAndIncrement(); i < b.count; i = b.next.getAndIncrement()) {
      try {
        b.wakes[i].compute(engine);
      } catch (RuntimeException | Error e) {
        failure = e;
      } finally {
        b.remaining.decrementAndGet();
      }
    }
  }

  private void loop() {
    Batch done = null;
    int idle = 0;
    while (!closed) {
      Batch b = posted;
      if (b != done) {
        work(b, engine);
        done = b;
        idle = 0;
      } else if (++idle < SPINS) {
        Thread.onSpinWait();
      } else {
        LockSupport.park(this);
      }
    }
  }

  /** Stops the thread. */
  @Override
  public void close() {
    closed = true;
    LockSupport.unpark(thread);
  }
}
