package io.recrawl.flink.tools;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.HostEngine;
import io.recrawl.engine.HostState;
import io.recrawl.engine.PageExplanation;
import io.recrawl.engine.PageState;
import io.recrawl.flink.scheduler.SchedulerState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.state.api.OperatorIdentifier;
import org.apache.flink.state.api.SavepointReader;
import org.apache.flink.state.api.functions.KeyedStateReaderFunction;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
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
    EngineConfig.fromMap(
        engineSettings, "recrawl.engine."); // refuse bad settings before starting a job
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

    List<String> out = new ArrayList<>();
    StreamExecutionEnvironment env2 = StreamExecutionEnvironment.getExecutionEnvironment();
    env2.setParallelism(1);
    SavepointReader reader2 =
        SavepointReader.read(env2, savepoint, new EmbeddedRocksDBStateBackend());
    try (CloseableIterator<String> rows =
        reader2
            .readKeyedState(
                op,
                new Pages(new HashMap<>(engineSettings), lambda0, host, url, now),
                Types.STRING,
                Types.STRING)
            .executeAndCollect("recrawl-read-frontier")) {
      rows.forEachRemaining(out::add);
    }
    return out;
  }

  /** One host's pages to JSON. */
  static final class Pages extends KeyedStateReaderFunction<String, String> {
    private final HashMap<String, Object> engineSettings;
    private final double lambda0;
    private final String onlyHost;
    private final String onlyUrl;
    private final Long now;
    private transient HostEngine engine;
    private transient ValueState<HostState> hostState;
    private transient MapState<String, PageState> pages;

    Pages(
        HashMap<String, Object> engineSettings,
        double lambda0,
        String onlyHost,
        String onlyUrl,
        Long now) {
      this.engineSettings = engineSettings;
      this.lambda0 = lambda0;
      this.onlyHost = onlyHost;
      this.onlyUrl = onlyUrl;
      this.now = now;
    }

    @Override
    public void open(OpenContext ctx) {
      engine = new HostEngine(EngineConfig.fromMap(engineSettings, "recrawl.engine."));
      hostState = getRuntimeContext().getState(SchedulerState.hostDescriptor());
      pages = getRuntimeContext().getMapState(SchedulerState.pagesDescriptor());
      // Registered for the savepoint's layout even if unread: every state of the operator is
      // restored.
      getRuntimeContext().getMapState(SchedulerState.slotsDescriptor());
      getRuntimeContext().getState(SchedulerState.leasesDescriptor());
    }

    @Override
    public void readKey(String host, Context ctx, Collector<String> out) throws Exception {
      if (onlyHost != null && !onlyHost.equals(host)) {
        return;
      }
      HostState h = hostState.value();
      if (h == null) {
        return;
      }
      long clock = h.lastRelease;
      if (now == null) {
        for (PageState p : pages.values()) {
          clock = Math.max(clock, p.lastFetch);
        }
      } else {
        clock = now;
      }
      for (Map.Entry<String, PageState> e : pages.entries()) {
        String url = SchedulerState.expandUrl(host, e.getKey());
        if (onlyUrl != null && !onlyUrl.equals(url)) {
          continue;
        }
        out.collect(JSON.writeValueAsString(row(host, url, e.getValue(), h, clock)));
      }
    }

    private Map<String, Object> row(String host, String url, PageState p, HostState h, long clock) {
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
}
