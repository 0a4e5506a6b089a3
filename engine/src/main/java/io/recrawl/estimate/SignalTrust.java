package io.recrawl.estimate;

/**
 * How far a host's change signals (a sitemap's {@code lastmod}, a feed's date, a ping) can be
 * trusted, learned from the crawl itself. A signal is a claim about the page: "changed since your
 * last fetch" (its date is after that fetch) or "unchanged since" (its date is not). Each fetch
 * checks the claim the signal makes at that moment against the fetch's own verdict, and the host
 * keeps, for each kind of claim, how many it made and how many held. A claim kind is used only once
 * its agreement, estimated with one pseudo-claim held and one broken (Laplace), reaches the
 * configured trust: a host whose signals lie is never used, so it costs nothing; a truthful one is
 * used after about 20 checks.
 *
 * <p>The two kinds are kept apart because hosts fail them differently: a sitemap regenerated late
 * says "unchanged" of pages that changed, but its "changed" claims hold; one that stamps every
 * entry "now" says "changed" of pages that did not.
 */
public final class SignalTrust {

  /** Beyond this many claims of one kind, older ones are discounted (trust follows the host). */
  public static final float MAX_CLAIMS = 200f;

  private SignalTrust() {}

  /** The estimated share of claims that hold: (held + 1) / (made + 2). */
  public static double agreement(float held, float made) {
    return (held + 1.0) / (made + 2.0);
  }

  /** Whether claims with this record are trusted at {@code minTrust}. */
  public static boolean trusted(float held, float made, double minTrust) {
    return minTrust <= 1 && agreement(held, made) >= minTrust;
  }

  /**
   * The record {held, made} after one more claim; {@code out} gets the new values. Past {@link
   * #MAX_CLAIMS} both are scaled down so that the record forgets geometrically.
   */
  public static void record(float[] heldMade, boolean held) {
    float h = heldMade[0] + (held ? 1 : 0);
    float m = heldMade[1] + 1;
    if (m > MAX_CLAIMS) {
      h *= MAX_CLAIMS / m;
      m = MAX_CLAIMS;
    }
    heldMade[0] = h;
    heldMade[1] = m;
  }
}
