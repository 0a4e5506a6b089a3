package io.recrawl.flink.scheduler;

import io.recrawl.engine.EngineConfig;
import io.recrawl.engine.EngineOutcome;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.DeadLetter;
import org.apache.flink.api.common.state.BroadcastState;

/**
 * The control messages the schedulers keep in broadcast state: the global lambda λ_0 with the rule
 * of epochs, the per-host rate overrides and the per-host caps on pages. Either is validated here;
 * a bad one is a dead letter.
 */
final class ControlSide {

  /**
   * How far the epoch in force may lead a new lambda's time before it is taken as corrupt and
   * replaced: a day, 24 of the controller's default periods.
   */
  static final long EPOCH_RESET_MS = 86_400_000L;

  private final EngineConfig cfg;
  private final SchedulerMetrics metrics;

  ControlSide(EngineConfig cfg, SchedulerMetrics metrics) {
    this.cfg = cfg;
    this.metrics = metrics;
  }

  /** A new global lambda: kept, with its epoch, unless it is bad or stale. */
  void onGlobalLambda(
      ControlMessage m, BroadcastState<String, Double> global, SideOutput side, long now)
      throws Exception {
    if (!(m.globalLambda() >= 0) || Double.isInfinite(m.globalLambda())) {
      refuse(side, m, "global lambda must be finite and >= 0", now);
      return;
    }
    if (m.epoch() < 0 || m.epoch() > m.time()) {
      refuse(
          side,
          m,
          "a lambda's epoch must be between 0 and its time (the time of its control round)",
          now);
      return;
    }
    Double epoch = global.get(SchedulerState.EPOCH);
    if (epoch != null && !supersedes(m.epoch(), m.time(), epoch)) {
      metrics.staleLambdas.inc(); // a late message from an older controller round
      return;
    }
    global.put(SchedulerState.EPOCH, (double) m.epoch());
    global.put(SchedulerState.GLOBAL_LAMBDA, m.globalLambda());
    metrics.globalLambda = m.globalLambda();
  }

  /**
   * Whether a lambda of {@code epoch}, sent at {@code time}, replaces the one in force, of epoch
   * {@code inForce}. The rule of epochs:
   *
   * <ul>
   *   <li>An epoch is the event time, epoch ms, of the control round that priced the lambda: the
   *       controller stamps each lambda with its tick's time as both time and epoch; the static
   *       lambda has epoch 0. So an epoch is never after its message's time ({@link
   *       #onGlobalLambda} refuses one that is, as a dead letter), and the time itself is bounded
   *       by the codec's {@code recrawl.input.max-future-ms}.
   *   <li>A lambda replaces the one in force if its epoch is not older; an older one is stale (a
   *       late message from an earlier round) and ignored.
   *   <li>Reset: an epoch in force more than {@link #EPOCH_RESET_MS} ahead of a new lambda's time
   *       cannot be a real round (none is ahead of the clock); it is replaced. This clears a huge
   *       epoch kept in broadcast state from before this rule, across restores too.
   * </ul>
   *
   * No message can then hold λ_0 for longer than the codec's max future plus a day.
   */
  static boolean supersedes(long epoch, long time, double inForce) {
    return epoch >= inForce || inForce - time > EPOCH_RESET_MS;
  }

  /**
   * Puts (or, at a rate of 0 or less, removes) a host's rate override in the broadcast table, which
   * holds at most {@code host-rates.max} hosts: an override for one more is a dead letter. The
   * hosts take it at their next call (see {@link HostSchedulerFunction}).
   */
  void onHostRate(ControlMessage m, BroadcastState<String, Double> rates, SideOutput side, long now)
      throws Exception {
    if (m.host() == null
        || m.host().isBlank()
        || Double.isNaN(m.maxRate())
        || Double.isInfinite(m.maxRate())) {
      refuse(side, m, "host rate override needs a host and a finite rate", now);
      return;
    }
    if (m.maxRate() > 0
        && !(m.maxRate() >= cfg.minHostRate && m.maxRate() <= cfg.hostRateCeiling)) {
      refuse(
          side,
          m,
          "max_rate "
              + m.maxRate()
              + " outside [recrawl.engine.host.min-rate, recrawl.engine.host.rate-ceiling] = ["
              + cfg.minHostRate
              + ", "
              + cfg.hostRateCeiling
              + "]",
          now);
      return;
    }
    boolean known = rates.contains(m.host());
    if (m.maxRate() <= 0) {
      if (known) {
        rates.remove(m.host());
        metrics.hostRateOverrides--;
      }
    } else if (known || metrics.hostRateOverrides < cfg.maxHostRates) {
      rates.put(m.host(), m.maxRate());
      metrics.hostRateOverrides += known ? 0 : 1;
    } else {
      side.deadLetter(
          metrics,
          DeadLetter.of(
              String.valueOf(m), EngineOutcome.RATE_TABLE_FULL, cfg.hostRatesFullDetail(), now));
    }
  }

  /**
   * Puts (or, at 0, removes) a host's cap on its pages in the broadcast table, which holds at most
   * {@code host-rates.max} hosts, as the rate table does: a cap for one more is a dead letter. A
   * host's pages beyond a new cap stay; only new ones are refused.
   */
  void onHostLimit(
      ControlMessage m, BroadcastState<String, Double> limits, SideOutput side, long now)
      throws Exception {
    if (m.host() == null || m.host().isBlank() || m.maxPages() < 0) {
      refuse(side, m, "a host limit needs a host and a number of pages >= 0", now);
      return;
    }
    if (m.maxPages() == 0) {
      limits.remove(m.host());
      return;
    }
    if (!limits.contains(m.host())) {
      int n = 0;
      for (var ignored : limits.entries()) {
        n++;
      }
      if (n >= cfg.maxHostRates) {
        side.deadLetter(
            metrics,
            DeadLetter.of(
                String.valueOf(m), EngineOutcome.RATE_TABLE_FULL, cfg.hostRatesFullDetail(), now));
        return;
      }
    }
    limits.put(m.host(), (double) m.maxPages());
  }

  /** A control message of a kind the schedulers do not know. */
  void onUnknown(ControlMessage m, SideOutput side, long now) {
    refuse(side, m, "unknown control kind", now);
  }

  private void refuse(SideOutput side, ControlMessage m, String detail, long now) {
    side.deadLetter(
        metrics, DeadLetter.of(String.valueOf(m), SchedulerOutputs.BAD_CONTROL, detail, now));
  }
}
