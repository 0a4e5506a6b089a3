package io.recrawl.frontier;

import io.recrawl.engine.EngineConfig;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prices the crawl by the crawler's pull: once a period, the outbox's sample of the clients' calls
 * ({@link ReleasedUrls#pullSample}) becomes a budget ({@link PullBudget}), sent to the job's global
 * lambda controller as a {@code BUDGET} control message, which the controller turns into the price.
 * One instance of the service prices a crawl; docs/url-frontier.md#priced-by-the-pull.
 */
final class PullPricing implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PullPricing.class);

  /** A budget is sent when it moved by more than this share, and every {@link #RESEND} periods. */
  private static final double CHANGE = 0.01;

  private static final int RESEND = 6;

  private final ReleasedUrls released;
  private final CrawlTopics topics;
  private final PullBudget budget;
  private final ScheduledExecutorService timer;
  private final long periodMs;
  private double sent = Double.NaN;
  private int periods;

  PullPricing(ReleasedUrls released, CrawlTopics topics, double initialPerSecond, long periodMs) {
    this.released = released;
    this.topics = topics;
    this.periodMs = periodMs;
    this.budget = new PullBudget(initialPerSecond, periodMs / 1000.0);
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "recrawl-pull-pricing");
              t.setDaemon(true);
              return t;
            });
    released.pullSample(System.currentTimeMillis(), periodMs); // the period starts now
    timer.scheduleAtFixedRate(this::period, periodMs, periodMs, TimeUnit.MILLISECONDS);
  }

  private void period() {
    long now = System.currentTimeMillis();
    try {
      PullSample s = released.pullSample(now, periodMs);
      double b = budget.update(s);
      periods++;
      // Every period, sent or not: the line is the pull's record (bench live charts it).
      LOG.info(
          "pull: {} calls, {} left URLs ready, {} taken, {} queues ready, {} takeable, {} waiting:"
              + " budget {} a second",
          s.calls(),
          s.leftReady(),
          s.taken(),
          s.readyQueues(),
          s.takeable(),
          released.waiting(),
          String.format(Locale.ROOT, "%.3f", b));
      if (!(Math.abs(b - sent) <= CHANGE * sent) || periods % RESEND == 0) {
        topics.budget(b * (EngineConfig.DAY_MS / 1000.0), now);
        sent = b;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.warn("the pull's budget was not sent; the next period tries again", e);
      sent = Double.NaN;
    }
  }

  /** The budget, URLs a second. */
  double perSecond() {
    return budget.perSecond();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
