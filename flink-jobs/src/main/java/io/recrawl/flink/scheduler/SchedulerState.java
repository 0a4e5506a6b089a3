package io.recrawl.flink.scheduler;

import io.recrawl.engine.HostState;
import io.recrawl.engine.PageState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeutils.base.DoubleSerializer;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.StringSerializer;

/**
 * The scheduler operator's state layout, shared by the operator and the state tools.
 *
 * <p>Keyed by host: one host record, the host's pages by URL, and the slots of its due/ready queues
 * (slot key to URL), except lease slots, which are kept together in one value per host (see {@link
 * LeaseSlots}). Broadcast (every subtask keeps a copy): the global lambda with its epoch, and
 * per-host rate overrides.
 *
 * <p>URLs are stored relative to their host key when they start with {@code http(s)://host/}: the
 * key already holds the host, and both the page key and every slot value would otherwise repeat it.
 */
public final class SchedulerState {

  /** The uid of the scheduler operator: savepoints and the state tools find its state under it. */
  public static final String OPERATOR_UID = "recrawl-host-scheduler";

  public static final String GLOBAL_LAMBDA = "lambda0";
  public static final String EPOCH = "epoch";

  private static final char HTTPS = '\u0001';
  private static final char HTTP = '\u0002';

  private SchedulerState() {}

  public static ValueStateDescriptor<HostState> hostDescriptor() {
    return new ValueStateDescriptor<>("host", HostStateSerializer.INSTANCE);
  }

  public static MapStateDescriptor<String, PageState> pagesDescriptor() {
    return new MapStateDescriptor<>(
        "pages", StringSerializer.INSTANCE, PageStateSerializer.INSTANCE);
  }

  public static MapStateDescriptor<Long, String> slotsDescriptor() {
    return new MapStateDescriptor<>("slots", LongSerializer.INSTANCE, StringSerializer.INSTANCE);
  }

  /**
   * The host's lease slots (slot key to URL), in one value; a lease slot is in this or in slots.
   */
  public static ValueStateDescriptor<LeaseSlots> leasesDescriptor() {
    return new ValueStateDescriptor<>("leases", LeaseSlotsSerializer.INSTANCE);
  }

  /** Broadcast: {@link #GLOBAL_LAMBDA} and {@link #EPOCH} of the last accepted LAMBDA message. */
  public static MapStateDescriptor<String, Double> globalDescriptor() {
    return new MapStateDescriptor<>("global", StringSerializer.INSTANCE, DoubleSerializer.INSTANCE);
  }

  /** Broadcast: host key to its overriding rate limit, crawls per day. */
  /** Broadcast state: per-host caps on pages (control messages {@code host_limit}). */
  public static MapStateDescriptor<String, Double> hostLimitsDescriptor() {
    return new MapStateDescriptor<>(
        "host-limits", StringSerializer.INSTANCE, DoubleSerializer.INSTANCE);
  }

  /** Every broadcast state of the scheduler. */
  public static java.util.List<MapStateDescriptor<?, ?>> broadcastDescriptors() {
    return java.util.List.of(globalDescriptor(), hostRatesDescriptor(), hostLimitsDescriptor());
  }

  public static MapStateDescriptor<String, Double> hostRatesDescriptor() {
    return new MapStateDescriptor<>(
        "host-rates", StringSerializer.INSTANCE, DoubleSerializer.INSTANCE);
  }

  /**
   * Operator (union list) state: the last watermark each subtask moved to, so that a restore knows
   * which leases had their chance to be answered.
   */
  public static ListStateDescriptor<Long> watermarkDescriptor() {
    return new ListStateDescriptor<>("watermark", LongSerializer.INSTANCE);
  }

  /**
   * Operator (union list) state: the engine settings the keyed state was written with, one {@code
   * key=value} per line (see {@link StateSettings}), checked on restore.
   */
  /**
   * The learned prior of the grid posterior, one entry per subtask: its mass on each grid point,
   * comma-separated.
   */
  public static ListStateDescriptor<String> learnedPriorDescriptor() {
    return new ListStateDescriptor<>("learned-prior", StringSerializer.INSTANCE);
  }

  public static ListStateDescriptor<String> engineSettingsDescriptor() {
    return new ListStateDescriptor<>("engine-settings", StringSerializer.INSTANCE);
  }

  /**
   * The stored form of a URL of {@code host}: {@code https://host/} and {@code http://host/} become
   * one marker character (U+0001, U+0002). Unambiguous because every URL enters through the status
   * codec, whose {@code io.recrawl.wire.Urls} refuses control characters and writes every URL
   * starting with {@code http://} or {@code https://}; so a stored key starts either with a marker
   * or with {@code h}.
   */
  public static String compactUrl(String host, String url) {
    if (url.startsWith("https://")
        && url.startsWith(host, 8)
        && url.startsWith("/", 8 + host.length())) {
      return HTTPS + url.substring(8 + host.length());
    }
    if (url.startsWith("http://")
        && url.startsWith(host, 7)
        && url.startsWith("/", 7 + host.length())) {
      return HTTP + url.substring(7 + host.length());
    }
    return url;
  }

  /** The URL of a stored key of {@code host}. */
  public static String expandUrl(String host, String stored) {
    if (stored.isEmpty()) {
      return stored;
    }
    char c = stored.charAt(0);
    if (c == HTTPS) {
      return "https://" + host + stored.substring(1);
    }
    if (c == HTTP) {
      return "http://" + host + stored.substring(1);
    }
    return stored;
  }
}
