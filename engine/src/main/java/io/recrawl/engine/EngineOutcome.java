package io.recrawl.engine;

import io.recrawl.wire.CrawlRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one or more engine calls on one host decided: the URLs released and why, the host's wake-up
 * before and after, the demand it replaced, what it counted, and a refusal if its input was
 * refused.
 *
 * <p>The caller owns one and reuses it: the engine only adds to it, and the caller {@link #clear}s
 * it once it has applied it (the call's host records were committed) or dropped it (they were
 * rolled back). Nothing of a call reaches the world before its caller applies the outcome, so a
 * call that fails sends nothing. Each runtime applies outcomes its own way: the Flink operator to
 * its timers, outputs and metrics, the local frontier to its timer heap, the importer to its
 * savepoint.
 */
public final class EngineOutcome {

  /** Refusal: a status event for a new page of a host at {@code host.max-pages}. */
  public static final String HOST_FULL = "host_full";

  /** Refusal: a host_rate override for one more host than {@code host-rates.max}. */
  public static final String RATE_TABLE_FULL = "rate_table_full";

  /** Why a host was blocked: the three kinds of push-back {@link #blocks} counts. */
  public enum Block {
    TOO_MANY_REQUESTS("429"),
    UNAVAILABLE("503"),
    OUTAGE("outage");

    private final String label;

    Block(String label) {
      this.label = label;
    }

    /** The block's name in metrics: the status code, or {@code outage}. */
    public String label() {
      return label;
    }
  }

  private final ArrayList<CrawlRequest> releases = new ArrayList<>(2);
  private ReleaseReason[] reasons = new ReleaseReason[2];
  private double[] hostMaxRates = new double[2];

  private boolean wakeMoved;
  private long wakeBefore;
  private long wakeAfter;

  /** (before, after) pairs, in order; usually none or one. */
  private final ArrayList<double[]> demand = new ArrayList<>(2);

  private final int[] blocks = new int[Block.values().length];
  private int leaseExpiries;
  private int parked;
  private int duplicates;
  private int staleStatuses;
  private int metadataCut;
  private int pagesRemoved;
  private int pagesDelta;
  private int hostsDelta;
  private String refusal;
  private String refusalDetail;

  /** Forgets everything: the outcome was applied or dropped. */
  public void clear() {
    releases.clear();
    Arrays.fill(reasons, null);
    wakeMoved = false;
    demand.clear();
    Arrays.fill(blocks, 0);
    leaseExpiries = 0;
    parked = 0;
    duplicates = 0;
    staleStatuses = 0;
    metadataCut = 0;
    pagesRemoved = 0;
    pagesDelta = 0;
    hostsDelta = 0;
    refusal = null;
    refusalDetail = null;
  }

  // ---------------------------------------------------------------- read by the caller

  /** The URLs released, in order. */
  public List<CrawlRequest> releases() {
    return releases;
  }

  /** Why the {@code i}-th release went. */
  public ReleaseReason reason(int i) {
    return reasons[i];
  }

  /**
   * The host's rate limit k_i, crawls per day, when the {@code i}-th release went: what its host
   * lambda priced.
   */
  public double hostMaxRate(int i) {
    return hostMaxRates[i];
  }

  /** Whether the host's single wake-up moved. */
  public boolean wakeMoved() {
    return wakeMoved;
  }

  /** Where the wake-up was before the first move (Long.MAX_VALUE = none); if it moved. */
  public long wakeBefore() {
    return wakeBefore;
  }

  /** Where the wake-up is after the last move (Long.MAX_VALUE = none); if it moved. */
  public long wakeAfter() {
    return wakeAfter;
  }

  /** How many demand replacements there are (see {@link DemandLedger#replace}). */
  public int demandChanges() {
    return demand.size() / 2;
  }

  /** The host's capped demand curve the ledger held before the {@code i}-th change; may be null. */
  public double[] demandBefore(int i) {
    return demand.get(2 * i);
  }

  /** The host's capped demand curve after the {@code i}-th change; may be null. */
  public double[] demandAfter(int i) {
    return demand.get(2 * i + 1);
  }

  /** Blocks of the host of one kind: each a push-back that started a new block. */
  public int blocks(Block kind) {
    return blocks[kind.ordinal()];
  }

  /** Released URLs whose lease ran out without a status: they go again. */
  public int leaseExpiries() {
    return leaseExpiries;
  }

  /** Times the host was parked: its robots.txt asked for a crawl-delay above the maximum. */
  public int parked() {
    return parked;
  }

  /** DISCOVERED events for a URL already in state that brought nothing new. */
  public int duplicates() {
    return duplicates;
  }

  /** Statuses older than their page's last visit, or that visit delivered again: ignored. */
  public int staleStatuses() {
    return staleStatuses;
  }

  /** Metadata values shortened or dropped to keep a page's crawl requests bounded. */
  public int metadataCut() {
    return metadataCut;
  }

  /** Pages removed from state (ERROR with error.remove, or purged by error.purge-after). */
  public int pagesRemoved() {
    return pagesRemoved;
  }

  /** The change in the number of pages in state. */
  public int pagesDelta() {
    return pagesDelta;
  }

  /** The change in the number of hosts in state. */
  public int hostsDelta() {
    return hostsDelta;
  }

  /**
   * The reason the input was refused ({@link #HOST_FULL}, {@link #RATE_TABLE_FULL}), changing no
   * page, so that the caller dead-letters it; null = not refused.
   */
  public String refusal() {
    return refusal;
  }

  /** What a refusal says, for its dead letter. */
  public String refusalDetail() {
    return refusalDetail;
  }

  // ---------------------------------------------------------------- written by the engine

  void released(CrawlRequest request, ReleaseReason reason, double hostMaxRate) {
    int i = releases.size();
    if (i == reasons.length) {
      reasons = Arrays.copyOf(reasons, 2 * i);
      hostMaxRates = Arrays.copyOf(hostMaxRates, 2 * i);
    }
    releases.add(request);
    reasons[i] = reason;
    hostMaxRates[i] = hostMaxRate;
  }

  void wakeMoved(long previous, long next) {
    if (!wakeMoved) {
      wakeBefore = previous;
      wakeMoved = true;
    }
    wakeAfter = next;
  }

  void demandReplaced(double[] before, double[] after) {
    demand.add(before);
    demand.add(after);
  }

  void blocked(Block kind) {
    blocks[kind.ordinal()]++;
  }

  void leaseExpired() {
    leaseExpiries++;
  }

  void hostParked() {
    parked++;
  }

  void duplicate() {
    duplicates++;
  }

  void staleStatus() {
    staleStatuses++;
  }

  void metadataCut(int values) {
    metadataCut += values;
  }

  void pageRemoved() {
    pagesRemoved++;
  }

  void stateChanged(int pages, int hosts) {
    pagesDelta += pages;
    hostsDelta += hosts;
  }

  /**
   * The input is refused; public for the callers that refuse an input before the engine sees it.
   */
  public void refuse(String reason, String detail) {
    refusal = reason;
    refusalDetail = detail;
  }
}
