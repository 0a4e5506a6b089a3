package io.recrawl.engine;

import io.recrawl.wire.StatusEvent;
import java.util.List;
import java.util.Map;

/**
 * What the scheduler remembers about one URL: a few dozen bytes, no history.
 *
 * <p>Mutable on purpose: the engine reads a record, changes it, and writes it back through the
 * {@link HostStore}; a store must never rely on in-place mutation being persisted.
 */
public final class PageState {

  /** Importance weight w. */
  public float weight;

  /** Last fetch (or redirect), epoch ms; 0 = never fetched. */
  public long lastFetch;

  /**
   * When the page's age is counted from, epoch ms; 0 = from {@link #lastFetch}. A known change rate
   * that replaces another moves it so that the changes expected since the fetch stay as many as the
   * old rate made them: the new rate holds from now on, not since the fetch.
   */
  public long ageFrom;

  /**
   * Change-rate posterior Gamma(shape, rate), see {@link io.recrawl.estimate.ChangeRateEstimator}.
   */
  public float changeShape;

  public float changeRate;

  /**
   * With {@code estimator.posterior: grid}, the evidence the posterior is computed from (see {@link
   * io.recrawl.estimate.RateGrid.Evidence}): days seen unchanged, changed verdicts, their mean ln
   * gap, dated changes. 0 otherwise.
   */
  public float evidenceUnchanged;

  public float evidenceChanged;
  public float evidenceLnGap;
  public float evidenceDated;

  /** The change rate this page contributes to its host's demand curve (per day); 0 = none. */
  public float curveRate;

  /**
   * The posterior shape it was counted with there; 0 = counted at {@link #curveRate} as a known
   * rate.
   */
  public float curveShape;

  /** Hash of the last content signature; 0 = none. */
  public long signatureHash;

  /** Hash of the last ETag; 0 = none. */
  public int etagHash;

  /** {@link io.recrawl.wire.CrawlStatus} ordinal of the last status. */
  public byte status;

  /**
   * ERROR: when the page became ERROR (its purge clock), epoch ms. FETCH_ERROR: the time of its
   * latest fetch error, so that the same error delivered again is known. 0 = neither.
   */
  public long errorSince;

  /** Consecutive fetch errors. */
  public byte errors;

  /**
   * Set when the page must be released at its next due time whatever its crawl value (a retry, an
   * expired lease).
   */
  public boolean forced;

  /** Leases of this URL run out in a row without a status; each doubles the next lease. */
  public byte expiries;

  /** In flight until this time (epoch ms); 0 = not in flight. */
  public long leaseUntil;

  /** The one queue slot that currently indexes this page; -1 = none. Older slots are stale. */
  public long slot = -1;

  /** Metadata carried into crawl requests (only the configured transfer keys); may be null. */
  public Map<String, List<String>> metadata;

  // Not state (no serializer writes them): a token of the store that holds this very object, and
  // under which URL, so that an in-memory store can answer a re-put or a slot's page without a URL
  // look-up.
  transient Object heldBy;
  transient String heldAs;
  // Not state either: the known change rate text this record's last event carried, and its value
  // (see PageValuation#knownChangeRate).
  transient String knownRateText;
  transient double knownRate;

  public PageState() {}

  public boolean inFlight() {
    return leaseUntil != 0;
  }

  /**
   * The date a client planned this page for (epoch ms, see {@link StatusEvent#REFETCH_AT_KEY}), or
   * 0.
   */
  public long clientDate() {
    List<String> v = metadata == null ? null : metadata.get(StatusEvent.REFETCH_AT_KEY);
    return v == null || v.isEmpty() ? 0 : Long.parseLong(v.get(0).trim());
  }

  public boolean neverFetched() {
    return lastFetch == 0;
  }

  /** The instant the crawl value's age is counted from (see {@link #ageFrom}). */
  public long ageStart() {
    return ageFrom != 0 ? ageFrom : lastFetch;
  }
}
