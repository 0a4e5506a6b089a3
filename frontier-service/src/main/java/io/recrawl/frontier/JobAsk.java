package io.recrawl.frontier;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.recrawl.wire.HostKeys;
import io.recrawl.wire.QueryAnswer;
import io.recrawl.wire.StateQuery;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * An RPC's question to the job's state ({@link JobQueries}), its answer handed to the RPC's reply,
 * or its failure turned into the gRPC status a client expects.
 */
final class JobAsk {

  private final FrontierSettings settings;
  private final JobQueries queries;

  JobAsk(FrontierSettings settings, JobQueries queries) {
    this.settings = settings;
    this.queries = queries;
  }

  /** A query of one host ({@code host} null = every host), asked now. */
  static StateQuery query(StateQuery.Op op, String crawl, String host) {
    return StateQuery.of(JobQueries.newId(), op, System.currentTimeMillis(), crawl, host);
  }

  /**
   * A client's queue key as the job keys hosts (a host, {@code host:port}; {@code Example.COM:80}
   * is {@code example.com}): null for none (every queue). A key that names no host is kept as it
   * is, and matches no queue.
   */
  String host(String key) {
    if (key == null || key.isEmpty()) {
      return null;
    }
    try {
      return HostKeys.of(settings.partitionMode()).keyOfHost(key);
    } catch (IllegalArgumentException noHost) {
      return key;
    }
  }

  <T> void ask(
      StreamObserver<T> out,
      StateQuery q,
      java.util.function.Function<List<QueryAnswer>, T> reply) {
    List<QueryAnswer> answers = ask(out, q);
    if (answers != null) {
      out.onNext(reply.apply(answers));
      out.onCompleted();
    }
  }

  /** The job's whole answer, or null after the error has gone to {@code out}. */
  List<QueryAnswer> ask(StreamObserver<?> out, StateQuery q) {
    return askEvenLate(out, q, null);
  }

  /**
   * The same; {@code evenLate} (if set) takes the whole answer when it comes, in time or after the
   * query timed out.
   */
  List<QueryAnswer> askEvenLate(
      StreamObserver<?> out, StateQuery q, Consumer<List<QueryAnswer>> evenLate) {
    try {
      return queries.ask(q, evenLate);
    } catch (JobQueries.QueryFailed failed) {
      out.onError(Status.INTERNAL.withDescription(failed.getMessage()).asException());
    } catch (TimeoutException slow) {
      out.onError(
          Status.DEADLINE_EXCEEDED
              .withDescription("the job did not answer within " + settings.queryTimeoutMs() + " ms")
              .asException());
    } catch (InterruptedException stopping) {
      Thread.currentThread().interrupt();
      out.onError(Status.CANCELLED.withDescription("the service is stopping").asException());
    } catch (Exception e) {
      out.onError(Status.UNAVAILABLE.withDescription(String.valueOf(e)).asException());
    }
    return null;
  }

  static long sum(List<QueryAnswer> answers, java.util.function.ToLongFunction<QueryAnswer> f) {
    return answers.stream().mapToLong(f).sum();
  }
}
