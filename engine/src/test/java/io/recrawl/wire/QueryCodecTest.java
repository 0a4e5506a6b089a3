package io.recrawl.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Queries on the control topic and their answers, as JSON. */
class QueryCodecTest {

  private final ControlMessageCodec codec = new ControlMessageCodec(-1);

  @Test
  void aQueryTravelsInAControlMessageAndItsHostIsKeyedAsTheEventsAre() {
    StateQuery q =
        new StateQuery(
            "id-1",
            StateQuery.Op.LIST_URLS,
            1_000,
            "news",
            "WWW.Example.COM:80",
            null,
            10,
            20,
            true,
            0,
            "/a",
            true,
            null);
    ControlMessage m = codec.parse(ControlMessageCodec.toJson(ControlMessage.query(q)), 0).value();
    assertThat(m.kind()).isEqualTo(ControlMessage.Kind.QUERY);
    assertThat(m.time()).isEqualTo(1_000);
    assertThat(m.query()).isEqualTo(withHost(q, "www.example.com"));
  }

  @Test
  void aUrlStatusQueryIsKeyedByItsUrlsHostWhateverQueueWasNamed() {
    StateQuery q = StateQuery.urlStatus("id-2", 1_000, null, "HTTP://B.example/x");
    StateQuery read =
        codec.parse(ControlMessageCodec.toJson(ControlMessage.query(q)), 0).value().query();
    assertThat(read.host()).isEqualTo("b.example");
    assertThat(read.url()).isEqualTo("http://b.example/x");
  }

  @Test
  void aBadQueryIsADeadLetterWithItsReason() {
    Parsed<ControlMessage> unknown =
        codec.parse("{\"type\":\"query\",\"time\":1,\"id\":\"x\",\"op\":\"drop_all\"}", 0);
    assertThat(unknown.deadLetter().reason()).isEqualTo(DeadLetterReason.BAD_QUERY);
    Parsed<ControlMessage> noHost =
        codec.parse("{\"type\":\"query\",\"time\":1,\"id\":\"x\",\"op\":\"delete_host\"}", 0);
    assertThat(noHost.deadLetter().reason()).isEqualTo(DeadLetterReason.BAD_QUERY);
    Parsed<ControlMessage> tooMany =
        codec.parse(
            "{\"type\":\"query\",\"time\":1,\"id\":\"x\",\"op\":\"list_urls\",\"size\":100000}", 0);
    assertThat(tooMany.deadLetter().reason()).isEqualTo(DeadLetterReason.BAD_QUERY);
  }

  @Test
  void anAnswerReadsBackEqual() {
    QueryAnswer a =
        new QueryAnswer(
            "id",
            1,
            2,
            5_000,
            3,
            1,
            1,
            List.of("a.example"),
            List.of(
                new QueryAnswer.Page(
                    PageKeys.of("news", "http://a.example/"),
                    "a.example",
                    CrawlStatus.FETCHED,
                    10,
                    Long.MAX_VALUE,
                    true,
                    Map.of(StatusEvent.REFETCH_AT_KEY, List.of("20")))),
            false,
            null);
    assertThat(QueryCodec.parseAnswer(QueryCodec.toJson(a), 0).value()).isEqualTo(a);
  }

  private static StateQuery withHost(StateQuery q, String host) {
    return new StateQuery(
        q.id(),
        q.op(),
        q.time(),
        q.crawl(),
        host,
        q.url(),
        q.start(),
        q.size(),
        q.includeInactive(),
        q.until(),
        q.filter(),
        q.ignoreCase(),
        q.after());
  }
}
