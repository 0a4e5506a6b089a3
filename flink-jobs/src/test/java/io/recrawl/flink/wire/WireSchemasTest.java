package io.recrawl.flink.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.recrawl.flink.scheduler.SchedulerOutputs;
import io.recrawl.flink.testutil.RepoFiles;
import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.ControlMessageCodec;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.DeadLetterCodec;
import io.recrawl.wire.PageKeys;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.QueryAnswer;
import io.recrawl.wire.QueryCodec;
import io.recrawl.wire.StateQuery;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.StatusEventCodec;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The JSON Schemas shipped in config/schemas (the public contract) agree with the codecs: what the
 * codecs write validates, what the schema forbids the codecs refuse.
 */
class WireSchemasTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long NOW = 1_800_000_000_000L;

  private static JsonSchema schema(String name) throws Exception {
    JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    SchemaValidatorsConfig config =
        SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();
    try (InputStream in =
        Files.newInputStream(RepoFiles.file("config/schemas/" + name + ".schema.json"))) {
      return factory.getSchema(in, config);
    }
  }

  private static Set<ValidationMessage> errors(JsonSchema schema, String json) throws Exception {
    JsonNode node = JSON.readTree(json);
    return schema.validate(node);
  }

  @Test
  void statusEventsTheCodecAcceptsOrWritesAreValid() throws Exception {
    JsonSchema schema = schema("status-event");
    StatusEventCodec codec = StatusEventCodec.withDefaults();
    List<String> valid =
        List.of(
            "{\"url\":\"http://a.org/\",\"status\":\"FETCHED\",\"time\":1000}",
            "{\"url\":\"https://a.org/\",\"status\":\"DISCOVERED\",\"time\":\"1700000000000\",\"metadata\":{\"a\":\"x\",\"b\":[\"y\",\"z\"],\"c\":200}}",
            "{\"url\":\"http://a.org/\",\"status\":\"ERROR\",\"time\":\"2026-11-21T07:59:00Z\",\"changed\":false,\"weight\":0.5,\"http_status\":404,\"extra\":1}",
            "{\"url\":\"http://a.org/\",\"status\":\"REDIRECTION\",\"time\":\"2026-11-21T09:00:00+02:00\",\"weight\":null}",
            StatusEventCodec.toJson(
                new StatusEvent(
                    "http://a.org/x",
                    "a.org",
                    CrawlStatus.FETCH_ERROR,
                    5,
                    Map.of("k", List.of("v")),
                    true,
                    2.0,
                    503)));
    for (String json : valid) {
      assertThat(codec.parse(json, NOW).ok()).as(json).isTrue();
      assertThat(errors(schema, json)).as(json).isEmpty();
    }
  }

  @Test
  void statusEventsTheSchemaForbidsTheCodecRefuses() throws Exception {
    JsonSchema schema = schema("status-event");
    StatusEventCodec codec = StatusEventCodec.withDefaults();
    List<String> invalid =
        List.of(
            "{\"status\":\"FETCHED\",\"time\":1}",
            "{\"url\":\"http://a.org/\",\"time\":1}",
            "{\"url\":\"http://a.org/\",\"status\":\"FETCHED\"}",
            "{\"url\":\"ftp://a.org/\",\"status\":\"FETCHED\",\"time\":1}",
            "{\"url\":\"http://a.org/\",\"status\":\"DELETED\",\"time\":1}",
            "{\"url\":\"http://a.org/\",\"status\":\"FETCHED\",\"time\":-1}",
            "{\"url\":\"http://a.org/\",\"status\":\"FETCHED\",\"time\":\"yesterday\"}",
            "{\"url\":\"http://a.org/\",\"status\":\"FETCHED\",\"time\":1,\"metadata\":{\"a\":{\"b\":1}}}",
            "{\"url\":\"http://a.org/\",\"status\":\"FETCHED\",\"time\":1,\"changed\":\"yes\"}",
            "{\"url\":\"http://a.org/\",\"status\":\"FETCHED\",\"time\":1,\"weight\":0}",
            "{\"url\":\"http://a.org/\",\"status\":\"FETCHED\",\"time\":1,\"http_status\":99}",
            "[1]");
    for (String json : invalid) {
      assertThat(errors(schema, json)).as(json).isNotEmpty();
      assertThat(codec.parse(json, NOW).ok()).as(json).isFalse();
    }
  }

  @Test
  void serverSignalsAreDocumentedInTheStatusEventSchema() throws Exception {
    JsonNode doc =
        JSON.readTree(Files.readString(RepoFiles.file("config/schemas/status-event.schema.json")));
    assertThat(doc.path("properties").path("http_status").path("description").asText())
        .contains("429")
        .contains("503");
    JsonNode keys = doc.path("properties").path("metadata").path("properties");
    for (String key : List.of("protocol.retry-after", "robots.crawl.delay", "fetch.statusCode")) {
      assertThat(keys.path(key).path("description").asText()).as(key).isNotBlank();
    }
    assertThat(keys.path("protocol.retry-after").path("description").asText())
        .contains("case-insensitively")
        .contains("IMF-fixdate")
        .contains("RFC 850")
        .contains("asctime")
        .contains("clamped to the cap");
    assertThat(keys.path("robots.crawl.delay").path("description").asText()).contains("seconds");

    JsonSchema schema = schema("status-event");
    StatusEventCodec codec = StatusEventCodec.withDefaults();
    for (String json :
        List.of(
            StatusEventCodec.toJson(
                new StatusEvent(
                    "http://a.org/x",
                    "a.org",
                    CrawlStatus.FETCH_ERROR,
                    5,
                    Map.of(
                        "protocol.retry-after", List.of("5"),
                        "robots.crawl.delay", List.of("2"),
                        "fetch.statusCode", List.of("429")),
                    null,
                    null,
                    429)),
            "{\"url\":\"http://a.org/\",\"status\":\"FETCH_ERROR\",\"time\":1,\"http_status\":503,"
                + "\"metadata\":{\"Protocol.Retry-After\":\"Sun, 06 Nov 1994 08:49:37 GMT\","
                + "\"robots.crawl.delay\":0.5}}")) {
      assertThat(errors(schema, json)).as(json).isEmpty();
      Parsed<StatusEvent> p = codec.parse(json, NOW);
      assertThat(p.ok()).as(json).isTrue();
      assertThat(p.value().firstIgnoreCase("protocol.retry-after")).as(json).isNotNull();
      assertThat(p.value().httpStatus()).isIn(429, 503);
    }
  }

  @Test
  void crawlRequestsAsWrittenAreValid() throws Exception {
    JsonSchema schema = schema("crawl-request");
    String json =
        CrawlRequestCodec.toJson(
            new CrawlRequest(
                "http://a.org/", "a.org", Map.of("d", List.of("1")), 1, 2, 0.5, 0.25, 3));
    assertThat(errors(schema, json)).isEmpty();
    assertThat(errors(schema, "{\"url\":\"http://a.org/\",\"host\":\"a.org\"}")).isNotEmpty();
  }

  @Test
  void controlMessagesAsWrittenAreValidAndKindFieldsAreRequired() throws Exception {
    JsonSchema schema = schema("control-message");
    ControlMessageCodec codec = new ControlMessageCodec(-1);
    for (ControlMessage m :
        List.of(
            ControlMessage.tick(1),
            ControlMessage.lambda(2, 3, 0.5),
            ControlMessage.hostRate(4, "a.org", 60),
            ControlMessage.hostLimit(4, "a.org", 60),
            ControlMessage.budget(5, 20_000),
            ControlMessage.query(
                new StateQuery(
                    "q",
                    StateQuery.Op.LIST_URLS,
                    6,
                    "news",
                    "a.org",
                    null,
                    1,
                    2,
                    true,
                    0,
                    "/x",
                    true,
                    "a.org\nhttp://a.org/1")))) {
      assertThat(errors(schema, ControlMessageCodec.toJson(m))).as(m.toString()).isEmpty();
    }
    for (String json :
        List.of(
            "{\"type\":\"lambda\",\"time\":1}",
            "{\"type\":\"host_rate\",\"time\":1,\"host\":\"a.org\"}",
            "{\"type\":\"lambda\",\"time\":1,\"lambda0\":-1}",
            "{\"type\":\"budget\",\"time\":1}",
            "{\"type\":\"budget\",\"time\":1,\"budget\":0}",
            "{\"type\":\"host_limit\",\"time\":1,\"host\":\"a.org\"}",
            "{\"type\":\"host_limit\",\"time\":1,\"host\":\"a.org\",\"max_pages\":-1}",
            "{\"type\":\"query\",\"time\":1,\"id\":\"q\"}",
            "{\"type\":\"query\",\"time\":1,\"id\":\"q\",\"op\":\"drop_all\"}",
            "{\"type\":\"reboot\",\"time\":1}",
            "{\"time\":1}")) {
      assertThat(errors(schema, json)).as(json).isNotEmpty();
      assertThat(codec.parse(json, NOW).ok()).as(json).isFalse();
    }
  }

  @Test
  void queryAnswersAsWrittenAreValidAndACrawlTravelsBesideTheUrl() throws Exception {
    QueryAnswer a =
        new QueryAnswer(
            "q",
            0,
            1,
            5,
            1,
            0,
            1,
            List.of(),
            List.of(
                new QueryAnswer.Page(
                    PageKeys.of("news", "http://a.org/"),
                    "a.org",
                    CrawlStatus.ERROR,
                    3,
                    Long.MAX_VALUE,
                    false,
                    Map.of())),
            false,
            null);
    assertThat(errors(schema("query-answer"), QueryCodec.toJson(a))).isEmpty();
    CrawlRequest r =
        new CrawlRequest(
            PageKeys.of("news", "http://a.org/"), "a.org", Map.of(), 1, 2, 0.5, 0.25, 3);
    assertThat(errors(schema("crawl-request"), CrawlRequestCodec.toJson(r))).isEmpty();
    String event =
        "{\"url\":\"http://a.org/\",\"crawl\":\"news\",\"status\":\"DISCOVERED\",\"time\":1}";
    assertThat(errors(schema("status-event"), event)).isEmpty();
    String tooLong =
        "{\"url\":\"http://a.org/\",\"crawl\":\""
            + "c".repeat(300)
            + "\",\"status\":\"DISCOVERED\",\"time\":1}";
    assertThat(errors(schema("status-event"), tooLong)).isNotEmpty();
    assertThat(StatusEventCodec.withDefaults().parse(tooLong, NOW).ok()).isFalse();
  }

  @Test
  void deadLettersOfEveryReasonAreValid() throws Exception {
    JsonSchema schema = schema("dead-letter");
    StatusEventCodec codec = StatusEventCodec.withDefaults();
    for (String bad :
        List.of(
            "{",
            "[1]",
            "{\"url\":\"x\",\"status\":\"FETCHED\",\"time\":1}",
            "{\"status\":\"FETCHED\"}",
            "{\"url\":\"http://a.org/\",\"status\":\"FETCHED\",\"time\":99999999999999}")) {
      String json = DeadLetterCodec.toJson(codec.parse(bad, NOW).deadLetter());
      assertThat(errors(schema, json)).as(json).isEmpty();
    }
    String seed = DeadLetterCodec.toJson(codec.parseSeed("http://a.org/\uFFFD", NOW).deadLetter());
    assertThat(errors(schema, seed)).as(seed).isEmpty();
    // The scheduler's own reasons.
    for (String reason :
        List.of(
            SchedulerOutputs.BAD_CONTROL,
            SchedulerOutputs.REJECTED_BY_ENGINE,
            SchedulerOutputs.HOST_QUARANTINED,
            io.recrawl.engine.EngineOutcome.HOST_FULL,
            io.recrawl.engine.EngineOutcome.RATE_TABLE_FULL)) {
      String json = DeadLetterCodec.toJson(DeadLetter.of("a.example", reason, "why", NOW));
      assertThat(errors(schema, json)).as(json).isEmpty();
    }
    assertThat(errors(schema, "{\"reason\":\"because\",\"detail\":\"\",\"time\":1,\"raw\":\"\"}"))
        .isNotEmpty();
  }
}
