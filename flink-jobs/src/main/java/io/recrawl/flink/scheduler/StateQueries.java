package io.recrawl.flink.scheduler;

import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.QueryAnswer;
import io.recrawl.wire.QueryCodec;
import io.recrawl.wire.StateQuery;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.util.Collector;

/**
 * Answers a front end's {@link StateQuery}s (the URL Frontier service's) from this subtask's keyed
 * state. A query waits until the status input has been read past its time, so that every status
 * sent before it has been applied: until event time is within the status source's out-of-orderness
 * of it (a watermark that far behind the query means every partition has delivered a later status,
 * or is idle). Then the subtask that owns the host answers a query of one host, and every subtask
 * answers a query of all hosts for its own. Changes (deletions, blocks) run as engine calls like
 * any status event's.
 *
 * <p>A query of all hosts is a walk over the subtask's hosts in slices of about {@value
 * #SLICE_PAGES} pages, one slice per call of the task thread, so that statuses, wake-ups and
 * checkpoint barriers go on between slices however large the state. A walk still sees every host as
 * it was when the query was answered: a host that a status, a wake-up or a query of its own reaches
 * before the walk's slice does is visited first. A walk that asks what one in progress asks (a
 * client that asks again after its deadline) is answered with it rather than walked again. Waiting
 * queries and walks live in memory only: after a restart the asker times out and asks again.
 */
final class StateQueries {

  private final HostSchedulerFunction scheduler;
  private final KeyedStateBackend<String> keys;
  private final SideOutput side;
  private final QueryVisit visits;
  private final int subtask;
  private final int parallelism;
  private final int maxParallelism;
  private final long statusLateness;
  private final Runnable later;
  private final List<StateQuery> waiting = new ArrayList<>();
  private final ArrayDeque<Walk> walks = new ArrayDeque<>();

  /** About the most pages one slice of a walk reads; a host is never split. */
  static final int SLICE_PAGES = 5_000;

  /** The most queries that wait for event time; beyond, a query is answered with an error. */
  static final int MAX_WAITING = 10_000;

  /**
   * @param requests where the requests of a change go (a change releases none today: the host's
   *     wake-up does)
   * @param side where answers go ({@link SchedulerOutputs#ANSWERS})
   * @param statusLateness how far event time lags behind the statuses read, ms
   * @param later has {@link #slice} called once on the task thread, after the input waiting
   */
  StateQueries(
      HostSchedulerFunction scheduler,
      KeyedStateBackend<String> keys,
      TimerService timers,
      Collector<CrawlRequest> requests,
      SideOutput side,
      int subtask,
      int parallelism,
      int maxParallelism,
      long statusLateness,
      Runnable later) {
    this.scheduler = scheduler;
    this.keys = keys;
    this.side = side;
    this.visits = new QueryVisit(scheduler, keys, timers, requests, side);
    this.subtask = subtask;
    this.parallelism = parallelism;
    this.maxParallelism = maxParallelism;
    this.statusLateness = statusLateness;
    this.later = later;
  }

  /**
   * A query arrived; it is answered at once if the statuses have been read past it. While {@link
   * #MAX_WAITING} wait (event time stands still), a new one is answered with an error instead.
   */
  void add(StateQuery q, long watermark, double lambda0) {
    if (waiting.size() >= MAX_WAITING && !due(q, watermark)) {
      if (mine(q)) {
        side.output(
            SchedulerOutputs.ANSWERS,
            QueryCodec.toJson(
                failed(q, watermark, MAX_WAITING + " queries wait for event time to pass them")));
      }
      return;
    }
    waiting.add(q);
    answerUpTo(watermark, lambda0);
  }

  /** Whether this subtask answers {@code q}: it owns its host, or the query is of every host. */
  private boolean mine(StateQuery q) {
    return q.host() == null
        || KeyGroupRangeAssignment.assignKeyToParallelOperator(
                q.host(), maxParallelism, parallelism)
            == subtask;
  }

  private QueryAnswer failed(StateQuery q, long now, String why) {
    boolean all = q.host() == null;
    return new QueryAnswer(
        q.id(), all ? subtask : 0, all ? parallelism : 1, now, 0, 0, 0, null, null, false, why);
  }

  /** Whether queries wait for event time. */
  boolean waiting() {
    return !waiting.isEmpty();
  }

  /** Whether walks over every host are in progress. */
  boolean walking() {
    return !walks.isEmpty();
  }

  /** Whether every status sent before {@code q} has been read at event time {@code watermark}. */
  private boolean due(StateQuery q, long watermark) {
    return q.time() - statusLateness <= watermark;
  }

  /** Answers, in arrival order, every waiting query whose statuses have all been read. */
  void answerUpTo(long watermark, double lambda0) {
    for (Iterator<StateQuery> it = waiting.iterator(); it.hasNext(); ) {
      StateQuery q = it.next();
      if (due(q, watermark)) {
        it.remove();
        answer(q, watermark, lambda0);
      }
    }
  }

  private void answer(StateQuery q, long watermark, double lambda0) {
    long now = Math.max(q.time(), watermark);
    if (!mine(q)) {
      return; // its owner answers
    }
    if (q.host() == null) {
      walk(q, now, watermark, lambda0);
      return;
    }
    beforeHost(q.host());
    QueryTally t = new QueryTally(q, subtask, 1, now);
    QueryAnswer answer;
    try {
      visits.visitOrQuarantine(q.host(), q, t, now, watermark, lambda0);
      answer = t.answer(scheduler.latestRelease());
    } catch (RuntimeException failure) {
      answer = failed(q, now, failure.toString());
    }
    side.output(SchedulerOutputs.ANSWERS, QueryCodec.toJson(answer));
  }

  /**
   * Starts a walk over every host for {@code q}, or joins the one in progress that asks the same.
   */
  private void walk(StateQuery q, long now, long watermark, double lambda0) {
    for (Walk w : walks) {
      if (w.asks(q)) {
        w.askers.add(q);
        return;
      }
    }
    List<String> hosts;
    try {
      scheduler.flushHostRecords(); // the key walk reads RocksDB
      try (Stream<String> all =
          keys.getKeys(SchedulerState.hostDescriptor().getName(), VoidNamespace.INSTANCE)) {
        hosts = all.collect(Collectors.toList());
      }
    } catch (RuntimeException failure) {
      side.output(SchedulerOutputs.ANSWERS, QueryCodec.toJson(failed(q, now, failure.toString())));
      return;
    }
    walks.add(new Walk(q, hosts, now, watermark, lambda0));
    if (walks.size() == 1) {
      later.run();
    }
  }

  /**
   * One slice of the oldest walk: hosts until about {@value #SLICE_PAGES} pages were read, its
   * answer once it is done; then the next slice is asked for, if a walk remains.
   */
  void slice() {
    Walk w = walks.peekFirst();
    if (w == null) {
      return;
    }
    long read = 0;
    while (read < SLICE_PAGES && !w.done()) {
      read += w.visitNext();
    }
    if (w.done()) {
      walks.removeFirst();
      w.answer();
    }
    if (!walks.isEmpty()) {
      later.run();
    }
  }

  /**
   * Before a status, a wake-up or a query of {@code host}: every walk in progress that has not
   * visited it yet does so now, so that it sees the host as it was when it began.
   */
  void beforeHost(String host) {
    if (walks.isEmpty()) {
      return;
    }
    boolean ended = false;
    for (Walk w : walks) {
      w.visit(host);
      ended |= w.done();
    }
    if (ended) {
      for (Iterator<Walk> it = walks.iterator(); it.hasNext(); ) {
        Walk w = it.next();
        if (w.done()) {
          it.remove();
          w.answer();
        }
      }
    }
  }

  /** A query of every host in progress: the hosts it has still to visit, and its tally. */
  private final class Walk {
    final StateQuery q;
    final List<StateQuery> askers = new ArrayList<>();
    final QueryTally t;
    final long now;
    final long watermark;
    final double lambda0;
    final Iterator<String> order;
    final java.util.Set<String> remaining;
    final boolean byCursor;
    RuntimeException failure;
    boolean enough;

    Walk(StateQuery q, List<String> hosts, long now, long watermark, double lambda0) {
      this.q = q;
      this.askers.add(q);
      this.t = new QueryTally(q, subtask, parallelism, now);
      this.now = now;
      this.watermark = watermark;
      this.lambda0 = lambda0;
      this.byCursor = q.op() == StateQuery.Op.LIST_URLS && q.after() != null;
      List<String> ordered = byCursor ? fromCursorOn(hosts, q.after()) : hosts;
      this.order = ordered.iterator();
      this.remaining = new java.util.HashSet<>(ordered);
    }

    /** Whether {@code other} asks what this walk answers (ids and times apart). */
    boolean asks(StateQuery other) {
      return !q.op().changes() && q.asksAs(other);
    }

    boolean done() {
      return failure != null || enough || remaining.isEmpty();
    }

    /** Visits the next host in order not visited yet; returns the pages it holds. */
    long visitNext() {
      while (order.hasNext()) {
        String host = order.next();
        if (remaining.contains(host)) {
          return visit(host);
        }
      }
      return 0; // every host in order has been visited: nothing remains
    }

    /** Visits {@code host} if this walk has not yet; returns the pages it holds. */
    long visit(String host) {
      if (done() || !remaining.remove(host)) {
        return 0;
      }
      try {
        long pages = visits.visitOrQuarantine(host, q, t, now, watermark, lambda0);
        if (byCursor && !t.wantsPages()) {
          enough = true; // the rest comes after this page's last
        }
        return pages;
      } catch (RuntimeException e) {
        failure = e;
        return 0;
      }
    }

    void answer() {
      for (StateQuery asker : askers) {
        QueryAnswer a =
            failure != null
                ? failed(asker, now, failure.toString())
                : t.answerFor(asker.id(), scheduler.latestRelease());
        side.output(SchedulerOutputs.ANSWERS, QueryCodec.toJson(a));
      }
    }
  }

  /** The hosts in key order, from the cursor's host on. */
  private static List<String> fromCursorOn(List<String> hosts, String cursor) {
    String from = cursor.substring(0, Math.max(0, cursor.indexOf('\n')));
    return new TreeSet<>(hosts).tailSet(from, true).stream().toList();
  }
}
