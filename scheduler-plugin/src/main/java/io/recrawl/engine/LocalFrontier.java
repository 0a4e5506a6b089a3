package io.recrawl.engine;

import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.StatusEvent;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * Many hosts in memory with one timer per host: what the Flink job does with keyed state and
 * event-time timers, for the simulator and for tests. It runs the very same {@link HostEngine}.
 */
public final class LocalFrontier {

  private final HostEngine engine;
  private final Map<String, InMemoryHostStore> hosts = new HashMap<>();
  private final PriorityQueue<Timer> timers = new PriorityQueue<>();
  private final DemandLedger ledger;
  private final EngineListener listener;
  private final Map<String, Double> rateOverrides = new HashMap<>();
  private double globalLambda;
  private long now = Long.MIN_VALUE;

  private record Timer(long time, String host) implements Comparable<Timer> {
    @Override
    public int compareTo(Timer o) {
      return Long.compare(time, o.time);
    }
  }

  public LocalFrontier(EngineConfig cfg, EngineListener listener) {
    this.engine = new HostEngine(cfg);
    this.ledger = new DemandLedger(cfg.grid);
    this.listener = listener;
  }

  public HostEngine engine() {
    return engine;
  }

  public DemandLedger ledger() {
    return ledger;
  }

  public double globalLambda() {
    return globalLambda;
  }

  public void setGlobalLambda(double lambda) {
    this.globalLambda = lambda;
  }

  /** The current event time: the latest time passed to {@link #advanceTo} or of an event. */
  public long now() {
    return now;
  }

  /** Fires every wake-up due up to and including {@code time}, in time order. */
  public void advanceTo(long time, Consumer<CrawlRequest> out) {
    while (!timers.isEmpty() && timers.peek().time() <= time) {
      Timer t = timers.poll();
      InMemoryHostStore store = hosts.get(t.host());
      if (store == null || store.host() == null || store.host().wakeAt != t.time()) {
        continue; // superseded by a later reschedule
      }
      now = Math.max(now, t.time());
      engine.onWake(store, context(t.host(), out));
    }
    now = Math.max(now, time);
  }

  /** Applies a status event at its own time (after firing the wake-ups before it). */
  public void onStatus(StatusEvent e, Consumer<CrawlRequest> out) {
    advanceTo(e.time(), out);
    InMemoryHostStore store = hosts.computeIfAbsent(e.host(), h -> new InMemoryHostStore());
    boolean fresh = store.host() == null;
    engine.onStatus(store, e, context(e.host(), out));
    if (fresh && store.host() != null && rateOverrides.containsKey(e.host())) {
      engine.onHostRate(store, rateOverrides.get(e.host()), context(e.host(), out));
    }
    if (store.host() == null) {
      hosts.remove(e.host());
    }
  }

  /** Overrides a host's rate limit, crawls per day (0 or less removes the override). */
  public void setHostRate(String host, double maxRate, Consumer<CrawlRequest> out) {
    if (maxRate > 0) {
      rateOverrides.put(host, maxRate);
    } else {
      rateOverrides.remove(host);
    }
    InMemoryHostStore store = hosts.get(host);
    if (store != null) {
      engine.onHostRate(store, maxRate, context(host, out));
    }
  }

  /** The state of one host, or null. */
  public InMemoryHostStore store(String host) {
    return hosts.get(host);
  }

  public int hostCount() {
    return hosts.size();
  }

  /** Timers queued, superseded ones included. */
  public int timerCount() {
    return timers.size();
  }

  private HostEngine.Context context(String host, Consumer<CrawlRequest> out) {
    return new HostEngine.Context() {
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
        out.accept(request);
      }

      @Override
      public void reschedule(long previous, long next) {
        if (next != Long.MAX_VALUE) {
          timers.add(new Timer(next, host));
        }
      }

      @Override
      public DemandLedger ledger() {
        return ledger;
      }

      @Override
      public EngineListener listener() {
        return listener;
      }
    };
  }
}
