package io.recrawl.engine;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every engine key ({@code recrawl.engine.*} in the job's configuration), declared once with its
 * default and meaning. {@link EngineConfig} reads them; {@code config/recrawl.yaml} and
 * docs/configuration.md are generated from this table and checked against it.
 */
public final class EngineKeys {

  private EngineKeys() {}

  /** key -> [default, description], in the order of the docs. */
  public static final Map<String, String[]> ALL = new LinkedHashMap<>();

  static {
    doc("objective", "freshness", "freshness | harmonic-staleness | changes-caught");
    doc("host.max-rate", "86400", "default host rate limit, crawls per day (86400 = one a second)");
    doc(
        "host.min-rate",
        "1",
        "the lowest rate limit any evidence (crawl-delay, push-back, response times) can give a host, crawls per day; a host that needs less is blocked or parked instead");
    doc(
        "host.rate-ceiling",
        "8640000",
        "the highest rate limit a host_rate override may set, crawls per day (8640000 = 100 a second); overrides outside [host.min-rate, host.rate-ceiling] are dead letters");
    doc(
        "politeness.push-back",
        "true",
        "honour the host's push-back (429/503, Retry-After, outages, response times); false ignores it and keeps the configured limit (for comparison runs only)");
    doc(
        "politeness.retry-after.max",
        "1 d",
        "the longest block a Retry-After can ask for; a value that is absurd or beyond this blocks for this long; a date in the past means now");
    doc(
        "politeness.backoff.initial",
        "1 min",
        "how long a 429/503 without Retry-After, or a host outage, blocks the host the first time");
    doc(
        "politeness.backoff.max",
        "1 d",
        "the back-off doubles with each push-back in a row, up to this");
    doc(
        "politeness.backoff.jitter",
        "0.25",
        "each back-off is scaled by a factor drawn from [1 - jitter, 1 + jitter], so hosts blocked together do not return together");
    doc(
        "politeness.backoff.forgive-after",
        "10",
        "successful fetches after which the push-backs in a row are forgiven (the next back-off starts again at the initial one)");
    doc(
        "politeness.backoff.forgive-quiet",
        "1 d",
        "a push-back this long after the previous one starts again at the initial back-off");
    doc(
        "politeness.outage.min-failures",
        "4",
        "a host is down when at least this many of its last 16 fetches got no answer (a connection failure or a 5xx) and they are more than politeness.outage.failure-share of them: the host is backed off as a whole and its pages keep their schedules");
    doc(
        "politeness.outage.failure-share",
        "0.5",
        "see politeness.outage.min-failures; a page that fails while its host answers others moves towards ERROR (fetch-error.max)");
    doc(
        "politeness.response-time",
        "true",
        "learn the host's capacity from fetch.loadingTime: its rate steps down while response times rise above their baseline, and back up while they stay flat");
    doc(
        "politeness.response-time.slow",
        "8",
        "the rate steps down a tenth (once an hour at most) while recent response times run above this many times their baseline");
    doc(
        "politeness.response-time.flat",
        "4",
        "a learned capacity steps back up (once an hour at most) while recent response times stay within this many times their baseline, or none are reported");
    doc(
        "politeness.capacity.on-429",
        "0.9",
        "a 429 outside a block sets the host's capacity to this share of its rate then");
    doc(
        "politeness.capacity.step-up",
        "0.01",
        "how much a learned capacity grows in an hour of answers that are not slow, as a share, until it reaches the configured limit and is forgotten");
    doc(
        "robots.max-crawl-delay",
        "1 d",
        "a robots.txt crawl-delay above this, or longer than 1 d / host.min-rate (no rate limit is slower), parks the host: nothing is sent to it for a day, or for the crawl-delay if longer (at most this), and until robots evidence within both limits arrives");
    doc("revisit.min-interval", "1 h", "never recrawl a page more often than this");
    doc("revisit.max-interval", "0", "recrawl every page at least this often; 0 = no floor");
    doc("lease", "1 h", "a released URL is released again if no status comes back within this");
    doc(
        "host.in-flight",
        "0",
        "the most URLs a host may have in flight (released, no status yet), as so long of its rate limit, at least one; 0 = half the lease. A crawler that takes a host's URLs more slowly than its limit (a pull of a few queues an ask) holds at most this much of them waiting");
    doc(
        "lease.max",
        "0",
        "each lease that runs out without a status doubles the next one of the URL, up to this (a crawler that is down is not sent the same URL every lease period); a status resets it; 0 = 24 x lease");
    doc(
        "due.bucket",
        "1 min",
        "width of the due-time buckets; a page is released at most this late");
    doc(
        "timer.recheck",
        "6 h",
        "a page that waits longer is re-checked against the threshold three quarters of the way through its wait, but no more often than this");
    doc(
        "timer.horizon",
        "7 d",
        "the longest a page waits between two re-checks (a page never worth a crawl is re-checked this often)");
    doc(
        "fetch-error.backoff",
        "2 h",
        "retry delay after the first fetch error; doubles per consecutive error");
    doc(
        "fetch-error.max",
        "3",
        "consecutive fetch errors after which a page becomes ERROR; a whole number up to 32 (each retry waits twice as long as the one before: after the 31st, 2^30 back-offs)");
    doc("error.retry-interval", "0", "retry ERROR pages after this; 0 = never");
    doc("error.remove", "false", "remove ERROR pages from state instead of keeping them");
    doc(
        "error.purge-after",
        "30 d",
        "an ERROR page that has stayed ERROR this long leaves state (counted in pagesRemoved; a later discovery brings it back); a host left without pages keeps its record while its politeness evidence still holds; 0 = keep ERROR pages");
    doc(
        "host.max-pages",
        "10000000",
        "most pages one host keeps in state; a status event for a new page of a full host is a host_full dead letter");
    doc(
        "host-rates.max",
        "100000",
        "most host_rate overrides kept (broadcast state, on the heap of every subtask); an override for one more host is a rate_table_full dead letter");
    doc("weight.default", "1.0", "weight of a page whose events carry none");
    doc("estimator.prior-rate", "1.0", "prior mean change rate, changes per day");
    doc("estimator.prior-shape", "1.0", "weight of the prior, in observations");
    doc(
        "estimator.max-shape",
        "200",
        "cap on the evidence kept; lower forgets faster and follows drift");
    doc(
        "estimator.host-prior",
        "true",
        "plan a page with little evidence from its host's other pages (the mean of their estimated change rates, estimator.prior-rate counting as one page) instead of from estimator.prior-rate alone");
    doc(
        "estimator.expected-value",
        "true",
        "the crawl value is averaged over the change-rate posterior (freshness objective): a page whose rate is uncertain is worth more and is never written off on thin evidence; false = the value at the planned rate (see estimator.optimism)");
    doc(
        "estimator.posterior",
        "grid",
        "gamma = the page's Gamma posterior updated in place (changed verdicts by moment matching); grid = the posterior on a fixed grid in ln(rate) from the page's evidence (4 floats) under a prior learned from the crawl (the mean of the pages' posteriors), projected on a Gamma for planning");
    doc(
        "estimator.exploration",
        "0",
        "with estimator.expected-value: the value of learning, β: a page's crawl value is scaled by 1 + β/√shape (its posterior's coefficient of variation), at most 1 + β, so that pages with little evidence are crawled and learned sooner; 0 = off");
    doc(
        "signals.min-trust",
        "0.95",
        "a host's change signals (the sitemap.lastmod metadata of its events: a sitemap's lastmod, a feed's date, a ping): its \"changed since your last fetch\" claims are used once this share of them, checked against fetches, held (estimated with one held and one broken pseudo-claim); above 1 = never used");
    doc(
        "signals.min-trust-unchanged",
        "0.99",
        "the same for \"unchanged since your last fetch\" claims, which restart a page's age: their errors fall on the pages that change most (a sitemap regenerated late), so they need more; above 1 = never used");
    doc(
        "estimator.optimism",
        "0.5",
        "with estimator.expected-value false: plan with this many standard deviations below the median change rate (about the 30 % quantile), so that pages with little evidence get crawled and learned; 0 = plan with the mean");
    doc("curve.min-threshold", "1e-6", "lowest threshold on the demand-curve grid");
    doc("curve.max-threshold", "1e6", "highest threshold on the demand-curve grid");
    doc("curve.points-per-decade", "3", "resolution of the demand-curve grid");
    doc(
        "wake.max-slots",
        "10000",
        "most due slots one wake-up examines; the rest wait for the next");
    doc(
        "metadata.transfer",
        "[]",
        "metadata keys carried from status events into crawl requests; a fetch that brings a new copy (not a 304) replaces them; any other status keeps the values it does not carry, such as last-modified");
    doc(
        "metadata.transfer.max-value-chars",
        "4096",
        "a transferred metadata value longer than this is cut to it (counted in metadataCut)");
    doc(
        "metadata.transfer.max-chars",
        "65536",
        "most characters of transferred metadata per request, keys and quoting included; values"
            + " beyond are dropped (counted)");
  }

  private static void doc(String key, String def, String what) {
    ALL.put(key, new String[] {def, what});
  }
}
