package io.recrawl.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Where {@code java.net.URL} (our parser, and StormCrawler's) and the WHATWG URL standard
 * (browsers, and OkHttp, which StormCrawler's okhttp protocol fetches with) read one URL
 * differently, the URL is refused: a key or a page identity from {@code java.net.URL} while the
 * crawler connects elsewhere would let one server collect a fresh politeness key per spelling.
 */
class UrlAliasesTest {

  private final HostKeys byHost = HostKeys.of(HostKeys.Mode.BY_HOST);

  /** The two parsers agree: the key is the server connected to. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "http://victim.example@a1.example/          | a1.example",
        "http://victim.example;@a1.example/         | a1.example",
        "http://u:p:q@a1.example/                   | a1.example",
        "http://a1.example#@victim.example/         | a1.example",
        "http://a1.example?@victim.example/         | a1.example",
        "http://a1.example:080/                     | a1.example",
        "http://a1.example:/                        | a1.example",
        "http://a1.example/x?q=\\#f\\                | a1.example",
        "http://a1.example:8080/                    | a1.example:8080"
      })
  void whereBothParsersAgreeTheKeyIsTheServerConnectedTo(String url, String server) {
    assertThat(byHost.keyOf(url)).isEqualTo(server);
    assertThat(byHost.keyOf(Urls.normalise(url))).isEqualTo(server);
  }

  /** The two parsers disagree (or WHATWG refuses): refused by both of ours. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        // WHATWG reads '\' as '/' in http(s): the server is victim.example, java.net.URL says a1.
        "http://victim.example\\@a1.example/",
        "http://victim.example:80\\@a1.example/",
        "http://victim.example\\\\@a1.example/",
        "http://a1.example\\victim.example/",
        "http://a1.example/x\\..\\y",
        // WHATWG takes the last '@'; java.net.URL gets no host at all.
        "http://a@victim.example@a1.example/",
        "http://victim.example@@a1.example/",
        // WHATWG drops tab and newline anywhere; java.net.URL keeps them.
        "http://victim.example\t@a1.example/",
        "http://vic\ttim.example/",
        "http://a1.example/\n",
        "http://a1.ex\rample/",
        // WHATWG percent-decodes a host: a1%2eexample is a1.example.
        "http://a1%2eexample/",
        "http://a1%2Eexample/",
        "http://%61%31.example/",
        // WHATWG refuses these ports; java.net.URL reads -1, +80 and 99999.
        "http://a1.example:-1/",
        "http://a1.example:+80/",
        "http://a1.example:99999/",
        "http://a1.example:65616/",
        // WHATWG finds the host after any number of slashes; java.net.URL finds none.
        "http:/victim.example/",
        "http:///victim.example/",
        "http:victim.example/",
        "http:\\\\victim.example/"
      })
  void whereTheParsersDisagreeTheUrlIsRefused(String url) {
    assertThatThrownBy(() -> byHost.keyOf(url)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Urls.normalise(url)).isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * Any authority built from the characters the parsers disagree on: a key, if any, is the key of
   * the server a WHATWG client connects to, and the one spelling keeps it.
   */
  @Property(tries = 2000)
  void aKeyIsAlwaysTheKeyOfTheServerAWhatwgClientReaches(@ForAll("authorities") String authority) {
    String url = "http://" + authority + "/p";
    String key;
    try {
      key = byHost.keyOf(url);
    } catch (IllegalArgumentException refused) {
      assertThatThrownBy(() -> Urls.normalise(url)).isInstanceOf(IllegalArgumentException.class);
      return;
    }
    String server = whatwgHostAndPort(url);
    assertThat(server).as(url).isNotNull();
    assertThat(key).as(url).isEqualTo(byHost.keyOfHost(server));
    assertThat(byHost.keyOf(Urls.normalise(url))).as(url).isEqualTo(key);
  }

  @Provide
  Arbitrary<String> authorities() {
    Arbitrary<String> piece =
        Arbitraries.of(
            "a1.example",
            "victim.example",
            "user",
            "@",
            "\\",
            ":",
            ":80",
            ":8080",
            ":-1",
            ":+8",
            ".",
            "%2e",
            "\t",
            "\n",
            "/",
            "?",
            "#",
            ";",
            "x");
    return piece.list().ofMinSize(1).ofMaxSize(6).map(l -> String.join("", l));
  }

  /**
   * The host (and port, if not 80) that the WHATWG URL standard reads from a special-scheme URL
   * that starts with {@code http://}, or null where it fails: enough of the standard for the pieces
   * above (tab and newline removed, '\' as '/', the last '@', a port of digits up to 65535).
   */
  private static String whatwgHostAndPort(String url) {
    String s = url.replace("\t", "").replace("\n", "").replace("\r", "").replace('\\', '/');
    String rest = s.substring("http://".length());
    int end = rest.length();
    for (char c : new char[] {'/', '?', '#'}) {
      int i = rest.indexOf(c);
      if (i >= 0) {
        end = Math.min(end, i);
      }
    }
    String authority = rest.substring(0, end);
    String hostPort = authority.substring(authority.lastIndexOf('@') + 1);
    int colon = hostPort.lastIndexOf(':');
    String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
    String port = colon < 0 ? "" : hostPort.substring(colon + 1);
    if (host.isEmpty() || !port.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return null;
    }
    host = host.replace("%2e", ".").replace("%2E", ".");
    if (port.isEmpty()) {
      return host;
    }
    if (port.length() > 5 || Integer.parseInt(port) > 65535) {
      return null;
    }
    return Integer.parseInt(port) == 80 ? host : host + ":" + Integer.parseInt(port);
  }
}
