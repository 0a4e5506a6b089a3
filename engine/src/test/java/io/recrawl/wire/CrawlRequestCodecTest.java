package io.recrawl.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CrawlRequestCodecTest {

  @Test
  void roundTrips() {
    for (CrawlRequest r :
        List.of(
            new CrawlRequest(
                "http://a.org/x",
                "a.org",
                Map.of("depth", List.of("1"), "tags", List.of("a", "b")),
                10,
                5,
                0.75,
                0.5,
                3_600_010,
                1_000),
            new CrawlRequest("https://b.org:8443/", "b.org:8443", Map.of(), 0, 0, 0, 0, 0))) {
      String json = CrawlRequestCodec.toJson(r);
      assertThat(CrawlRequestCodec.parse(json, 0).value()).as(json).isEqualTo(r);
    }
  }

  @Test
  void anUnboundedValueGoesOutAsTheLargestDoubleAndComesBack() {
    CrawlRequest r =
        new CrawlRequest("http://a.org/", "a.org", Map.of(), 1, 1, Double.POSITIVE_INFINITY, 1, 2);
    assertThat(r.value()).isEqualTo(Double.MAX_VALUE);
    String json = CrawlRequestCodec.toJson(r);
    assertThat(json).contains("\"value\":1.7976931348623157E308");
    assertThat(CrawlRequestCodec.parse(json, 0).value()).isEqualTo(r);
  }

  @Test
  void fieldNamesAreTheContract() {
    String json =
        CrawlRequestCodec.toJson(
            new CrawlRequest(
                "http://a.org/", "a.org", Map.of("k", List.of("v")), 1, 2, 3.5, 4.5, 5, 6));
    assertThat(json)
        .isEqualTo(
            "{\"url\":\"http://a.org/\",\"host\":\"a.org\",\"metadata\":{\"k\":[\"v\"]},\"time\":1,\"due\":2,\"value\":3.5,\"threshold\":4.5,\"lease\":5,\"spacing\":6}");
  }

  @Test
  void aRequestOfAnOlderJobStatesNoSpacingAndANegativeOneIsRefused() {
    String old =
        "{\"url\":\"http://a.org/\",\"host\":\"a.org\",\"time\":1,\"due\":1,\"value\":1,\"threshold\":1,\"lease\":1";
    assertThat(CrawlRequestCodec.parse(old + "}", 0).value().spacing()).isZero();
    assertThat(CrawlRequestCodec.parse(old + ",\"spacing\":-5}", 0).deadLetter().reason())
        .isEqualTo("bad_number");
  }

  @Test
  void refusesMissingAndBadFields() {
    assertThat(CrawlRequestCodec.parse("{\"url\":\"http://a.org/\"}", 0).deadLetter().reason())
        .isEqualTo("missing_field:host");
    assertThat(
            CrawlRequestCodec.parse(
                    "{\"url\":\"http://a.org/\",\"host\":\"a.org\",\"time\":1,\"due\":1,\"value\":NaN,\"threshold\":1,\"lease\":1}",
                    0)
                .deadLetter()
                .reason())
        .isEqualTo("bad_number");
  }
}
