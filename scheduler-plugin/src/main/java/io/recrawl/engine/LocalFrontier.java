package io.recrawl.engine;

import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.StatusEvent;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Many hosts in memory with one timer per host: what the Flink job does with keyed state and
 * event-time timers, for the simulator and for tests. It runs the very same {@link HostEngine}.
 */
public final class LocalFrontier {

  private final HostEngine engine;
  private final Map<String, Host> hosts = new HashMap<>();
  /** Hosts with a wake-up, as a binary min-heap on their wake time: one entry per host. */
  private Host[] timers = new Host[64];
  /**
   * The wake time of each heap entry, beside it: sifting compares these without reading the hosts,
   * which are scattered over the heap (a cache miss each with thousands of hosts).
   */
  private long[] timerKeys = new long[64];
  private int timerCount;
  private final DemandLedger ledger;
  private final EngineListener listener;
  private final Map<String, Double> rateOverrides = new HashMap<>();
  private double globalLambda;
  private long now = Long.MIN_VALUE;

  /** A host's state and its place in the timer heap. */
  private static final class Host {
    final String name;
    final InMemoryHostStore store = new InMemoryHostStore();
    long wakeAt = Long.MAX_VALUE;
    int heapIndex = -1;

    Host(String name) {
      this.name = name;
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
    while (timerCount > 0 && timerKeys[0] <= time) {
      Host h = timers[0];
      now = Math.max(now, h.wakeAt);
      setTimer(h, Long.MAX_VALUE);
      engine.onWake(h.store, context(h, out));
    }
    now = Math.max(now, time);
  }

  /** Applies a status event at its own time (after firing the wake-ups before it). */
  public void onStatus(StatusEvent e, Consumer<CrawlRequest> out) {
    advanceTo(e.time(), out);
    Host h = hosts.computeIfAbsent(e.host(), Host::new);
    boolean fresh = h.store.host() == null;
    engine.onStatus(h.store, e, context(h, out));
    if (fresh && h.store.host() != null && rateOverrides.containsKey(e.host())) {
      engine.onHostRate(h.store, rateOverrides.get(e.host()), context(h, out));
    }
    if (h.store.host() == null) {
      setTimer(h, Long.MAX_VALUE);
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
    Host h = hosts.get(host);
    if (h != null) {
      engine.onHostRate(h.store, maxRate, context(h, out));
    }
  }

  /** The state of one host, or null. */
  public InMemoryHostStore store(String host) {
    Host h = hosts.get(host);
    return h == null ? null : h.store;
  }

  public int hostCount() {
    return hosts.size();
  }

  /** Hosts with a pending wake-up (one timer each). */
  public int timerCount() {
    return timerCount;
  }

  /** Moves the host's single timer to {@code time} (Long.MAX_VALUE = none). */
  private void setTimer(Host h, long time) {
    h.wakeAt = time;
    if (h.heapIndex < 0) {
      if (time == Long.MAX_VALUE) {
        return;
      }
      if (timerCount == timers.length) {
        timers = Arrays.copyOf(timers, timerCount * 2);
        timerKeys = Arrays.copyOf(timerKeys, timerCount * 2);
      }
      h.heapIndex = timerCount;
      timers[timerCount++] = h;
      up(h.heapIndex);
    } else if (time == Long.MAX_VALUE) {
      int i = h.heapIndex;
      Host last = timers[--timerCount];
      timers[timerCount] = null;
      h.heapIndex = -1;
      if (last != h) {
        place(last, i);
        down(up(i));
      }
    } else {
      down(up(h.heapIndex));
    }
  }

  private int up(int i) {
    Host h = timers[i];
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (timerKeys[parent] <= h.wakeAt) {
        break;
      }
      place(timers[parent], i);
      i = parent;
    }
    place(h, i);
    return i;
  }

  private void down(int i) {
    Host h = timers[i];
    while (true) {
      int child = 2 * i + 1;
      if (child >= timerCount) {
        break;
      }
      if (child + 1 < timerCount && timerKeys[child + 1] < timerKeys[child]) {
        child++;
      }
      if (timerKeys[child] >= h.wakeAt) {
        break;
      }
      place(timers[child], i);
      i = child;
    }
    place(h, i);
  }

  private void place(Host h, int i) {
    timers[i] = h;
    timerKeys[i] = h.wakeAt;
    h.heapIndex = i;
  }

  private HostEngine.Context context(Host host, Consumer<CrawlRequest> out) {
    return new HostEngine.Context() {
      @Override
      public String host() {
        return host.name;
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
        setTimer(host, next);
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
