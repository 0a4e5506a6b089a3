package io.recrawl.engine.local;

import io.recrawl.engine.DemandLedger;
import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.EngineContext;
import io.recrawl.engine.EngineOutcome;
import io.recrawl.engine.HostEngine;
import io.recrawl.engine.HostState;
import io.recrawl.engine.HostThreshold;
import io.recrawl.engine.InMemoryHostStore;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.StatusEvent;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Many hosts in memory with one timer per host: what the Flink job does with keyed state and
 * event-time timers, for the simulator and for tests. It runs the very same {@link HostEngine}, and
 * applies each call's {@link EngineOutcome} at once: its wake-up to the host's timer, its demand to
 * the ledger, its releases to the caller's consumer.
 */
public final class LocalFrontier {

  private final HostEngine engine;
  private final Map<String, Host> hosts = new HashMap<>();

  /** Hosts with a wake-up, by number, ordered by their wake time. */
  private final TimerHeap timers = new TimerHeap();

  /** Hosts by number. */
  private Host[] byId = new Host[64];

  private int nextId;

  /** Numbers of removed hosts, for reuse. */
  private int[] freeIds = new int[8];

  private int freeCount;
  private final DemandLedger ledger;
  private final EngineContext context = new EngineContext();
  private final EngineOutcome outcome = new EngineOutcome();
  private Consumer<EngineOutcome> observer = o -> {};
  private final Map<String, Double> rateOverrides = new HashMap<>();
  private double globalLambda;
  private long now = Long.MIN_VALUE;

  // Set only within advanceInOneStep: see EngineContext#answeredUntil.
  private long answeredUntil = Long.MAX_VALUE;
  private long advanceEnd = Long.MIN_VALUE;

  /**
   * Computes wake-ups due together on a second thread; null = one thread (see {@link
   * #useWakeWorker}).
   */
  private WakeWorker worker;

  /**
   * The hosts in the map's order, for {@link #inFlightForBudget}; null after a host came or went.
   */
  private Host[] hostOrder;

  /** Scratch for {@link #prepareWakes}: the hosts due, and the heap places still to visit. */
  private Host[] dueHosts = new Host[64];

  private int[] heapStack = new int[64];

  /** A host's state and its number in the timer heap. */
  private static final class Host {
    final String name;
    final int id;
    final InMemoryHostStore store = new InMemoryHostStore();
    long wakeAt = Long.MAX_VALUE;

    /** Its wake-up computed ahead of its turn (see {@link #prepareWakes}); created on first use. */
    PreparedWake prepared;

    // Its record's in-flight count and ledger rate as of its last call, for inFlightForBudget: a
    // pass over every host once per control period then reads only these objects, not each host's
    // record through its store (docs/decisions/simulator-speed.md).
    int inFlight;
    double ledgerRate;

    /** Takes the budget inputs from its record after a call. */
    void noteRecord() {
      HostState s = store.host();
      inFlight = s == null ? 0 : s.inFlight;
      ledgerRate = s == null ? 0 : s.ledgerRate;
    }

    Host(String name, int id) {
      this.name = name;
      this.id = id;
    }
  }

  private Host newHost(String name) {
    int id = freeCount > 0 ? freeIds[--freeCount] : nextId++;
    if (id == byId.length) {
      byId = Arrays.copyOf(byId, id * 2);
    }
    Host h = new Host(name, id);
    byId[id] = h;
    hostOrder = null;
    timers.track(id);
    return h;
  }

  private void dropHost(Host h) {
    hosts.remove(h.name);
    hostOrder = null;
    byId[h.id] = null;
    if (freeCount == freeIds.length) {
      freeIds = Arrays.copyOf(freeIds, freeCount * 2);
    }
    freeIds[freeCount++] = h.id;
  }

  public LocalFrontier(EngineConfig cfg) {
    this.engine = new HostEngine(cfg);
    this.ledger = new DemandLedger(cfg.grid);
  }

  /**
   * Shows every call's outcome to {@code observer} once it is applied, in the order of the calls
   * (for tests and reports: what was released and why, what was counted, what was refused).
   */
  public LocalFrontier observe(Consumer<EngineOutcome> observer) {
    this.observer = observer;
    return this;
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

  /**
   * Computes wake-ups on a second thread when many hosts are due at once, with results identical to
   * one thread's: their outcomes are applied in turn.
   */
  public void useWakeWorker(boolean on) {
    if (on && worker == null) {
      worker = new WakeWorker(engine.config());
    } else if (!on && worker != null) {
      close();
    }
  }

  /** Stops the wake-up worker thread, if any. */
  public void close() {
    if (worker != null) {
      worker.close();
      worker = null;
    }
  }

  /**
   * Fires every wake-up due up to {@code time} as one advance of time in which no status is read,
   * as the Flink operator sees a watermark that jumps after downtime: a URL released within it is
   * not released again within it.
   */
  public void advanceInOneStep(long time, Consumer<CrawlRequest> out) {
    answeredUntil = now;
    advanceEnd = time;
    try {
      advanceTo(time, out);
    } finally {
      answeredUntil = Long.MAX_VALUE;
      advanceEnd = Long.MIN_VALUE;
    }
  }

  /** Fires every wake-up due up to and including {@code time}, in time order. */
  public void advanceTo(long time, Consumer<CrawlRequest> out) {
    if (worker != null && advanceEnd == Long.MIN_VALUE) { // prepared wakes read answers as they go
      prepareWakes(time);
    }
    while (timers.size() > 0 && timers.keyAt(0) <= time) {
      Host h = byId[timers.idAt(0)];
      now = Math.max(now, h.wakeAt);
      setTimer(h, Long.MAX_VALUE);
      if (h.prepared != null && h.prepared.pending()) {
        worker.finish(h.prepared, engine);
        apply(h, h.prepared.outcome(), out);
        h.inFlight = h.prepared.inFlight;
        h.ledgerRate = h.prepared.ledgerRate;
        h.prepared.clear();
      } else {
        engine.onWake(h.store, context(h), outcome);
        apply(h, outcome, out);
        h.noteRecord();
      }
      if (h.store.host() == null) {
        dropHost(h); // its last pages were purged, and its politeness evidence ran out
      }
    }
    now = Math.max(now, time);
  }

  /** Fewest hosts due together worth handing to the worker thread. */
  private static final int MIN_BATCH = 16;

  /**
   * Hands the wake-ups of every host due by {@code time} to the worker thread, when there are
   * enough of them; the loop in {@link #advanceTo} applies each in turn, computing it there if the
   * worker has not taken it yet. Each host's clock is what {@link #advanceTo} will give it
   * (wake-ups fire in time order), and a wake-up touches only its host's state, so computing it
   * early or on another thread gives the same result. A host due again within the same advance
   * wakes again in turn, on this thread.
   */
  private void prepareWakes(long time) {
    int n = 0;
    int top = 0;
    if (timers.size() > 0 && timers.keyAt(0) <= time) {
      heapStack[top++] = 0;
    }
    while (top > 0) { // the heap's entries due by time: a subtree is due only where its root is
      int i = heapStack[--top];
      if (n == dueHosts.length) {
        dueHosts = Arrays.copyOf(dueHosts, n * 2);
      }
      dueHosts[n++] = byId[timers.idAt(i)];
      for (int c = 2 * i + 1; c <= 2 * i + 2 && c < timers.size(); c++) {
        if (timers.keyAt(c) <= time) {
          if (top == heapStack.length) {
            heapStack = Arrays.copyOf(heapStack, top * 2);
          }
          heapStack[top++] = c;
        }
      }
    }
    if (n >= MIN_BATCH) {
      PreparedWake[] wakes = new PreparedWake[n];
      for (int i = 0; i < n; i++) {
        Host h = dueHosts[i];
        if (h.prepared == null) {
          h.prepared = new PreparedWake(h.name, h.store);
        }
        h.prepared.begin(Math.max(now, h.wakeAt), globalLambda);
        wakes[i] = h.prepared;
      }
      worker.post(wakes);
    }
    Arrays.fill(dueHosts, 0, n, null);
  }

  /**
   * Applies one call's outcome, then forgets it: the host's timer moves, the ledger takes its
   * demand, and its releases go out, in that order (the order of a wake-up computed ahead).
   */
  private void apply(Host h, EngineOutcome o, Consumer<CrawlRequest> out) {
    if (o.wakeMoved()) {
      setTimer(h, o.wakeAfter());
    }
    for (int i = 0; i < o.demandChanges(); i++) {
      ledger.replace(o.demandBefore(i), o.demandAfter(i));
    }
    List<CrawlRequest> released = o.releases();
    for (int i = 0; i < released.size(); i++) {
      out.accept(released.get(i));
    }
    observer.accept(o);
    o.clear();
  }

  /** Applies a status event at its own time (after firing the wake-ups before it). */
  public void onStatus(StatusEvent e, Consumer<CrawlRequest> out) {
    advanceTo(e.time(), out);
    Host h = hosts.computeIfAbsent(e.host(), this::newHost);
    boolean fresh = h.store.host() == null;
    engine.onStatus(h.store, e, context(h), outcome);
    apply(h, outcome, out);
    if (fresh && h.store.host() != null && rateOverrides.containsKey(e.host())) {
      engine.onHostRate(h.store, rateOverrides.get(e.host()), context(h), outcome);
      apply(h, outcome, out);
    }
    h.noteRecord();
    if (h.store.host() == null) {
      setTimer(h, Long.MAX_VALUE);
      dropHost(h);
    }
  }

  /**
   * Plans a waiting page of {@code host} to go at {@code due} whatever its crawl value, as {@code
   * bin/recrawl import} plans a page at its next fetch date (see {@link HostEngine#planAt}).
   */
  public void planAt(String host, String url, long due, Consumer<CrawlRequest> out) {
    Host h = hosts.get(host);
    if (h == null) {
      throw new IllegalArgumentException("no such host: " + host);
    }
    engine.planAt(h.store, url, due, context(h), outcome);
    apply(h, outcome, out);
    h.noteRecord();
  }

  /** Removes pages of {@code host} (see {@link HostEngine#removePages}); returns how many. */
  public int removePages(String host, Iterable<String> urls, Consumer<CrawlRequest> out) {
    Host h = hosts.get(host);
    if (h == null) {
      return 0;
    }
    int removed = engine.removePages(h.store, urls, context(h), outcome);
    apply(h, outcome, out);
    h.noteRecord();
    if (h.store.host() == null) {
      setTimer(h, Long.MAX_VALUE);
      dropHost(h);
    }
    return removed;
  }

  /** Blocks {@code host} until {@code until} (see {@link HostEngine#blockUntil}). */
  public void blockUntil(String host, long until, Consumer<CrawlRequest> out) {
    Host h = hosts.get(host);
    if (h != null) {
      engine.blockUntil(h.store, until, context(h), outcome);
      apply(h, outcome, out);
      h.noteRecord();
    }
  }

  /** Overrides a host's rate limit, crawls per day (0 or less removes the override). */
  public void setHostRate(String host, double maxRate, Consumer<CrawlRequest> out) {
    if (maxRate > 0
        && rateOverrides.size() >= engine.config().maxHostRates
        && !rateOverrides.containsKey(host)) {
      outcome.refuse(EngineOutcome.RATE_TABLE_FULL, engine.config().hostRatesFullDetail());
      observer.accept(outcome);
      outcome.clear();
      return;
    }
    if (maxRate > 0) {
      rateOverrides.put(host, maxRate);
    } else {
      rateOverrides.remove(host);
    }
    Host h = hosts.get(host);
    if (h != null) {
      engine.onHostRate(h.store, maxRate, context(h), outcome);
      apply(h, outcome, out);
      h.noteRecord();
    }
  }

  /** The state of one host, or null. */
  public InMemoryHostStore store(String host) {
    Host h = hosts.get(host);
    return h == null ? null : h.store;
  }

  /**
   * URLs released and not yet answered (no status, lease not run out) that wait for the global
   * budget: each host counts at most what its own rate limit lets the crawler fetch in {@code
   * windowDays}. A limited host's URLs beyond that wait for the host, not the budget (a host at its
   * limit gathers up to its in-flight cap, whatever the price), so they are no backlog the price
   * can drain. A pass over the hosts, once per control period.
   */
  public double inFlightForBudget(double windowDays) {
    if (hostOrder == null) {
      hostOrder = hosts.values().toArray(new Host[0]);
    }
    double n = 0;
    for (Host h : hostOrder) {
      n += HostThreshold.inFlightForBudget(h.inFlight, h.ledgerRate, windowDays);
    }
    return n;
  }

  public int hostCount() {
    return hosts.size();
  }

  /** Hosts with a pending wake-up (one timer each). */
  public int timerCount() {
    return timers.size();
  }

  /** Moves the host's single timer to {@code time} (Long.MAX_VALUE = none). */
  private void setTimer(Host h, long time) {
    h.wakeAt = time;
    timers.set(h.id, time);
  }

  private EngineContext context(Host host) {
    context.begin(host.name, now, globalLambda);
    if (advanceEnd != Long.MIN_VALUE) {
      context.advancing(answeredUntil, advanceEnd);
    }
    return context;
  }
}
