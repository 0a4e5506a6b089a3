package io.recrawl.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * A second thread that computes prepared wake-ups while the thread that posted them applies them in
 * turn. The worker takes them from the end of the batch, the poster from the front as their turns
 * come; each is computed once, by whichever thread claims it first (see {@link PreparedWake}).
 */
final class WakeWorker implements AutoCloseable {

  /** Idle polls before the worker parks: batches come every few milliseconds at most. */
  private static final int SPINS = 2_000;

  private final HostEngine engine;
  private final Thread thread;
  private volatile PreparedWake[] posted;
  private volatile boolean closed;

  /** @param config the worker's own engine is built from it: an engine keeps per-call scratch */
  WakeWorker(EngineConfig config) {
    this.engine = new HostEngine(config);
    this.thread = new Thread(this::loop, "recrawl-wake-worker");
    thread.setDaemon(true);
    thread.start();
  }

  /** Hands over a batch of wake-ups, each already begun; the array is the worker's from now on. */
  void post(PreparedWake[] wakes) {
    posted = wakes;
    LockSupport.unpark(thread);
  }

  private void loop() {
    PreparedWake[] done = null;
    int idle = 0;
    while (!closed) {
      PreparedWake[] b = posted;
      if (b != done) {
        for (int i = b.length - 1; i >= 0; i--) {
          if (b[i].claim()) {
            b[i].compute(engine);
          }
        }
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
