package io.recrawl.engine;

import io.recrawl.estimate.ChangeEvidence;
import io.recrawl.estimate.ChangeStats;
import io.recrawl.estimate.SignalTrust;
import io.recrawl.wire.StatusEvent;

/**
 * A host's change signals (a sitemap's lastmod, a feed's date, a ping) and how far they are
 * trusted: each claim is checked against the next fetch's verdict, and a host's claims are used
 * once enough of them held ({@code signals.min-trust}, {@code signals.min-trust-unchanged}).
 */
final class ChangeSignals {

  private final EngineConfig cfg;

  ChangeSignals(EngineConfig cfg) {
    this.cfg = cfg;
  }

  /** The event's change signal as epoch ms, or -1 when it has none. */
  static long signalDate(StatusEvent e) {
    Long d = ChangeEvidence.parseDate(e.first(StatusEvent.SIGNAL_KEY));
    return d == null || d < 0 ? -1 : d;
  }

  /** Whether the host's claims of this kind ("changed" or "unchanged") are trusted. */
  boolean trusted(HostState h, boolean changedClaim) {
    return changedClaim
        ? SignalTrust.trusted(h.signalChangedHeld, h.signalChangedMade, cfg.signalMinTrust)
        : SignalTrust.trusted(
            h.signalUnchangedHeld, h.signalUnchangedMade, cfg.signalMinTrustUnchanged);
  }

  /** Records whether a signal's claim held, by a fetch's verdict. */
  static void checkSignal(HostState h, boolean claimsChange, boolean changed) {
    float[] r =
        claimsChange
            ? new float[] {h.signalChangedHeld, h.signalChangedMade}
            : new float[] {h.signalUnchangedHeld, h.signalUnchangedMade};
    SignalTrust.record(r, claimsChange == changed);
    if (claimsChange) {
      h.signalChangedHeld = r[0];
      h.signalChangedMade = r[1];
    } else {
      h.signalUnchangedHeld = r[0];
      h.signalUnchangedMade = r[1];
    }
  }

  /**
   * A change signal between fetches (a page discovered again with {@link StatusEvent#SIGNAL_KEY}):
   * if the host's "unchanged" claims are trusted, a page said to be unchanged since its fetch was
   * fresh at the signal (its age restarts there, and its next fetch learns "unchanged until then").
   * Returns whether the page's value changed; an untrusted signal, or a "changed" one, changes
   * nothing. "Unchanged" claims need {@code signals.min-trust-unchanged}: their errors fall on the
   * pages that change most, and each one costs the page's freshness until the host admits the
   * change.
   */
  boolean signal(HostState h, PageState p, StatusEvent e, long now) {
    if (p.neverFetched()) {
      return false;
    }
    long date = signalDate(e);
    if (date < 0) {
      return false;
    }
    ChangeStats s = new ChangeStats(p.changeShape, p.changeRate);
    if (cfg.estimator.isKnown(s)) {
      return false; // a known rate plans from its age as is
    }
    if (date > p.lastFetch) {
      // A "changed" claim only dates the change for the estimator, at the next fetch. Made
      // certainly stale (worth its value ceiling, infinite under a shape-1 posterior), every page a
      // late sitemap admits had changed went before every other page of its host, which cost
      // freshness with stale hosts and gained nothing with truthful ones
      // (docs/decisions/estimator-and-learned-rates.md).
      return false;
    }
    long at = Math.min(now, e.time());
    if (!trusted(h, false) || at <= p.ageStart()) {
      return false;
    }
    p.ageFrom = at;
    return true;
  }
}
