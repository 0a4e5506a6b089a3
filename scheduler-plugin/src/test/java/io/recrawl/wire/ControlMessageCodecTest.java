package io.recrawl.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
