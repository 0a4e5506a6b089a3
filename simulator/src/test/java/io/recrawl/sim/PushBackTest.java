package io.recrawl.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.sim.policy.CrawlValuePolicy;
import io.recrawl.sim.workload.Workload;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PushBackTest {

  private static final double DAY_MS = Simulator.DAY_MS;

  /** A server model over {@code hosts} hosts of one limit, and a host of it below its limit. */
  private static ServerModel servers(int hosts, double limit, long seed) {
    double[] limits = new double[hosts];
    Arrays.fill(limits, limit);
    return new ServerModel(limits, 5, seed);
  }

  private static int belowHost(ServerModel s) {
    for (int h = 0; h < s.hosts(); h++) {
      if (s.belowLimit(h) && !hasMaintenance(s, h)) {
        return h;
      }
    }
    throw new AssertionError("no host below its limit without maintenance");
  }

  private static boolean hasMaintenance(ServerModel s, int h) {
    for (double t = 0; t < 5; t += 1.0 / 1440) {
      if (s.inMaintenance(h, t)) {
        return true;
      }
    }
    return false;
  }

  private static long ms(double t) {
    return Simulator.EPOCH_MS + Math.round(t * DAY_MS);
  }

  @Test
  void capacitiesAreDrawnFromTheSeedAboutThirtyPercentBelowTheLimit() {
    ServerModel a = servers(2000, 100, 7);
    ServerModel b = servers(2000, 100, 7);
    int below = 0;
    for (int h = 0; h < a.hosts(); h++) {
      assertThat(a.capacity(h)).isEqualTo(b.capacity(h));
      if (a.belowLimit(h)) {
        below++;
        assertThat(a.capacity(h)).isBetween(10.0, 80.0);
      } else {
        assertThat(a.capacity(h)).isBetween(100.0, 300.0);
      }
    }
    assertThat(below / 2000.0).isBetween(0.27, 0.33);
    assertThat(a.maintenanceWindows()).isGreaterThan(0);
  }

  @Test
  void aServerRefusesAboveItsCapacityAndServesAtIt() {
    ServerModel s = servers(50, 100, 3);
    int h = belowHost(s);
    double c = s.capacity(h);

    // At exactly its capacity, evenly spaced: every request is served.
    double t = 0;
    long slowest = 0;
    for (int i = 0; i < 200; i++) {
      ServerModel.Response r = s.request(h, t, ms(t));
      assertThat(r.kind()).isEqualTo(ServerModel.Kind.SERVED);
      assertThat(r.httpStatus()).isEqualTo(200);
      slowest = Math.max(slowest, r.loadingTimeMs());
      t += 1 / c;
    }
    // Near capacity the server is slow: well above the idle 200 ms.
    assertThat(slowest).isGreaterThan(1000);

    // At twice its capacity (the configured limit can be more): about half are refused with 429,
    // about half of those with a Retry-After in delta-seconds.
    ServerModel fresh = servers(50, 100, 3);
    int refused = 0;
    int withRetryAfter = 0;
    t = 0;
    for (int i = 0; i < 2000; i++) {
      ServerModel.Response r = fresh.request(h, t, ms(t));
      if (r.kind() == ServerModel.Kind.TOO_MANY) {
        assertThat(r.httpStatus()).isEqualTo(429);
        refused++;
        if (r.retryAfter() != null) {
          withRetryAfter++;
          int sec = Integer.parseInt(r.retryAfter());
          assertThat(sec).isBetween(60, 600);
          assertThat(r.retryAfterEndMs()).isEqualTo(ms(t) + sec * 1000L);
        }
      }
      t += 0.5 / c;
    }
    assertThat(refused).isBetween(900, 1100);
    assertThat(withRetryAfter / (double) refused).isBetween(0.4, 0.6);
  }

  @Test
  void anIdleServerAnswersQuicklyAndMaintenanceAnswers503() {
    ServerModel s = servers(400, 100, 5);
    int h = -1;
    double start = -1;
    for (int k = 0; k < s.hosts() && h < 0; k++) {
      for (double t = 0; t < 5; t += 1.0 / 1440) {
        if (s.inMaintenance(k, t)) {
          h = k;
          start = t;
          break;
        }
      }
    }
    assertThat(h).isNotNegative();
    ServerModel.Response r = s.request(h, start, ms(start));
    assertThat(r.kind()).isEqualTo(ServerModel.Kind.MAINTENANCE);
    assertThat(r.httpStatus()).isEqualTo(503);
    if (r.retryAfter() != null) {
      // An HTTP-date at or after the window's end.
      assertThat(r.retryAfter()).endsWith(" GMT");
      double end = start;
      while (s.inMaintenance(h, end)) {
        end += 1.0 / 86_400;
      }
      assertThat(r.retryAfterEndMs()).isBetween(ms(end) - 2000, ms(end) + 2000);
    }
    // Long before any window, a single request is served at about the idle response time.
    int other = belowHost(s);
    ServerModel.Response idle = s.request(other, 0.5, ms(0.5));
    assertThat(idle.kind()).isEqualTo(ServerModel.Kind.SERVED);
    assertThat(idle.loadingTimeMs()).isBetween(150L, 300L);
  }

  /**
   * 600 pages on 12 hosts, each limited to 150 crawls a day, under a budget that fills the limits.
   */
  private static Simulator.Config smallRun() {
    int n = 600;
    int hosts = 12;
    String[] urls = new String[n];
    int[] hostOf = new int[n];
    double[] w = new double[n];
    double[] d = new double[n];
    for (int p = 0; p < n; p++) {
      urls[p] = "https://h" + (p % hosts) + ".example/" + p;
      hostOf[p] = p % hosts;
      w[p] = 1 + (p % 7);
      d[p] = 0.5 + (p % 5) * 0.5;
    }
    String[] names = new String[hosts];
    double[] limits = new double[hosts];
    for (int h = 0; h < hosts; h++) {
      names[h] = "h" + h + ".example";
    }
    Arrays.fill(limits, 150);
    Workload wl = new Workload(urls, hostOf, w, d, names, limits);
    Simulator.Config cfg = SimTestWorkloads.config(wl, 2400, 4, 1);
    cfg.oracleRates = false;
    cfg.seed = 2;
    cfg.scenario = Scenario.build(Scenario.PUSH_BACK, wl, cfg.warmUp, cfg.days, cfg.seed);
    return cfg;
  }

  @Test
  void theEngineSendsNothingInsideABlockAndTheServersDidPushBack() {
    Simulator.Config cfg = smallRun();
    assertThat(cfg.servers().hostsBelowLimit()).isGreaterThan(0);
    PolicyRun run = new Simulator(cfg).run(new CrawlValuePolicy());
    long tooMany = (Long) run.pushBack.get("status_429");
    // The servers did refuse (the engine had something to obey) ...
    assertThat(tooMany).isGreaterThan(0);
    // ... and the engine released nothing into a Retry-After or back-off block. (Pages it had
    // released before the push-back, still waiting in the crawler's queue, can go into the block:
    // counted apart, see docs/push-back.md.)
    assertThat((Long) run.pushBack.get("block_violations_released_after_push_back")).isZero();
    assertThat(run.politenessViolations).isZero();
    assertThat(run.weightedFreshness).isGreaterThan(0);
    // Refusals end once the engine has learned: under 1 % after day 1 in this small run.
    assertThat((Double) run.pushBack.get("refused_share_after_day_1")).isLessThan(0.01);
  }

  @Test
  void ignoringPushBackIsCaughtByTheAuditor() {
    Simulator.Config cfg = smallRun();
    cfg.engineSettings.put("politeness.push-back", "false");
    PolicyRun run = new Simulator(cfg).run(new CrawlValuePolicy());
    // Requests the scheduler released inside a block are seen, and the servers keep refusing.
    assertThat((Long) run.pushBack.get("block_violations_released_after_push_back"))
        .isGreaterThan(0);
    assertThat((Double) run.pushBack.get("refused_share_after_day_1")).isGreaterThan(0.02);
  }

  @Test
  void theOracleCapacityRunIsNeverRefusedOutsideMaintenance() {
    Simulator.Config cfg = smallRun();
    cfg.oracleCapacity = true;
    PolicyRun run = new Simulator(cfg).run(new CrawlValuePolicy());
    assertThat((Long) run.pushBack.get("status_429")).isZero();
    assertThat(run.politenessViolations).isZero();
  }
}
