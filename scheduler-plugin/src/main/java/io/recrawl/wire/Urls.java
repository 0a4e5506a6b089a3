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
 *   <li>the host as {@link HostKeys#normaliseHost} writes it: lower case, IDN as punycode, trailing
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
    checkCharacters(url);
    URL parsed;
    try {
      parsed = new URL(url.strip());
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException("not a URL: " + e.getMessage());
    }
    String scheme = parsed.getProtocol().toLowerCase(Locale.ROOT);
    int defaultPort;
    if (scheme.equals("http")) {
      defaultPort = 80;
    } else if (scheme.equals("https")) {
      defaultPort = 443;
    } else {
      throw new IllegalArgumentException("scheme '" + scheme + "' is not http or https");
    }
    StringBuilder b = new StringBuilder(url.length() + 8).append(scheme).append("://");
    if (parsed.getUserInfo() != null) {
      b.append(parsed.getUserInfo()).append('@');
    }
    b.append(HostKeys.normaliseHost(parsed.getHost()));
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
