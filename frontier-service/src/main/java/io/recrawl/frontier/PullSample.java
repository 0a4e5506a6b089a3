package io.recrawl.frontier;

/**
 * The crawler's pull over one period, as the outbox saw it: the {@code GetURLs} calls, how many of
 * them left behind a URL they could have had (the client asked for fewer than were ready), the URLs
 * handed out, and at the period's end the queues with a URL ready and the URLs clients could take
 * within the next period at their hosts' spacing, in queues no client has blocked.
 */
record PullSample(long calls, long leftReady, long taken, int readyQueues, int takeable) {

  /** Calls that took every URL they could have had: the crawler wanted more than there was. */
  long emptied() {
    return calls - leftReady;
  }

  /** Counts calls between samples; not thread-safe (the outbox's lock guards it). */
  static final class Counter {
    private long calls;
    private long leftReady;
    private long taken;

    void call(int handedOut, boolean urlsLeftReady) {
      calls++;
      taken += handedOut;
      if (urlsLeftReady) {
        leftReady++;
      }
    }

    PullSample sample(int readyQueues, int takeable) {
      PullSample s = new PullSample(calls, leftReady, taken, readyQueues, takeable);
      calls = 0;
      leftReady = 0;
      taken = 0;
      return s;
    }
  }
}
