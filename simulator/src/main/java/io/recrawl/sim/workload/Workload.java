package io.recrawl.sim.workload;

import java.util.Arrays;

/**
 * A simulated crawl: pages (URL, host, weight, true change rate per day) and hosts (maximum crawls
 * per day, +infinity when unlimited), and, for a real history, the pages' observed change times
 * ({@link ChangeHistory}). Held in primitive arrays so a million pages stay cheap.
 */
public final class Workload {

  private final String[] urls;
  private final int[] hostOf;
  private final double[] weight;
  private final double[] changeRate;
  private final String[] hostNames;
  private final double[] hostMaxRate;
  private final ChangeHistory history;

  public Workload(
      String[] urls,
      int[] hostOf,
      double[] weight,
      double[] changeRate,
      String[] hostNames,
      double[] hostMaxRate) {
    this(urls, hostOf, weight, changeRate, hostNames, hostMaxRate, null);
  }

  /** A workload whose pages' observed changes are given ({@code history}; null = none). */
  public Workload(
      String[] urls,
      int[] hostOf,
      double[] weight,
      double[] changeRate,
      String[] hostNames,
      double[] hostMaxRate,
      ChangeHistory history) {
    int n = urls.length;
    if (hostOf.length != n
        || weight.length != n
        || changeRate.length != n
        || hostNames.length != hostMaxRate.length
        || (history != null && history.pages() != n)) {
      throw new IllegalArgumentException("array lengths disagree");
    }
    this.urls = urls;
    this.hostOf = hostOf;
    this.weight = weight;
    this.changeRate = changeRate;
    this.hostNames = hostNames;
    this.hostMaxRate = hostMaxRate;
    this.history = history;
  }

  /** The pages' observed changes, or null: every page changes as a Poisson process. */
  public ChangeHistory history() {
    return history;
  }

  public int pages() {
    return urls.length;
  }

  public int hosts() {
    return hostNames.length;
  }

  public String url(int page) {
    return urls[page];
  }

  public int hostOf(int page) {
    return hostOf[page];
  }

  public double weight(int page) {
    return weight[page];
  }

  public double changeRate(int page) {
    return changeRate[page];
  }

  public String hostName(int host) {
    return hostNames[host];
  }

  /** Maximum crawls per day for the host; +infinity when the host is unlimited. */
  public double hostMaxRate(int host) {
    return hostMaxRate[host];
  }

  public boolean constrained(int host) {
    return hostMaxRate[host] != Double.POSITIVE_INFINITY;
  }

  /** Number of pages on each host. */
  public int[] hostSizes() {
    int[] sizes = new int[hostNames.length];
    for (int h : hostOf) {
      sizes[h]++;
    }
    return sizes;
  }

  public double[] weights() {
    return weight.clone();
  }

  public double[] changeRates() {
    return changeRate.clone();
  }

  public int[] hostIndex() {
    return hostOf.clone();
  }

  public double[] hostMaxRates() {
    return hostMaxRate.clone();
  }

  public long constrainedHosts() {
    return Arrays.stream(hostMaxRate).filter(r -> r != Double.POSITIVE_INFINITY).count();
  }
}
