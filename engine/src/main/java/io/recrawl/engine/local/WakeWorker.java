package io.recrawl.engine.local;

import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.HostEngine;
import java.util.concurrent.locks.LockSupport;

/**
 * A second thread that computes prepared wake-ups while the thread that posted them applies them in
 * turn. The worker takes them from the end of the batch; the poster computes each at its turn if
 * the worker has not taken it. Each is computed once, by whichever thread claims it first (see
 * {@link PreparedWake}).
 */
final class WakeWorker implements AutoCloseable {

  /** Polls before a waiting thread gives way: the idle worker parks, the waiting poster yields. */
  private static final int SPINS = 2_000;

  private final HostEngine engine;
  private final Thread thread;
  private volatile PreparedWake[] posted;
  private volatile boolean closed;

  /** The poster's place in the batch: it takes unclaimed wake-ups from the front while it waits. */
  private int front;

  /**
   * @param config the worker's own engine is built from it: an engine keeps per-call scratch
   */
  WakeWorker(EngineConfig config) {
    this.engine = new HostEngine(config);
    this.thread = new Thread(this::loop, "recrawl-wake-worker");
    thread.setDaemon(true);
    thread.start();
  }

  /** Hands over a batch of wake-ups, each already begun; the array is the worker's from now on. */
  void post(PreparedWake[] wakes) {
    posted = wakes;
    front = 0;
    LockSupport.unpark(thread);
  }

  /**
   * Returns once {@code w} (of the last batch posted) is computed: here, if the worker has not
   * claimed it; else after the worker finishes it, computing the batch's unclaimed wake-ups from
   * the front meanwhile, so that a worker descheduled in the middle of one does not idle this
   * thread.
   */
  void finish(PreparedWake w, HostEngine callerEngine) {
    if (w.claim()) {
      w.compute(callerEngine);
    }
    PreparedWake[] b = posted;
    for (int spins = 0; !w.done(); ) {
      if (front < b.length) {
        PreparedWake next = b[front++];
        if (next.claim()) {
          next.compute(callerEngine);
        }
      } else if (spins++ < SPINS) {
        Thread.onSpinWait();
      } else {
        Thread.yield();
      }
    }
    w.rethrow();
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
