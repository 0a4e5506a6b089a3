package io.recrawl.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ControlMessageCodecTest {

  private static final long NOW = 1_800_000_000_000L;
  private final ControlMessageCodec codec = new ControlMessageCodec(60_000);

  @Test
  void roundTripsEveryKind() {
    for (ControlMessage m :
        List.of(
            ControlMessage.tick(NOW),
            ControlMessage.lambda(NOW - 5, 42, 0.125),
            ControlMessage.hostRate(7, "example.com:8080", 1440.0),
            ControlMessage.hostRate(7, "example.com", 0),
            ControlMessage.budget(8, 20_000))) {
      String json = ControlMessageCodec.toJson(m);
      assertThat(codec.parse(json, NOW).value()).as(json).isEqualTo(m);
    }
  }

  @Test
  void writesOnlyTheFieldsOfItsKind() {
    assertThat(ControlMessageCodec.toJson(ControlMessage.tick(5)))
        .isEqualTo("{\"type\":\"tick\",\"time\":5}");
    assertThat(ControlMessageCodec.toJson(ControlMessage.lambda(5, 2, 0.5)))
        .isEqualTo("{\"type\":\"lambda\",\"time\":5,\"epoch\":2,\"lambda0\":0.5}");
    assertThat(ControlMessageCodec.toJson(ControlMessage.hostRate(5, "a.org", 10)))
        .isEqualTo("{\"type\":\"host_rate\",\"time\":5,\"host\":\"a.org\",\"max_rate\":10.0}");
    assertThat(ControlMessageCodec.toJson(ControlMessage.budget(5, 20_000)))
        .isEqualTo("{\"type\":\"budget\",\"time\":5,\"budget\":20000.0}");
  }

  @Test
  void hostOverridesAreNormalisedLikeHostKeys() {
    ControlMessage m =
        codec
            .parse(
                "{\"type\":\"HOST_RATE\",\"time\":1,\"host\":\"Bücher.DE.\",\"max_rate\":24}", NOW)
            .value();
    assertThat(m.host()).isEqualTo("xn--bcher-kva.de");
    assertThat(m.maxRate()).isEqualTo(24.0);
  }

  @ParameterizedTest(name = "{0}: {1} <-> {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      BY_HOST   | example.com:80                 | http://example.com/a
      BY_HOST   | example.com:443                | https://example.com/a
      BY_HOST   | Example.COM.:80                | http://example.com/
      BY_HOST   | example.com:8080               | http://EXAMPLE.com:8080/x
      BY_HOST   | example\u3002com\uFF61         | http://example.com/
      BY_HOST   | http://example.com:443/        | http://example.com:443/a
      BY_HOST   | [::FFFF:127.0.0.1]             | http://127.1/
      BY_HOST   | 2130706433:80                  | http://127.0.0.1/
      BY_HOST   | 2001:DB8:0::1                  | http://[2001:db8::1]/
      BY_HOST   | [2001:db8:0:0:0:0:0:1]:8080    | http://[2001:DB8::1]:8080/
      BY_DOMAIN | www.example.com                | http://news.example.com/a
      BY_DOMAIN | www.example.com:8080           | https://example.com/
      BY_DOMAIN | news.bbc.co.uk                 | http://www.bbc.co.uk/
      """)
  void hostRateOverrideUsesTheStatusKey(String mode, String host, String url) {
    HostKeys.Mode m = HostKeys.Mode.valueOf(mode);
    ControlMessageCodec controls = new ControlMessageCodec(m, 60_000);
    StatusEventCodec statuses = new StatusEventCodec(m, 60_000, 1 << 20);
    String override =
        "{\"type\":\"host_rate\",\"time\":1,\"host\":\"" + host + "\",\"max_rate\":24}";
    String status = "{\"url\":\"" + url + "\",\"status\":\"FETCHED\",\"time\":1}";
    Parsed<ControlMessage> c = controls.parse(override, NOW);
    assertThat(c.ok()).as(() -> String.valueOf(c.deadLetter())).isTrue();
    assertThat(c.value().host()).isEqualTo(statuses.parse(status, NOW).value().host());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "exa\\u0001mple.com",
        "example.com\\u0085",
        "256.1.1.1",
        "1.2.3.4.5",
        "[fe80::1%eth0]",
        "[1::2::3]",
        "example.com/path",
        "example.com:99999",
        "ftp://example.com/",
        "exa mple.com"
      })
  void anOverrideWhoseHostCannotBeKeyedIsADeadLetter(String host) {
    for (HostKeys.Mode m : HostKeys.Mode.values()) {
      String json = "{\"type\":\"host_rate\",\"time\":1,\"host\":\"" + host + "\",\"max_rate\":24}";
      DeadLetter d = new ControlMessageCodec(m, 60_000).parse(json, NOW).deadLetter();
      assertThat(d).as(m + " " + host).isNotNull();
      assertThat(d.reason()).isEqualTo("bad_host");
      assertThat(d.raw()).isEqualTo(json);
    }
  }

  @Test
  void epochDefaultsToZero() {
    assertThat(codec.parse("{\"type\":\"lambda\",\"time\":1,\"lambda0\":2}", NOW).value())
        .isEqualTo(ControlMessage.lambda(1, 0, 2));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      malformed_json        | {"type":"tick"
      missing_field:type    | {"time":1}
      unknown_type          | {"type":"reboot","time":1}
      missing_field:time    | {"type":"tick"}
      time_in_future        | {"type":"tick","time":1800000060001}
      missing_field:lambda0 | {"type":"lambda","time":1}
      bad_number            | {"type":"lambda","time":1,"lambda0":-0.5}
      bad_number            | {"type":"lambda","time":1,"lambda0":NaN}
      bad_number            | {"type":"lambda","time":1,"lambda0":1,"epoch":-1}
      missing_field:host    | {"type":"host_rate","time":1,"max_rate":1}
      bad_host              | {"type":"host_rate","time":1,"host":"..","max_rate":1}
      missing_field:max_rate| {"type":"host_rate","time":1,"host":"a.org"}
      bad_number            | {"type":"host_rate","time":1,"host":"a.org","max_rate":"fast"}
      missing_field:budget  | {"type":"budget","time":1}
      bad_number            | {"type":"budget","time":1,"budget":0}
      bad_number            | {"type":"budget","time":1,"budget":-5}
      """)
  void refusesWithAReason(String reason, String json) {
    DeadLetter d = codec.parse(json, NOW).deadLetter();
    assertThat(d.reason()).isEqualTo(reason.strip());
    assertThat(d.raw()).isEqualTo(json);
  }
}
