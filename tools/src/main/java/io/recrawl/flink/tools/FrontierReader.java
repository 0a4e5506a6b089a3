package io.recrawl.flink.tools;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.HostEngine;
import io.recrawl.engine.HostState;
import io.recrawl.engine.PageExplanation;
import io.recrawl.engine.PageState;
import io.recrawl.flink.scheduler.HostStateSerializer;
import io.recrawl.flink.scheduler.PageStateSerializer;
import io.recrawl.flink.scheduler.SchedulerState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.state.api.OperatorIdentifier;
import org.apache.flink.state.api.SavepointReader;
import org.apache.flink.state.api.functions.KeyedStateReaderFunction;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;

/**
 * Reads the scheduler's frontier from a savepoint (State Processor API) and explains every page
 * with the engine's own math ({@link PageExplanation}): one JSON object per URL.
 *
 * <p>"Now" is, unless given, each host's own clock in the savepoint: the latest of its last
 * release, its last wake-up and its pages' last fetches.
 */
public final class FrontierReader {

  private static final ObjectMapper JSON = new ObjectMapper();

  private FrontierReader() {}

  /**
   * The pages of the savepoint as JSON lines.
   *
   * @param engineSettings the job's engine settings (the math depends on them)
   * @param host only this host key, or null for all
   * @param url only this URL, or null for all
   * @param now the time to explain at, epoch ms, or null for each host's own clock
   */
  public static List<String> read(
      String savepoint, Map<String, ?> engineSettings, String host, String url, Long now)
      throws Exception {
    List<String> out = new ArrayList<>();
    read(savepoint, engineSettings, host, url, now, out::add);
    return out;
  }

  /** The same lines, each given to {@code out} as its host is read: nothing held but a host. */
  public static void read(
      String savepoint,
      Map<String, ?> engineSettings,
      String host,
      String url,
      Long now,
      LineSink out)
      throws Exception {
    // Refuses bad settings before starting a job.
    HostEngine engine = new HostEngine(EngineConfig.fromMap(engineSettings, "recrawl.engine."));
    forEachHost(
        savepoint,
        host,
        (key, h, pages, lambda0) -> explain(engine, key, h, pages, lambda0, url, now, out));
  }

  /** Where {@link #read} sends its lines. */
  public interface LineSink {
    void add(String line) throws IOException;
  }

  /** One host of a savepoint: its key, record (null if none), stored pages and λ_0. */
  public interface HostVisitor {
    void host(String host, HostState h, List<Map.Entry<String, PageState>> pages, double lambda0)
        throws Exception;
  }

  /**
   * Visits every host of the savepoint (or only {@code host}) with its stored pages (keys in their
   * stored form, see {@link SchedulerState#expandUrl}), one host at a time. Holds one host's pages
   * and the host records of one key group: the records are spilled to disk first.
   *
   * @return the most host records held in memory at once
   */
  public static int forEachHost(String savepoint, String host, HostVisitor visitor)
      throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    SavepointReader reader =
        SavepointReader.read(env, savepoint, new EmbeddedRocksDBStateBackend());
    OperatorIdentifier op = OperatorIdentifier.forUid(SchedulerState.OPERATOR_UID);

    double lambda0 = 0;
    try (CloseableIterator<Tuple2<String, Double>> global =
        reader
            .readBroadcastState(
                op, SchedulerState.globalDescriptor().getName(), Types.STRING, Types.DOUBLE)
            .executeAndCollect("recrawl-read-global-lambda")) {
      while (global.hasNext()) {
        Tuple2<String, Double> e = global.next();
        if (e.f0.equals(SchedulerState.GLOBAL_LAMBDA)) {
          lambda0 = e.f1; // every subtask keeps the same copy
        }
      }
    }

    // Two reads of one state each: over several states, Flink 2.2's key iterator on RocksDB visits
    // some keys more than once and misses others (map states among them). One state's keys are
    // visited once each, in order, all the entries of a key together.
    try (HostRecordSpill hosts = new HostRecordSpill()) {
      try (CloseableIterator<String> rows =
          records(savepoint, op, new Records(true, host)).executeAndCollect("recrawl-read-hosts")) {
        while (rows.hasNext()) {
          String[] r = Records.split(rows.next());
          if (r != null) {
            hosts.add(Integer.parseInt(r[0]), r[1], r[3]);
          }
        }
      }

      List<Map.Entry<String, PageState>> ofHost = new ArrayList<>();
      String current = null;
      int currentGroup = -1;
      try (CloseableIterator<String> rows =
          records(savepoint, op, new Records(false, host))
              .executeAndCollect("recrawl-read-frontier")) {
        while (rows.hasNext()) {
          String[] r = Records.split(rows.next());
          if (r == null) {
            continue;
          }
          if (current != null && !current.equals(r[1])) {
            visitor.host(current, hosts.get(currentGroup, current), ofHost, lambda0);
            ofHost.clear();
          }
          current = r[1];
          currentGroup = Integer.parseInt(r[0]);
          ofHost.add(Map.entry(r[2], PageStateSerializer.INSTANCE.deserialize(Records.bytes(r))));
        }
      }
      if (current != null) {
        visitor.host(current, hosts.get(currentGroup, current), ofHost, lambda0);
      }
      return hosts.mostHeld();
    }
  }

  private static DataStream<String> records(
      String savepoint, OperatorIdentifier op, Records function) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    return SavepointReader.read(env, savepoint, new EmbeddedRocksDBStateBackend())
        .readKeyedState(
            op,
            function,
            Types.STRING,
            Types.STRING); // a key without records reads as null: StringSerializer writes it
  }

  /** One host's pages to JSON. */
  private static void explain(
      HostEngine engine,
      String host,
      HostState h,
      List<Map.Entry<String, PageState>> pages,
      double lambda0,
      String onlyUrl,
      Long now,
      LineSink out)
      throws Exception {
    if (h == null) {
      return;
    }
    long clock = h.lastRelease;
    if (now == null) {
      for (Map.Entry<String, PageState> p : pages) {
        clock = Math.max(clock, p.getValue().lastFetch);
      }
    } else {
      clock = now;
    }
    for (Map.Entry<String, PageState> e : pages) {
      String url = SchedulerState.expandUrl(host, e.getKey());
      if (onlyUrl != null && !onlyUrl.equals(url)) {
        continue;
      }
      out.add(JSON.writeValueAsString(row(engine, host, url, e.getValue(), h, clock, lambda0)));
    }
  }

  /**
   * A state's records as text: the key group, host, "" or the stored URL, and the serialized host
   * record or page in Base64, separated by NUL (in neither host keys nor URLs). Registers that one
   * state only.
   */
  static final class Records extends KeyedStateReaderFunction<String, String> {
    private final boolean hostRecords;
    private final String onlyHost;
    private transient ValueState<HostState> hostState;
    private transient MapState<String, PageState> pages;
    private transient DataOutputSerializer buf;
    private transient int maxParallelism;

    private static final char SEP = '\u0000';

    static String record(int keyGroup, String host, String key, DataOutputSerializer buf) {
      return keyGroup
          + (SEP + host)
          + SEP
          + key
          + SEP
          + Base64.getEncoder().encodeToString(buf.getCopyOfBuffer());
    }

    /** The four fields of a record, or null for a key's placeholder (see {@link #readKey}). */
    static String[] split(String record) {
      if (record == null || record.isEmpty()) {
        return null;
      }
      return record.split(String.valueOf(SEP), 4);
    }

    static DataInputDeserializer bytes(String[] record) {
      return new DataInputDeserializer(Base64.getDecoder().decode(record[3]));
    }

    Records(boolean hostRecords, String onlyHost) {
      this.hostRecords = hostRecords;
      this.onlyHost = onlyHost;
    }

    @Override
    public void open(OpenContext ctx) {
      if (hostRecords) {
        hostState = getRuntimeContext().getState(SchedulerState.hostDescriptor());
      } else {
        pages = getRuntimeContext().getMapState(SchedulerState.pagesDescriptor());
      }
      buf = new DataOutputSerializer(256);
      maxParallelism = getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks();
    }

    /**
     * Every key emits at least one line: the State Processor API's input format ends the whole read
     * at a key that emits nothing (its next record is then null), so a key filtered out or without
     * records emits an empty placeholder, which {@link #split} drops.
     */
    @Override
    public void readKey(String host, Context ctx, Collector<String> out) throws Exception {
      boolean emitted = false;
      if (onlyHost == null || onlyHost.equals(host)) {
        int keyGroup = KeyGroupRangeAssignment.assignToKeyGroup(host, maxParallelism);
        if (hostRecords) {
          HostState h = hostState.value();
          if (h != null) {
            buf.clear();
            HostStateSerializer.INSTANCE.serialize(h, buf);
            out.collect(record(keyGroup, host, "", buf));
            emitted = true;
          }
        } else {
          for (Map.Entry<String, PageState> e : pages.entries()) {
            buf.clear();
            PageStateSerializer.INSTANCE.serialize(e.getValue(), buf);
            out.collect(record(keyGroup, host, e.getKey(), buf));
            emitted = true;
          }
        }
      }
      if (!emitted) {
        out.collect("");
      }
    }
  }

  private static Map<String, Object> row(
      HostEngine engine,
      String host,
      String url,
      PageState p,
      HostState h,
      long clock,
      double lambda0) {
    PageExplanation x = PageExplanation.of(engine, p, h, lambda0, clock);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("url", url);
    m.put("host", host);
    m.put("status", x.status().name());
    m.put("now", clock);
    m.put("weight", x.weight());
    m.put("change_rate", x.changeRate());
    m.put("host_prior_rate", Double.isNaN(x.hostPriorRate()) ? null : x.hostPriorRate());
    m.put("change_rate_sd", x.changeRateStdDev());
    m.put("planned_change_rate", x.plannedRate());
    m.put("demand_rate", x.demandRate());
    m.put("estimator_shape", p.changeShape);
    m.put("estimator_rate", p.changeRate);
    m.put("last_fetch", p.lastFetch == 0 ? null : p.lastFetch);
    m.put("age_from", p.ageFrom == 0 ? null : p.ageFrom);
    m.put("crawl_value", x.crawlValue());
    m.put("value_ceiling", x.valueCeiling());
    m.put("host_lambda", x.hostLambda());
    m.put("global_lambda", x.globalLambda());
    m.put("threshold", x.threshold());
    m.put("host_max_rate", x.hostMaxRate());
    m.put("due", x.due() == Long.MAX_VALUE ? null : x.due());
    m.put("in_flight", x.inFlight());
    m.put("lease_until", p.leaseUntil == 0 ? null : p.leaseUntil);
    m.put("errors", (int) p.errors);
    m.put("lease_expiries", (int) p.expiries);
    m.put("reason", x.reason());
    return m;
  }
}
