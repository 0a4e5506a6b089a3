package io.recrawl.live;

/**
 * One system's figures, as the web server saw its requests.
 *
 * @param freshness weighted, time-averaged freshness over the measurement window
 * @param freshnessLight the same without the heaviest 1 % of pages (at least one), so that a
 *     comparison is seen not to rest on a few pages
 * @param requests every request the server received, robots.txt included, over the whole run
 * @param fetches answers 200 or 304 to page requests within the measurement window
 * @param politenessViolations two requests to one host (robots.txt aside) closer than its limit
 * @param minGapOverLimit the smallest such gap over its host's limit (NaN: no host asked twice)
 * @param inRetryAfter requests to a host before the end of a Retry-After it had answered
 * @param underCrawlDelay violations on hosts whose robots.txt sets a Crawl-delay
 * @param pushBackAnswers 429 and 503 answers
 * @param notModified 304 answers
 * @param seriesSeconds the middle of each bucket of the freshness series, seconds since the start
 * @param seriesFreshness the weighted freshness in each bucket
 */
public record LiveFigures(
    String system,
    double freshness,
    double freshnessLight,
    long requests,
    long fetches,
    long politenessViolations,
    double minGapOverLimit,
    long inRetryAfter,
    long underCrawlDelay,
    long pushBackAnswers,
    long notModified,
    double[] seriesSeconds,
    double[] seriesFreshness) {}
