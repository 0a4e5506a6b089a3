package io.recrawl.frontier;

import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.ControlMessageCodec;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.QueryAnswer;
import io.recrawl.wire.QueryCodec;
import io.recrawl.wire.StateQuery;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the job about its state: a {@link StateQuery} goes out on the control topic, and the job's
 * subtasks answer on the answers topic, each for its share of the hosts. A query is whole when it
 * has one answer from each part; every instance of the service reads every answer and keeps the
 * ones it asked for.
 */
final class JobQueries implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(JobQueries.class);

  /** The job refused or failed a query. */
  static final class QueryFailed extends Exception {
    QueryFailed(String message) {
      super(message);
    }
  }

  private final FrontierSettings settings;
  private final KafkaProducer<String, String> producer;
  private final Map<String, Pending> pending = new ConcurrentHashMap<>();

  /** How many answers to other instances' queries are kept for {@link #follow}. */
  private static final int UNCLAIMED = 1_000;

  /** The ids of the latest {@link #UNCLAIMED} queries this instance sent. */
  private final java.util.Set<String> sent = java.util.Collections.newSetFromMap(latest(UNCLAIMED));

  /** Answers to other instances' queries, the latest {@link #UNCLAIMED}. */
  private final Map<String, Pending> unclaimed = latest(UNCLAIMED);

  /** A map in insertion order that keeps its latest {@code max} entries. */
  private static <K, V> Map<K, V> latest(int max) {
    return new java.util.LinkedHashMap<>() {
      @Override
      protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > max;
      }
    };
  }

  private final TopicReader reader;

  /** The answers of one query as they arrive, by part. */
  private static final class Pending {
    final long since = System.currentTimeMillis();
    final CompletableFuture<List<QueryAnswer>> done = new CompletableFuture<>();
    final Map<Integer, QueryAnswer> parts = new HashMap<>();

    synchronized void add(QueryAnswer a) {
      parts.putIfAbsent(a.part(), a); // at-least-once: an answer may come twice
      if (parts.size() >= a.parts()) {
        List<QueryAnswer> all = new ArrayList<>(parts.values());
        all.sort((x, y) -> Integer.compare(x.part(), y.part()));
        done.complete(all);
      }
    }
  }

  JobQueries(FrontierSettings settings, KafkaProducer<String, String> producer) {
    this.settings = settings;
    this.producer = producer;
    // From the end as of now: no answer to a later query is missed.
    this.reader =
        TopicReader.fromEnd(
            settings.bootstrapServers(),
            settings.answersTopic(),
            "recrawl-frontier-answers",
            this::read);
  }

  /** The event time a whole answer holds at: the latest of its parts'. */
  static long asOf(List<QueryAnswer> answers) {
    return answers.stream().mapToLong(QueryAnswer::asOf).max().orElse(0);
  }

  /** A query's id. */
  static String newId() {
    return UUID.randomUUID().toString();
  }

  /**
   * Sends {@code q} and waits for its whole answer, parts in order.
   *
   * @throws QueryFailed the job answered with an error
   * @throws TimeoutException no whole answer within the query timeout (the job is down, or was
   *     restarted and lost the query)
   */
  List<QueryAnswer> ask(StateQuery q)
      throws QueryFailed, TimeoutException, InterruptedException, ExecutionException {
    return ask(q, null);
  }

  /**
   * The same; {@code evenLate} (if set) takes the whole answer whenever it comes, within the
   * timeout or up to {@link Deletions#MEMORY_MS} after the query was sent.
   */
  List<QueryAnswer> ask(StateQuery q, Consumer<List<QueryAnswer>> evenLate)
      throws QueryFailed, TimeoutException, InterruptedException, ExecutionException {
    forgetOlderThan(System.currentTimeMillis() - Deletions.MEMORY_MS);
    Pending p = new Pending();
    pending.put(q.id(), p);
    synchronized (sent) {
      sent.add(q.id());
    }
    p.done.whenComplete((answers, e) -> pending.remove(q.id()));
    if (evenLate != null) {
      p.done.thenAccept(evenLate);
    }
    boolean waitsLate = false;
    try {
      producer
          .send(
              new ProducerRecord<>(
                  settings.controlTopic(), ControlMessageCodec.toJson(ControlMessage.query(q))))
          .get();
      List<QueryAnswer> answers;
      try {
        answers = p.done.get(settings.queryTimeoutMs(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException slow) {
        waitsLate = evenLate != null;
        throw slow;
      }
      for (QueryAnswer a : answers) {
        if (a.error() != null) {
          throw new QueryFailed(a.error());
        }
      }
      return answers;
    } finally {
      if (!waitsLate) {
        pending.remove(q.id());
      }
    }
  }

  /** Stops waiting for the late answers of queries sent before {@code since}. */
  private void forgetOlderThan(long since) {
    pending.values().removeIf(p -> p.since < since);
  }

  /** Whether this instance sent query {@code id} (one of its latest). */
  boolean sentHere(String id) {
    synchronized (sent) {
      return sent.contains(id);
    }
  }

  /**
   * Hands {@code answers} the whole answer of another instance's query {@code id} when it comes (or
   * came: the last {@link #UNCLAIMED} answers nobody here asked for are kept for this).
   */
  void follow(String id, Consumer<List<QueryAnswer>> answers) {
    Pending p;
    synchronized (unclaimed) {
      p = unclaimed.remove(id);
    }
    if (p == null) {
      p = pending.computeIfAbsent(id, i -> new Pending());
    }
    p.done.thenAccept(answers);
  }

  private void read(String json) {
    Parsed<QueryAnswer> a = QueryCodec.parseAnswer(json, System.currentTimeMillis());
    if (!a.ok()) {
      LOG.warn("unreadable answer skipped: {}", a.deadLetter().detail());
      return;
    }
    Pending p = pending.get(a.value().id());
    if (p == null) {
      synchronized (unclaimed) {
        p = unclaimed.computeIfAbsent(a.value().id(), i -> new Pending());
      }
    }
    p.add(a.value());
  }

  @Override
  public void close() {
    reader.close();
  }
}
