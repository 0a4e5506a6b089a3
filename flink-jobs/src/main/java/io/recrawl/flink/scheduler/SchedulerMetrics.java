package io.recrawl.flink.scheduler;

import io.recrawl.engine.EngineOutcome;
import io.recrawl.engine.HostState;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlStatus;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * The scheduler's metrics, in the {@code recrawl} metric group of each subtask; each committed
 * engine call is counted from its {@link EngineOutcome}. Counts of URLs, hosts and backlog are per
 * subtask and are rebuilt from state after a restore (see {@link HostSchedulerFunction}).
 */
final class SchedulerMetrics {

  /** The kinds of block, once: {@code values()} copies its array at every call. */
  private static final EngineOutcome.Block[] BLOCKS = EngineOutcome.Block.values();

  /** Histograms keep this many recent samples. */
  private static final int WINDOW = 1024;

  private final MetricGroup group;
  private final MetricGroup deadLetterGroup;
  private final Map<String, Counter> deadLetters = new HashMap<>();
  final Counter eventsIn;
  private final Map<CrawlStatus, Counter> eventsInByStatus = new EnumMap<>(CrawlStatus.class);
  final Counter requestsOut;
  final Counter leaseExpiries;
  final Counter hostsParked;
  private final MetricGroup blockedGroup;
  private final Map<String, Counter> hostsBlocked = new HashMap<>();
  final Counter duplicateDiscovered;
  final Counter staleStatuses;
  final Counter pagesRemoved;
  final Counter metadataCut;
  final Counter staleLambdas;

  /** Hosts moved aside: their state could not be read or their wake-up threw. */
  final Counter hostsQuarantined;

  final Histogram hostLambdaMicros;
  final Histogram releaseLagMs;

  // Written by the task thread only; read by the metric reporter thread (hence volatile).
  volatile long urls;
  volatile long hosts;
  volatile long dueBacklog;
  volatile double globalLambda;
  volatile double inFlightForBudget;

  /** Entries of the broadcast host-rate table. */
  volatile int hostRateOverrides;

  long releasedSinceReport;
  long statusesSinceReport;

  SchedulerMetrics(MetricGroup parent) {
    group = parent.addGroup("recrawl");
    deadLetterGroup = group.addGroup("deadLetters");
    eventsIn = group.counter("eventsIn");
    // One counter per status, all made up front so that each series exists (at 0) from the start:
    // recrawl.status.<STATUS>.eventsIn, the status a metric variable (a Prometheus label), as the
    // dead letters' reason.
    for (CrawlStatus s : CrawlStatus.values()) {
      eventsInByStatus.put(s, group.addGroup("status", s.name()).counter("eventsIn"));
    }
    requestsOut = group.counter("requestsOut");
    leaseExpiries = group.counter("leaseExpiries");
    hostsParked = group.counter("hostsParked");
    blockedGroup = group.addGroup("hostsBlocked");
    duplicateDiscovered = group.counter("duplicateDiscovered");
    staleStatuses = group.counter("staleStatuses");
    pagesRemoved = group.counter("pagesRemoved");
    metadataCut = group.counter("metadataCut");
    staleLambdas = group.counter("staleGlobalLambdas");
    hostsQuarantined = group.counter("hostsQuarantined");
    group.gauge("urls", () -> urls);
    group.gauge("hosts", () -> hosts);
    group.gauge("dueBacklog", () -> dueBacklog);
    group.gauge("globalLambda", () -> globalLambda);
    group.gauge("inFlightForBudget", () -> inFlightForBudget);
    group.gauge("hostRateOverrides", () -> hostRateOverrides);
    hostLambdaMicros =
        group.histogram("hostLambdaMicros", new DescriptiveStatisticsHistogram(WINDOW));
    releaseLagMs = group.histogram("releaseLagMs", new DescriptiveStatisticsHistogram(WINDOW));
  }

  /** Reports the host record cache's bytes and how often it was full. */
  void watch(HostRecordCache cache) {
    group.gauge("hostCacheBytes", cache::bytes);
    group.gauge("hostCacheDrops", cache::drops);
  }

  /** Counts a status event in, in all and under its status (if it has one: a bad one may not). */
  void eventIn(CrawlStatus status) {
    eventsIn.inc();
    if (status != null) {
      eventsInByStatus.get(status).inc();
    }
  }

  /** The events in with one status; for tests. */
  long eventsIn(CrawlStatus status) {
    return eventsInByStatus.get(status).getCount();
  }

  /** Counts a dead letter under its reason (one counter per reason, created on first use). */
  void deadLetter(String reason) {
    deadLetters
        .computeIfAbsent(reason, r -> deadLetterGroup.counter(r.replaceAll("[^A-Za-z0-9_]", "_")))
        .inc();
  }

  /** The dead-letter count of one reason; for tests. */
  long deadLetterCount(String reason) {
    Counter c = deadLetters.get(reason);
    return c == null ? 0 : c.getCount();
  }

  // The host's share of dueBacklog and inFlightForBudget before the call in progress.
  private long backlogBefore;
  private double inFlightBefore;

  /** Notes the host's share of the backlog gauges before a call. */
  void hostBefore(HostState h) {
    backlogBefore = h == null ? 0 : h.ready.size();
    inFlightBefore = SubtaskDemand.inFlightForBudget(h);
  }

  /** Moves the backlog gauges by the host's change since {@link #hostBefore}. */
  void hostAfter(HostState h) {
    dueBacklog += (h == null ? 0 : h.ready.size()) - backlogBefore;
    inFlightForBudget += SubtaskDemand.inFlightForBudget(h) - inFlightBefore;
  }

  /** Counts what a committed engine call did. */
  void count(EngineOutcome o) {
    List<CrawlRequest> requests = o.releases();
    for (int i = 0; i < requests.size(); i++) {
      CrawlRequest r = requests.get(i);
      requestsOut.inc();
      releasedSinceReport++;
      releaseLagMs.update(Math.max(0, r.time() - r.due()));
    }
    for (EngineOutcome.Block b : BLOCKS) {
      int n = o.blocks(b);
      if (n > 0) {
        hostsBlocked.computeIfAbsent(b.label(), r -> blockedGroup.counter("reason_" + r)).inc(n);
      }
    }
    leaseExpiries.inc(o.leaseExpiries());
    hostsParked.inc(o.parked());
    duplicateDiscovered.inc(o.duplicates());
    staleStatuses.inc(o.staleStatuses());
    pagesRemoved.inc(o.pagesRemoved());
    metadataCut.inc(o.metadataCut());
    urls += o.pagesDelta();
    hosts += o.hostsDelta();
  }

  /** The blocks counted under one reason (429, 503, outage); for tests. */
  long hostsBlocked(String reason) {
    Counter c = hostsBlocked.get(reason);
    return c == null ? 0 : c.getCount();
  }
}
