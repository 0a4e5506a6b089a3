package io.recrawl.flink.tools.frontier;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;

/**
 * StormCrawler's OpenSearch/Elasticsearch status index as JSON lines: each line a document's {@code
 * _source} ({@code url}, {@code status}, {@code nextFetchDate}, {@code metadata}, and the routing
 * key, by default {@code key}), or a whole hit holding it under {@code _source}, as elasticdump and
 * {@code _search} scrolls write them. The host key is recomputed, not read.
 */
final class OpenSearchRows extends RowSource {

  private static final ObjectMapper JSON = new ObjectMapper();

  OpenSearchRows(BufferedReader in) {
    super(in);
  }

  @Override
  public Record nextRecord() throws IOException {
    return nextLine(false);
  }

  @Override
  Object parseRecord(Record r) {
    return rowOf(r, OpenSearchRows::parse);
  }

  static FrontierRow parse(String s, long line) throws RowRejection {
    JsonNode o;
    try {
      o = JSON.readTree(s);
    } catch (JsonProcessingException e) {
      throw new RowRejection("malformed_json", e.getOriginalMessage());
    }
    if (o == null || !o.isObject()) {
      throw new RowRejection("not_an_object", "a line must be one JSON object");
    }
    if (o.has("_source")) {
      o = o.get("_source");
      if (!o.isObject()) {
        throw new RowRejection("not_an_object", "_source is not an object");
      }
    }
    JsonNode url = o.get("url");
    if (url == null || url.isNull()) {
      throw new RowRejection("missing_field:url", "no url");
    }
    if (!url.isTextual()) {
      throw new RowRejection("bad_url", "url is not text");
    }
    JsonNode status = o.get("status");
    if (status == null || status.isNull()) {
      throw new RowRejection("missing_field:status", "no status");
    }
    JsonNode next = o.get("nextFetchDate");
    long nextFetch =
        next == null || next.isNull()
            ? FrontierRow.NEVER
            : StormCrawlerFields.time(next.asText()); // epoch ms as a number, or text
    return new FrontierRow(
        line,
        url.asText(),
        StormCrawlerFields.status(status.asText()),
        nextFetch,
        StormCrawlerFields.fromOpenSearch(o.get("metadata")),
        s);
  }
}
