package io.recrawl.live;

import java.util.List;

/**
 * How one host of the live web behaves.
 *
 * @param name the host name, resolved to 127.0.0.1 through the benchmark's hosts file
 * @param limitMillis the smallest gap the host allows between two requests: its Crawl-delay, else
 *     the one second every crawler of the benchmark keeps by default
 * @param crawlDelaySeconds the robots.txt Crawl-delay, 0 when it sets none
 * @param validators whether it sends ETag and Last-Modified and answers conditional requests
 * @param slowMillis how long it takes to answer, 0 for at once
 * @param spells when it pushes back, in order
 */
public record LiveHost(
    String name,
    long limitMillis,
    int crawlDelaySeconds,
    boolean validators,
    int slowMillis,
    List<Spell> spells) {

  /** A spell of push-back: every answer in [startMillis, endMillis) is {@code status}. */
  public record Spell(long startMillis, long endMillis, int status) {}

  /** The spell at {@code t} (milliseconds since the web started), or null. */
  public Spell spellAt(long t) {
    for (Spell s : spells) {
      if (t >= s.startMillis && t < s.endMillis) {
        return s;
      }
    }
    return null;
  }
}
