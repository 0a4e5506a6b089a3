package io.recrawl.wire;

import java.net.MalformedURLException;
import java.net.URL;
import java.util.Locale;

/**
 * The one spelling of a page's URL: every URL that enters the job (status events, seeds) is checked
 * and written this way, so that a page is one URL however it was spelled where the spelling does
 * not matter, and so that the stored form of a URL is never ambiguous.
 *
 * <p>The rule (our own, close to crawler-commons' {@code BasicURLNormalizer} but changing nothing a
 * server could read differently):
 *
 * <ul>
 *   <li>the scheme in lower case ({@code HTTP:} is {@code http:}); only http and https;
 *   <li>the host as {@link HostNames#normalise} writes it: lower case, IDN as punycode, trailing
 *       dots removed, IPv4 as a dotted quad, IPv6 in RFC 5952 form;
 *   <li>the default port (80 for http, 443 for https) removed;
 *   <li>an empty path is {@code /} ({@code http://a.org} and {@code http://a.org?q} are {@code
 *       http://a.org/} and {@code http://a.org/?q});
 *   <li>user info, path, query and fragment kept exactly as they came (percent-encoding, case and
 *       dot segments of the path matter to some servers).
 * </ul>
 *
 * <p>Refused (a {@code bad_url} dead letter): more than {@link #MAX_URL_CHARS} characters, any
 * control character (U+0000 to U+001F, U+007F to U+009F) anywhere, including the leading ones that
 * {@code java.net.URL} would skip, and any lone surrogate (half of a UTF-16 pair, which has no
 * UTF-8 form). A normalised URL therefore always starts with {@code http://} or {@code https://}.
 * Also refused is every URL that a WHATWG parser (OkHttp, browsers) reads otherwise than {@code
 * java.net.URL} ({@link #parse}).
 */
public final class Urls {

  /**
   * The longest URL accepted, in characters: far above what servers and crawlers use (sitemaps stop
   * at 2,048), low enough that a crawl request always fits in a Kafka message.
   */
  public static final int MAX_URL_CHARS = 8_192;

  private Urls() {}

  /**
   * The normalised spelling of an http(s) URL.
   *
   * @throws IllegalArgumentException if it is refused; the message says why
   */
  public static String normalise(String url) {
    if (url == null) {
      throw new IllegalArgumentException("no URL");
    }
    if (url.length() > MAX_URL_CHARS) {
      throw new IllegalArgumentException(
          "URL of " + url.length() + " characters, more than " + MAX_URL_CHARS);
    }
    URL parsed = parse(url);
    String scheme = parsed.getProtocol().toLowerCase(Locale.ROOT);
    int defaultPort = defaultPort(scheme);
    StringBuilder b = new StringBuilder(url.length() + 8).append(scheme).append("://");
    if (parsed.getUserInfo() != null) {
      b.append(parsed.getUserInfo()).append('@');
    }
    b.append(HostNames.normalise(parsed.getHost()));
    int port = parsed.getPort();
    if (port >= 0 && port != defaultPort) {
      b.append(':').append(port);
    }
    String path = parsed.getPath();
    b.append(path.isEmpty() ? "/" : path);
    if (parsed.getQuery() != null) {
      b.append('?').append(parsed.getQuery());
    }
    if (parsed.getRef() != null) {
      b.append('#').append(parsed.getRef());
    }
    return b.toString();
  }

  /**
   * Parses a URL as {@code java.net.URL} does (StormCrawler's parser), refusing where the WHATWG
   * URL standard reads it otherwise: browsers and OkHttp, with which StormCrawler's okhttp protocol
   * fetches, follow the standard, so a host or path that only {@code java.net.URL} sees would give
   * one server a fresh politeness key, or one page a second identity, per spelling. Refused:
   *
   * <ul>
   *   <li>control characters and lone surrogates ({@link #checkCharacters}): the standard drops tab
   *       and newline anywhere, {@code java.net.URL} keeps them;
   *   <li>a {@code \} before the query or fragment: in http(s) the standard reads it as {@code /},
   *       so {@code http://victim.example\@a1.example/} reaches victim.example, not a1.example;
   *   <li>more than one {@code @} in the authority: the standard takes the host after the last,
   *       {@code java.net.URL} finds none;
   *   <li>a port other than up to five ASCII digits of at most 65535 ({@code -1}, {@code +80},
   *       {@code 99999}), which {@code java.net.URL} reads and the standard refuses.
   * </ul>
   *
   * <p>A percent-encoded host ({@code a1%2eexample}, which the standard decodes) and a URL without
   * {@code //} before its host ({@code http:/a1.example/}, where the standard still finds one) need
   * no rule here: {@code java.net.URL} gives a host with {@code %} or none, and {@link
   * HostNames#normalise} refuses both.
   *
   * @throws IllegalArgumentException if it is refused or no URL; the message says why
   */
  static URL parse(String url) {
    checkCharacters(url);
    String s = url.trim();
    int end = s.length();
    for (char c : new char[] {'?', '#'}) {
      int i = s.indexOf(c);
      if (i >= 0) {
        end = Math.min(end, i);
      }
    }
    int backslash = s.lastIndexOf('\\', end - 1);
    if (backslash >= 0) {
      throw new IllegalArgumentException(
          "'\\' at position "
              + backslash
              + ", which browsers and OkHttp read as '/' (another host or path than java.net.URL's)");
    }
    URL parsed;
    try {
      parsed = new URL(s);
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException("not a URL: " + e.getMessage());
    }
    String authority = parsed.getAuthority();
    if (authority != null) {
      int at = authority.lastIndexOf('@');
      if (authority.indexOf('@') != at) {
        throw new IllegalArgumentException(
            "more than one '@' in '"
                + authority
                + "': browsers and OkHttp take the host after the last, java.net.URL none");
      }
      checkPort(authority.substring(at + 1));
    }
    return parsed;
  }

  /**
   * The default port of an http(s) scheme in lower case.
   *
   * @throws IllegalArgumentException for any other scheme
   */
  static int defaultPort(String scheme) {
    return switch (scheme) {
      case "http" -> 80;
      case "https" -> 443;
      default -> throw new IllegalArgumentException("scheme '" + scheme + "' is not http or https");
    };
  }

  /** Whether a port is up to five ASCII digits of at most 65535 (empty: no port). */
  static boolean validPort(String port) {
    return port.length() <= 5
        && port.chars().allMatch(c -> c >= '0' && c <= '9')
        && (port.isEmpty() || Integer.parseInt(port) <= 65535);
  }

  /** Refuses a port that the WHATWG URL standard would not read as java.net.URL does. */
  private static void checkPort(String hostAndPort) {
    int colon =
        hostAndPort.startsWith("[")
            ? hostAndPort.indexOf(':', Math.max(0, hostAndPort.indexOf(']')))
            : hostAndPort.indexOf(':');
    if (colon < 0) {
      return;
    }
    String port = hostAndPort.substring(colon + 1);
    if (!validPort(port)) {
      throw new IllegalArgumentException(
          "port '" + port + "' is not a number from 0 to 65535 in ASCII digits");
    }
  }

  /** Refuses control characters and lone surrogates. */
  static void checkCharacters(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
        throw new IllegalArgumentException(
            String.format("control character U+%04X at position %d", (int) c, i));
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(
            String.format("lone surrogate U+%04X at position %d", (int) c, i));
      }
    }
  }
}
