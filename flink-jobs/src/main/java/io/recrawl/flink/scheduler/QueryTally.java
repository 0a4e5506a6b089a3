package io.recrawl.flink.scheduler;

import io.recrawl.wire.QueryAnswer;
import io.recrawl.wire.QueryCodec;
import io.recrawl.wire.StateQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** One subtask's answer to a query as it is gathered, kept under the answer's size limit. */
final class QueryTally {
  final StateQuery q;
  final int part;
  final int parts;
  long count;
  long inFlight;
  long hosts;
  long hostsListed;
  long chars;
  boolean cut;
  final TreeSet<String> names = new TreeSet<>();
  final TreeSet<String> crawls = new TreeSet<>();
  final List<QueryAnswer.Page> pages = new ArrayList<>();

  final long now;

  /**
   * {@code parts}: 1 for a query of one host, else the parallelism, of which this is {@code
   * subtask}.
   */
  QueryTally(StateQuery q, int subtask, int parts, long now) {
    this.q = q;
    this.now = now;
    this.part = parts == 1 ? 0 : subtask;
    this.parts = parts;
  }

  /** Lists hold the first start + size results: the asker pages over the parts together. */
  private long room() {
    return q.start() + q.size();
  }

  boolean wantsPages() {
    return pages.size() < room() && !cut;
  }

  void addPage(QueryAnswer.Page p) {
    long c = QueryCodec.maxChars(p);
    if (chars + c > QueryCodec.MAX_ANSWER_CHARS / 2) {
      cut = true;
      return;
    }
    chars += c;
    pages.add(p);
  }

  void addHost(String host) {
    hostsListed++;
    if (q.after() != null && host.compareTo(q.after()) <= 0) {
      return; // listed by an earlier page
    }
    names.add(host);
    if (names.size() > room()) {
      names.pollLast(); // keeps the first in key order
    }
  }

  /**
   * Count: the crawls (crawl lists), the hosts listed (host lists), else pages. As of the query's
   * time, or the latest release if later: a status read ahead of event time may have released a
   * request stamped after the query, and a front end dropping what was released before a deletion
   * must drop that one too.
   */
  QueryAnswer answer(long latestRelease) {
    return answerFor(q.id(), latestRelease);
  }

  /** The answer, to the asker of {@code id}. */
  QueryAnswer answerFor(String id, long latestRelease) {
    long asOf = Math.max(now, latestRelease);
    return switch (q.op()) {
      case LIST_CRAWLS ->
          new QueryAnswer(
              id, part, parts, asOf, crawls.size(), 0, 0, List.copyOf(crawls), null, false, null);
      case LIST_HOSTS ->
          new QueryAnswer(
              id,
              part,
              parts,
              asOf,
              hostsListed,
              inFlight,
              hosts,
              List.copyOf(names),
              null,
              false,
              null);
      default ->
          new QueryAnswer(id, part, parts, asOf, count, inFlight, hosts, null, pages, cut, null);
    };
  }
}
