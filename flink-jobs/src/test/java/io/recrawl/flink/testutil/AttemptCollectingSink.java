package io.recrawl.flink.testutil;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * A test sink (Sink V2) that keeps every record in memory with the attempt number of the subtask
 * that wrote it, so a test can tell what was written before and after a restart. MiniCluster jobs
 * run in the test's JVM, so a static map is visible to the test.
 */
public final class AttemptCollectingSink<T> implements Sink<T> {

  private static final long serialVersionUID = 1L;

  /**
   * One record as written, with the writer's attempt number (0 = first run, 1 = after a restart).
   */
  public record Written<T>(T value, int attempt) {}

  private static final Map<String, List<Written<?>>> RESULTS = new ConcurrentHashMap<>();

  private final String id;

  public AttemptCollectingSink(String id) {
    this.id = id;
    RESULTS.put(id, java.util.Collections.synchronizedList(new ArrayList<>()));
  }

  @SuppressWarnings("unchecked")
  public List<Written<T>> results() {
    List<Written<?>> l = RESULTS.get(id);
    synchronized (l) {
      return new ArrayList<>((List<Written<T>>) (List<?>) l);
    }
  }

  public List<T> values() {
    return results().stream().map(Written::value).toList();
  }

  @Override
  public SinkWriter<T> createWriter(WriterInitContext context) {
    int attempt = context.getTaskInfo().getAttemptNumber();
    List<Written<?>> target = RESULTS.get(id);
    return new SinkWriter<>() {
      @Override
      public void write(T element, Context ctx) {
        target.add(new Written<>(element, attempt));
      }

      @Override
      public void flush(boolean endOfInput) {}

      @Override
      public void close() {}
    };
  }
}
