package io.recrawl.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HostKeysTest {

  private final HostKeys byHost = HostKeys.of(HostKeys.Mode.BY_HOST);
  private final HostKeys byDomain = HostKeys.of(HostKeys.Mode.BY_DOMAIN);

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://example.com/",
        "HTTP://Example.COM:80/",
        "http://example.com./",
        "http://EXAMPLE.com.:80/a?b=c#d",
        "https://example.com:443/x",
        "http://user:pw@example.com/"
      })
  void aliasesOfOneHostShareOneKey(String url) {
    assertThat(byHost.keyOf(url)).isEqualTo("example.com");
  }

  @Test
  void idnAndPunycodeShareOneKey() {
    String unicode = byHost.keyOf("http://Bücher.de/katalog");
    String puny = byHost.keyOf("http://xn--bcher-kva.de/");
    assertThat(unicode).isEqualTo("xn--bcher-kva.de").isEqualTo(puny);
  }

  @Test
  void nonDefaultPortStaysInTheKey() {
    assertThat(byHost.keyOf("http://example.com:8080/")).isEqualTo("example.com:8080");
    assertThat(byHost.keyOf("https://example.com:80/")).isEqualTo("example.com:80");
    assertThat(byHost.keyOf("http://example.com:443/")).isEqualTo("example.com:443");
  }

  @Test
  void subdomainsAreDifferentHosts() {
    assertThat(byHost.keyOf("http://www.example.com/")).isEqualTo("www.example.com");
  }

  @Test
  void byDomainGroupsHostsUnderTheirRegisteredDomain() {
    assertThat(byDomain.keyOf("http://news.bbc.co.uk/a")).isEqualTo("bbc.co.uk");
    assertThat(byDomain.keyOf("https://WWW.BBC.CO.UK./")).isEqualTo("bbc.co.uk");
    assertThat(byDomain.keyOf("http://www.bücher.de:8080/")).isEqualTo("xn--bcher-kva.de");
    // Unknown suffixes and addresses fall back to the host, as StormCrawler does.
    assertThat(byDomain.keyOf("http://127.0.0.1:8080/")).isEqualTo("127.0.0.1");
    assertThat(byDomain.keyOf("http://localhost/")).isEqualTo("localhost");
  }

  @Test
  void underscoresAreTolerated() {
    assertThat(byHost.keyOf("http://My_Host.example.com/")).isEqualTo("my_host.example.com");
  }

  @Test
  void ipv6LiteralsAreKeptLowerCase() {
    assertThat(byHost.keyOf("http://[2001:DB8::1]:8080/")).isEqualTo("[2001:db8::1]:8080");
    assertThat(byHost.keyOf("http://[::1]/")).isEqualTo("[::1]");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "not a url",
        "ftp://example.com/",
        "mailto:a@example.com",
        "http:///path",
        "http://./",
        "/relative/path",
        "",
        "http://exa mple.com/",
        "http://a<b>.com/",
        "http://a\".com/",
        "http://ex%41mple.com/"
      })
  void refusesWhatHasNoHttpHost(String url) {
    assertThatThrownBy(() -> byHost.keyOf(url)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://example\u3002com/",
        "http://example\uFF0Ecom/",
        "http://example\uFF61com/",
        "http://example.com\u3002/",
        "http://example.com\uFF0E/",
        "http://example.com\uFF61/",
        "http://example\uFF0Ecom\uFF61\u3002/",
        "http://EXAMPLE\u3002COM.\u3002:80/"
      })
  void fullWidthDotsDoNotGetRoundTheLimit(String url) {
    assertThat(byHost.keyOf(url)).isEqualTo("example.com");
    assertThat(byDomain.keyOf(url.replace("example", "www.example"))).isEqualTo("example.com");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://[::1]/",
        "http://[0:0:0:0:0:0:0:1]/",
        "http://[0000:0000:0000:0000:0000:0000:0000:0001]:80/",
        "http://[::0:1]/",
        "http://[0::1]/",
        "http://[0:0::0:1]/",
        "http://[::0.0.0.1]/"
      })
  void ipv6SpellingsOfLoopbackDoNotGetRoundTheLimit(String url) {
    assertThat(byHost.keyOf(url)).isEqualTo("[::1]");
    assertThat(byDomain.keyOf(url)).isEqualTo("[::1]");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://[2001:db8::1]/",
        "http://[2001:DB8::1]/",
        "http://[2001:0DB8:0000:0000:0000:0000:0000:0001]/",
        "http://[2001:db8:0:0:0:0:0:1]/",
        "http://[2001:db8::0:1]/",
        "http://[2001:db8:0::1]/"
      })
  void ipv6SpellingsDoNotGetRoundTheLimit(String url) {
    assertThat(byHost.keyOf(url)).isEqualTo("[2001:db8::1]");
  }

  @Test
  void ipv6IsWrittenInRfc5952Form() {
    // The longest run of zeros is compressed, the first of equal runs, never a single zero group.
    assertThat(byHost.keyOf("http://[2001:db8:0:0:1:0:0:1]/")).isEqualTo("[2001:db8::1:0:0:1]");
    assertThat(byHost.keyOf("http://[2001:0:0:1:0:0:0:1]/")).isEqualTo("[2001:0:0:1::1]");
    assertThat(byHost.keyOf("http://[2001:db8:0:1:1:1:1:1]/")).isEqualTo("[2001:db8:0:1:1:1:1:1]");
    assertThat(byHost.keyOf("http://[::]/")).isEqualTo("[::]");
    assertThat(byHost.keyOf("http://[1::]:8080/")).isEqualTo("[1::]:8080");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://127.0.0.1/",
        "http://127.1/",
        "http://127.0.1/",
        "http://2130706433/",
        "http://0x7f.1/",
        "http://0x7F000001/",
        "http://0177.0.0.1/",
        "http://0177.0.0.01/",
        "http://127.0.0.1./",
        "http://[::ffff:127.0.0.1]/",
        "http://[::FFFF:7f00:1]/",
        "http://[0:0:0:0:0:ffff:127.0.0.1]:80/",
        "http://\uFF11\uFF12\uFF17\uFF0E\uFF10\uFF0E\uFF10\uFF0E\uFF11/"
      })
  void ipv4SpellingsDoNotGetRoundTheLimit(String url) {
    assertThat(byHost.keyOf(url)).isEqualTo("127.0.0.1");
    assertThat(byDomain.keyOf(url)).isEqualTo("127.0.0.1");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://256.0.0.1/",
        "http://1.2.3.4.5/",
        "http://4294967296/",
        "http://0x7g.1/",
        "http://1.2.3.09/",
        "http://example.123/",
        "http://example.0x1/",
        "http://[::1:2:3:4:5:6:7:8]/",
        "http://[1:2:3:4:5:6:7]/",
        "http://[1::2::3]/",
        "http://[12345::1]/",
        "http://[::ffff:1.2.3.256]/",
        "http://[fe80::1%25eth0]/",
        "http://[example.com]/"
      })
  void invalidAddressesAreRefused(String url) {
    assertThatThrownBy(() -> byHost.keyOf(url)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "exa\u0000mple.com",
        "exa\u0001mple.com",
        "example.com\u001f",
        "exa\u007fmple.com",
        "exa\u0085mple.com",
        "exa\u009fmple.com",
        "example.com\n",
        "\texample.com"
      })
  void controlCharactersAreRefused(String host) {
    assertThatThrownBy(() -> byHost.keyOfHost(host)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> byHost.keyOf("http://" + host + "/"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aHostGivenAloneGetsTheKeyOfItsUrls() {
    assertThat(byHost.keyOfHost("Example.COM.")).isEqualTo(byHost.keyOf("http://example.com/"));
    assertThat(byHost.keyOfHost("example.com:80")).isEqualTo("example.com");
    assertThat(byHost.keyOfHost("example.com:443")).isEqualTo("example.com");
    assertThat(byHost.keyOfHost("example.com:8080")).isEqualTo("example.com:8080");
    assertThat(byHost.keyOfHost("[::FFFF:127.0.0.1]:80")).isEqualTo("127.0.0.1");
    assertThat(byHost.keyOfHost("[2001:DB8::0:1]:8080")).isEqualTo("[2001:db8::1]:8080");
    assertThat(byHost.keyOfHost("http://example.com:443/")).isEqualTo("example.com:443");
    assertThat(byHost.keyOfHost("https://example.com:443/")).isEqualTo("example.com");
    assertThat(byDomain.keyOfHost("www.example.com")).isEqualTo("example.com");
    assertThat(byDomain.keyOfHost("news.bbc.co.uk:8080")).isEqualTo("bbc.co.uk");
    assertThat(byHost.keyOfHost("b\u00FCcher\u3002de\uFF61")).isEqualTo("xn--bcher-kva.de");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", " ", ".", "example.com/path", "user@example.com", "example.com:x", "a b"})
  void aHostGivenAloneThatIsNoHostIsRefused(String host) {
    assertThatThrownBy(() -> byHost.keyOfHost(host)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void partitionModeNamesFollowStormCrawler() {
    assertThat(HostKeys.Mode.fromConfigName("byHost")).isEqualTo(HostKeys.Mode.BY_HOST);
    assertThat(HostKeys.Mode.fromConfigName("bydomain")).isEqualTo(HostKeys.Mode.BY_DOMAIN);
    assertThatThrownBy(() -> HostKeys.Mode.fromConfigName("byIP")).hasMessageContaining("byIP");
  }
}
