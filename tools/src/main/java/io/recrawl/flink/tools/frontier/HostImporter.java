package io.recrawl.flink.tools.frontier;

import io.recrawl.engine.DemandLedger;
import io.recrawl.engine.EngineContext;
import io.recrawl.engine.EngineOutcome;
import io.recrawl.engine.HostEngine;
import io.recrawl.engine.HostState;
import io.recrawl.engine.PageState;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * Builds one host's state with the engine's own code: its pages' events are applied by {@link
 * HostEngine#onStatus} over a {@link RecordingHostStore}, then each page is planned for its first
 * due time by {@link HostEngine#planAt}, as {@link Spreading} spreads them (unless {@code
 * --first-due value}).
 *
 * <p>Events are applied at their own times, as the job applies a replay: discoveries first, all at
 * the host's earliest time (so that no discovery finds the host idle and is sent at once: an import
 * releases nothing), then fetches and errors in time order.
 */
final class HostImporter {

  private final HostEngine engine;
  private final long now;
  private final double lambda0;
  private final ImportSettings.FirstDue firstDue;
  private final EngineContext context = new EngineContext();
  private final EngineOutcome outcome = new EngineOutcome();
  private final DemandLedger demand;

  /**
   * @param now the import's clock
   * @param lambda0 the job's initial global lambda ({@code recrawl.global-lambda})
   * @param firstDue when a fetched page is first due
   */
  HostImporter(HostEngine engine, long now, double lambda0, ImportSettings.FirstDue firstDue) {
    this.engine = engine;
    this.now = now;
    this.lambda0 = lambda0;
    this.firstDue = firstDue;
    this.demand = new DemandLedger(engine.config().grid);
  }

  /**
   * The summed capped demand curve of every host built so far, as the job's ledger would hold it:
   * what the global lambda controller prices the budget from.
   */
  double[] demand() {
    return demand.snapshot();
  }

  /**
   * The state of {@code host} holding {@code pages} (URLs of that host key, no duplicates). A page
   * the engine refuses or removes (a full host: {@code host.max-pages}; an ERROR page under {@code
   * error.remove}) goes to {@code refused} with the engine's reason.
   */
  RecordingHostStore build(String host, List<ImportedPage> pages, Consumer<BadRow> refused) {
    RecordingHostStore store = new RecordingHostStore();
    long first = now;
    for (ImportedPage p : pages) {
      first = Math.min(first, p.fetchTime());
    }
    List<ImportedPage> fetched = new ArrayList<>();
    for (ImportedPage p : pages) {
      if (p.status() == CrawlStatus.DISCOVERED) {
        StatusEvent e = p.events().get(0);
        apply(store, host, e.at(first));
        report(p, refused);
      } else {
        fetched.add(p);
      }
    }
    fetched.sort(Comparator.comparingLong(ImportedPage::fetchTime));
    for (ImportedPage p : fetched) {
      for (StatusEvent e : p.events()) {
        apply(store, host, e);
      }
      report(p, refused);
      PageState s = store.page(p.url());
      if (s != null && (p.signatureHash() != 0 || p.etagHash() != 0)) {
        s.signatureHash = p.signatureHash() != 0 ? p.signatureHash() : s.signatureHash;
        s.etagHash = p.etagHash() != 0 ? p.etagHash() : s.etagHash;
        store.putPage(p.url(), s);
      }
    }
    plan(store, host, pages);
    return store;
  }

  /**
   * Plans every page with a next fetch date at its spread due time, in the rule's order; with
   * {@code --first-due value} none: each page keeps the engine's plan from its last status.
   */
  private void plan(RecordingHostStore store, String host, List<ImportedPage> pages) {
    HostState h = store.host();
    if (h == null) {
      return;
    }
    if (firstDue == ImportSettings.FirstDue.VALUE) {
      return;
    }
    Spreading.Page[] plan = new Spreading.Page[pages.size()];
    for (int i = 0; i < plan.length; i++) {
      ImportedPage p = pages.get(i);
      PageState s = store.page(p.url());
      plan[i] =
          new Spreading.Page(
              s == null ? FrontierRow.NEVER : p.nextFetch(),
              s == null ? 0 : engine.valuation().crawlValue(h, s, now),
              s == null ? 0 : s.weight,
              p.url());
    }
    Spreading.Plan due =
        Spreading.plan(plan, now, engine.config().bucketMs, engine.thresholds().spacingMs(h, now));
    for (int i : due.order()) {
      if (due.due()[i] != FrontierRow.NEVER) {
        engine.planAt(
            store, pages.get(i).url(), due.due()[i], context.begin(host, now, lambda0), outcome);
        apply();
      }
    }
  }

  private void apply(RecordingHostStore store, String host, StatusEvent e) {
    engine.onStatus(store, e, context.begin(host, e.time(), lambda0), outcome);
    apply();
  }

  // The refusal or removal of the page being built, since its last report.
  private String refusal;
  private String detail;

  /**
   * The import's applier: nothing may be released, the demand goes to the import's ledger, and a
   * refusal or a removal becomes the page's bad row.
   */
  private void apply() {
    if (!outcome.releases().isEmpty()) {
      throw new IllegalStateException(
          "the engine released " + outcome.releases().get(0).url() + " during import");
    }
    for (int i = 0; i < outcome.demandChanges(); i++) {
      demand.replace(outcome.demandBefore(i), outcome.demandAfter(i));
    }
    if (outcome.refusal() != null) {
      refusal = outcome.refusal();
      detail = outcome.refusalDetail();
    } else if (outcome.pagesRemoved() > 0) {
      refusal = "error_removed";
      detail = "an ERROR page is removed from state (recrawl.engine.error.remove)";
    }
    outcome.clear();
  }

  /** The page's refusal or removal since the last report, as a bad row. */
  private void report(ImportedPage p, Consumer<BadRow> refused) {
    if (refusal != null) {
      refused.accept(new BadRow(p.line(), refusal, detail, p.url()));
      refusal = null;
    }
  }
}
