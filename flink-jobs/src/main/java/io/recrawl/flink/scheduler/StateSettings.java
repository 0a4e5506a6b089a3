package io.recrawl.flink.scheduler;

import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.ThresholdGrid;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.execution.SuppressRestartsException;

/**
 * The engine settings the scheduler's keyed state was written with, kept in operator state {@code
 * engine-settings} so that a restore with other settings is checked. Per key, either:
 *
 * <ul>
 *   <li><b>refused</b>: start-up fails, naming the key, without restarts. Each host's demand curve
 *       ({@code HostState.curve}) is kept on the threshold grid ({@code curve.*}) as a running sum
 *       of its pages' contributions, which depend on {@code objective} and the revisit bounds; the
 *       due queues' slot keys are bucket numbers of {@code due.bucket}. Read with other settings,
 *       the curves have the wrong length or meaning and the buckets the wrong times. So is the
 *       job's {@code recrawl.partition.mode}: the state is keyed by the host keys it computes.
 *   <li><b>adapted</b>: {@code estimator.prior-rate} and {@code estimator.prior-shape} decide which
 *       pages count in the host prior's sums ({@code learnedRateSum}, {@code learnedPages}) and how
 *       much: restored with other values, every host's sums are marked unknown (its pages are then
 *       planned from {@code estimator.prior-rate}, as before the host prior), instead of being
 *       taken apart with numbers they were not put together with.
 * </ul>
 *
 * Every other engine key may change across a restore (docs/configuration.md).
 */
final class StateSettings {

  /** The job's key (not an engine key) of the partition mode, kept under its full name. */
  static final String PARTITION_MODE = "recrawl.partition.mode";

  /** Keys whose change is refused, with what the state keeps that depends on them. */
  static final Map<String, String> REFUSED = new LinkedHashMap<>();

  /** Keys whose change is adapted to on restore. */
  static final List<String> ADAPTED = List.of("estimator.prior-rate", "estimator.prior-shape");

  static {
    String curves = "the hosts' demand curves are kept on the threshold grid";
    String sums = "the hosts' demand curves are sums of page contributions computed with it";
    REFUSED.put("curve.min-threshold", curves);
    REFUSED.put("curve.max-threshold", curves);
    REFUSED.put("curve.points-per-decade", curves);
    REFUSED.put("objective", sums);
    REFUSED.put("revisit.min-interval", sums);
    REFUSED.put("revisit.max-interval", sums);
    REFUSED.put("due.bucket", "the due queues are kept as numbered buckets of this width");
    REFUSED.put(PARTITION_MODE, "the state is keyed by the host keys it computes");
  }

  private StateSettings() {}

  /**
   * The values (canonical: parsed, so that {@code 1 h} equals {@code 60 min}) of the keys; the
   * partition mode only if known.
   */
  static Map<String, String> of(EngineConfig cfg, String partitionMode) {
    Map<String, String> m = new LinkedHashMap<>();
    ThresholdGrid g = cfg.grid;
    m.put("curve.min-threshold", Double.toString(g.min()));
    m.put("curve.max-threshold", Double.toString(g.max()));
    m.put(
        "curve.points-per-decade",
        Long.toString(Math.round(Math.log(10) / Math.log(g.threshold(1) / g.threshold(0)))));
    m.put("objective", cfg.objective.name());
    m.put("revisit.min-interval", Long.toString(cfg.minRevisitMs));
    m.put("revisit.max-interval", Long.toString(cfg.maxRevisitMs));
    m.put("due.bucket", Long.toString(cfg.bucketMs));
    m.put("estimator.prior-rate", Double.toString(cfg.estimator.priorRate()));
    m.put("estimator.prior-shape", Double.toString(cfg.estimator.prior().shape()));
    if (partitionMode != null) {
      m.put(PARTITION_MODE, partitionMode);
    }
    return m;
  }

  /** One line per key, {@code key=value}: the operator state's entry. */
  static String format(Map<String, String> settings) {
    StringBuilder b = new StringBuilder();
    settings.forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
    return b.toString();
  }

  /** The settings of a state entry; entries of every subtask are the same, the first is read. */
  static Map<String, String> parse(Iterable<String> entries) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String e : entries) {
      for (String line : e.split("\n")) {
        int eq = line.indexOf('=');
        if (eq > 0) {
          m.put(line.substring(0, eq), line.substring(eq + 1));
        }
      }
      break;
    }
    return m;
  }

  /**
   * Checks the settings of a restored state against the current ones: throws for a refused change
   * (no restarts: the same settings would fail again), returns the adapted keys that changed. A
   * state without settings (written before they were kept) is not checked here; the operator checks
   * its curves' length instead.
   */
  static List<String> check(Map<String, String> restored, Map<String, String> current) {
    List<String> refused = new ArrayList<>();
    List<String> adapted = new ArrayList<>();
    for (Map.Entry<String, String> e : current.entrySet()) {
      String was = restored.get(e.getKey());
      if (was == null || was.equals(e.getValue())) {
        continue;
      }
      if (REFUSED.containsKey(e.getKey())) {
        refused.add(
            (e.getKey().startsWith("recrawl.") ? "" : "recrawl.engine.")
                + e.getKey()
                + " was "
                + was
                + " in the savepoint and is "
                + e.getValue()
                + " now ("
                + REFUSED.get(e.getKey())
                + ")");
      } else {
        adapted.add(e.getKey());
      }
    }
    if (!refused.isEmpty()) {
      throw refusal(String.join("; ", refused));
    }
    return adapted;
  }

  /** A failure of the restore that Flink does not retry. */
  static SuppressRestartsException refusal(String why) {
    return new SuppressRestartsException(
        new IllegalStateException(
            "cannot restore the scheduler's state with these settings: "
                + why
                + ". Restore with the savepoint's values (see docs/configuration.md, 'Changing"
                + " settings across a restore')."));
  }
}
