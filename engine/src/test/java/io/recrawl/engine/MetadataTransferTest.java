package io.recrawl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.CrawlStatus;
import io.recrawl.wire.StatusEvent;
import io.recrawl.wire.Urls;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Transferred metadata is bounded per value and per request, and cuts are counted. */
class MetadataTransferTest {

  private static StatusEvent event(Map<String, List<String>> md) {
    return new StatusEvent("http://a.org/", "a.org", CrawlStatus.FETCHED, 1, md, null, null, null);
  }

  @Test
  void smallMetadataIsKeptAsItCameAndNothingIsCounted() {
    MetadataTransfer t =
        new MetadataTransfer(EngineConfig.with(Map.of("metadata.transfer", List.of("a", "b"))));
    PageState p = new PageState();
    EngineOutcome cuts = new EngineOutcome();
    t.keep(p, event(Map.of("a", List.of("1", "2"), "b", List.of("x"), "c", List.of("no"))), cuts);
    assertThat(p.metadata).isEqualTo(Map.of("a", List.of("1", "2"), "b", List.of("x")));
    assertThat(cuts.metadataCut()).isZero();
  }

  @Test
  void a304KeepsWhatItDoesNotRepeatAndA200ReplacesIt() {
    MetadataTransfer t =
        new MetadataTransfer(
            EngineConfig.with(Map.of("metadata.transfer", List.of("depth", "last-modified"))));
    PageState p = new PageState();
    p.metadata = Map.of("depth", List.of("1"), "last-modified", List.of("2025-11-01T10:00:00Z"));
    t.keep(
        p,
        new StatusEvent(
            "http://a.org/",
            "a.org",
            CrawlStatus.FETCHED,
            1,
            Map.of("depth", List.of("2")),
            null,
            null,
            304),
        new EngineOutcome());
    assertThat(p.metadata)
        .isEqualTo(Map.of("depth", List.of("2"), "last-modified", List.of("2025-11-01T10:00:00Z")));
    // A 200 without it: the date belonged to the version the 200 replaced.
    t.keep(
        p,
        event(Map.of("depth", List.of("3"), "fetch.statusCode", List.of("200"))),
        new EngineOutcome());
    assertThat(p.metadata).isEqualTo(Map.of("depth", List.of("3")));
  }

  @Test
  void oneRuleForWhatAStatusKeepsOnlyANewCopyDropsTheValidatorsItDoesNotCarry() {
    MetadataTransfer t =
        new MetadataTransfer(
            EngineConfig.with(
                Map.of("metadata.transfer", List.of("depth", "etag", "last-modified"))));
    Map<String, List<String>> before =
        Map.of(
            "depth", List.of("1"),
            "etag", List.of("\"v1\""),
            "last-modified", List.of("2025-11-01T10:00:00Z"));
    record Case(CrawlStatus status, Integer code, boolean newCopy) {}
    List<Case> cases =
        List.of(
            new Case(CrawlStatus.FETCHED, 200, true),
            new Case(CrawlStatus.FETCHED, null, true),
            new Case(CrawlStatus.FETCHED, 304, false),
            new Case(CrawlStatus.FETCH_ERROR, 500, false),
            new Case(CrawlStatus.FETCH_ERROR, null, false),
            new Case(CrawlStatus.REDIRECTION, 301, false),
            new Case(CrawlStatus.ERROR, 404, false));
    for (Case c : cases) {
      for (boolean carriesDepth : List.of(true, false)) {
        PageState p = new PageState();
        p.metadata = before;
        Map<String, List<String>> md =
            carriesDepth
                ? Map.of("depth", List.of("2"), "x", List.of("y"))
                : Map.of("x", List.of("y"));
        t.keep(
            p,
            new StatusEvent("http://a.org/", "a.org", c.status(), 1, md, null, null, c.code()),
            new EngineOutcome());
        Map<String, List<String>> expected =
            new java.util.HashMap<>(c.newCopy() ? Map.of() : before);
        if (carriesDepth) {
          expected.put("depth", List.of("2"));
        }
        assertThat(p.metadata == null ? Map.of() : p.metadata)
            .as(c + (carriesDepth ? " carrying depth" : " carrying no kept key"))
            .isEqualTo(expected);
      }
    }
  }

  @Test
  void aLongValueIsCutAndCounted() {
    MetadataTransfer t =
        new MetadataTransfer(
            EngineConfig.with(
                Map.of(
                    "metadata.transfer", List.of("a"), "metadata.transfer.max-value-chars", 10)));
    PageState p = new PageState();
    EngineOutcome cuts = new EngineOutcome();
    t.keep(p, event(Map.of("a", List.of("0123456789abc", "short", "012345678\uD83D\uDE00"))), cuts);
    assertThat(p.metadata.get("a")).containsExactly("0123456789", "short", "012345678");
    assertThat(cuts.metadataCut()).isEqualTo(2);
  }

  @Test
  void valuesBeyondTheRequestBudgetAreDroppedInKeyOrderAndCounted() {
    MetadataTransfer t =
        new MetadataTransfer(
            EngineConfig.with(
                Map.of("metadata.transfer", List.of("b", "a"), "metadata.transfer.max-chars", 30)));
    PageState p = new PageState();
    EngineOutcome cuts = new EngineOutcome();
    // a: 1 + 6, then "0123456789" 10 + 3 = 20 used; "xxxxxxxx" 11 more: 31 > 30, dropped;
    // b: 1 + 6 = 27, "y" + 3 = 31 > 30, dropped.
    t.keep(p, event(Map.of("a", List.of("0123456789", "xxxxxxxx"), "b", List.of("y"))), cuts);
    assertThat(p.metadata).isEqualTo(Map.of("a", List.of("0123456789"), "b", List.of()));
    assertThat(cuts.metadataCut()).isEqualTo(2);
  }

  @Test
  void aCrawlRequestStaysUnderAFixedSizeWhateverTheStatusCarried() {
    List<String> keys = List.of("k1", "k2", "k3");
    MetadataTransfer t = new MetadataTransfer(EngineConfig.with(Map.of("metadata.transfer", keys)));
    Map<String, List<String>> md = new LinkedHashMap<>();
    for (String k : keys) {
      List<String> values = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        values.add("\u0001€".repeat(5_000)); // 6 bytes escaped, 3 in UTF-8
      }
      values.addAll(java.util.Collections.nCopies(100_000, ""));
      md.put(k, values);
    }
    PageState p = new PageState();
    EngineOutcome cuts = new EngineOutcome();
    t.keep(p, event(md), cuts);
    assertThat(cuts.metadataCut()).isPositive();
    String url = "http://a.org/" + "\u20ac".repeat(Urls.MAX_URL_CHARS - 13);
    CrawlRequest r =
        new CrawlRequest(url, "a.org", p.metadata, Long.MAX_VALUE, 0, -Double.MAX_VALUE, 1e-300, 0);
    int bytes = CrawlRequestCodec.toJson(r).getBytes(StandardCharsets.UTF_8).length;
    EngineConfig d = EngineConfig.defaults();
    int bound = 6 * (2 * Urls.MAX_URL_CHARS + d.metadataMaxChars) + 512;
    assertThat(bytes).isLessThanOrEqualTo(bound).isGreaterThan(d.metadataMaxChars);
    assertThat(bound).isLessThan(1_000_000); // Kafka's default max.request.size is 1 MB
  }
}
