package io.recrawl.wire;

import java.util.List;
import java.util.Map;

/**
 * One subtask's answer to a {@link StateQuery} (topic {@code crawl.answers}): the asker has the
 * whole answer once it holds {@link #parts} answers with distinct {@link #part}s.
 *
 * @param id the query's id
 * @param part this subtask's index
 * @param parts how many answers there are: 1 for a query of one host, else the parallelism
 * @param asOf the event time the answer holds at, epoch ms: every request released before it was
 *     sent before the answer
 * @param count pages (stats, counts, lists of pages), hosts (host lists), or pages removed
 * @param inFlight pages released and not yet answered (stats)
 * @param hosts hosts with pages of the crawl (stats)
 * @param names host keys in key order, or crawls (lists)
 * @param pages pages (URL status, page lists)
 * @param cut whether the answer was cut to keep it under {@link QueryCodec#MAX_ANSWER_CHARS}
 * @param error why the query was not answered, or null
 */
public record QueryAnswer(
    String id,
    int part,
    int parts,
    long asOf,
    long count,
    long inFlight,
    long hosts,
    List<String> names,
    List<Page> pages,
    boolean cut,
    String error) {

  public QueryAnswer {
    names = names == null ? List.of() : List.copyOf(names);
    pages = pages == null ? List.of() : List.copyOf(pages);
  }

  /**
   * A page as the job holds it.
   *
   * @param key the page key ({@link PageKeys}: crawl and URL)
   * @param host its host key
   * @param status its last status
   * @param lastFetch its last fetch, epoch ms; 0 = never
   * @param due when it is next due, epoch ms; 0 = not planned, {@code Long.MAX_VALUE} = never
   * @param inFlight whether a request for it is out
   * @param metadata the metadata it keeps for its requests
   */
  public record Page(
      String key,
      String host,
      CrawlStatus status,
      long lastFetch,
      long due,
      boolean inFlight,
      Map<String, List<String>> metadata) {}
}
