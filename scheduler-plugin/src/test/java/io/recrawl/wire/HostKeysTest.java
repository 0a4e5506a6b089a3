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

  @Test
  void partitionModeNamesFollowStormCrawler() {
    assertThat(HostKeys.Mode.fromConfigName("byHost")).isEqualTo(HostKeys.Mode.BY_HOST);
    assertThat(HostKeys.Mode.fromConfigName("bydomain")).isEqualTo(HostKeys.Mode.BY_DOMAIN);
    assertThatThrownBy(() -> HostKeys.Mode.fromConfigName("byIP")).hasMessageContaining("byIP");
  }
}
