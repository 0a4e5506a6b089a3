package io.recrawl.wire;

import crawlercommons.domains.EffectiveTldFinder;
import java.net.URL;
import java.util.Locale;

/**
 * The partition key of a URL, computed the way StormCrawler's {@code URLPartitioner} does, but
 * normalised so that no alias of a host can get round its politeness limit.
 *
 * <p>{@link Mode#BY_HOST} (the default) keys by host name; {@link Mode#BY_DOMAIN} by registered
 * domain (crawler-commons' public-suffix list, the same call as StormCrawler's {@code
 * PaidLevelDomain}). Normalisation: lower case, IDN to punycode, trailing dots removed, default
 * port removed. With byHost a non-default port stays part of the key ({@code example.com:8080}),
 * since it may be a different server; with byDomain the port is dropped, because a domain groups
 * all of its hosts anyway.
 *
 * <p>The rules that keep every spelling of one server on one key (no DNS is ever done):
 *
 * <ul>
 *   <li>The ideographic and full-width dots (U+3002, U+FF0E, U+FF61) are dots, trailing ones too,
 *       as in IDNA and in browsers; full-width letters and digits become ASCII (IDNA's NFKC).
 *   <li>IPv4 is written as a dotted quad. Every form a browser (WHATWG URL standard) reads as an
 *       IPv4 address is converted: fewer parts ({@code 127.1}), one integer ({@code 2130706433}),
 *       hex ({@code 0x7f.1}) and octal ({@code 0177.0.0.1}) parts. A host whose last label is a
 *       number but which is no valid address ({@code 256.0.0.1}, {@code 1.2.3.4.5}, {@code
 *       1.2.3.09}, {@code example.123}) is refused, as browsers refuse it.
 *   <li>IPv6 is written in RFC 5952's canonical text form in brackets: lower case, no leading
 *       zeros, the longest run (the first of equal runs) of two or more zero groups as {@code ::},
 *       e.g. {@code [2001:db8::1]}. An IPv4-mapped address ({@code [::ffff:127.0.0.1]}) reaches the
 *       IPv4 server, so its key is that server's dotted quad ({@code 127.0.0.1}). Zone identifiers
 *       ({@code [fe80::1%25eth0]}) are refused.
 *   <li>Control characters (U+0000 to U+001F, U+007F to U+009F) anywhere in a host are refused.
 *   <li>A URL that the WHATWG URL standard (OkHttp, browsers) reads otherwise than {@code
 *       java.net.URL} is refused ({@link Urls#parse}): a {@code \} before the query, which it reads
 *       as {@code /} ({@code http://victim.example\@a1.example/} reaches victim.example), more than
 *       one {@code @}, a port that is not ASCII digits up to 65535, control characters anywhere.
 * </ul>
 */
public final class HostKeys {

  /** How URLs are grouped, with StormCrawler's {@code partition.url.mode} names. */
  public enum Mode {
    BY_HOST("byHost"),
    BY_DOMAIN("byDomain");

    private final String configName;

    Mode(String configName) {
      this.configName = configName;
    }

    /** The name used in configuration files ({@code byHost}, {@code byDomain}). */
    public String configName() {
      return configName;
    }

    /** Parses a configuration name, case-insensitively; throws on anything else. */
    public static Mode fromConfigName(String name) {
      for (Mode m : values()) {
        if (m.configName.equalsIgnoreCase(name)) {
          return m;
        }
      }
      throw new IllegalArgumentException(
          "unknown partition mode '" + name + "' (byHost or byDomain)");
    }
  }

  private static final HostKeys BY_HOST = new HostKeys(Mode.BY_HOST);
  private static final HostKeys BY_DOMAIN = new HostKeys(Mode.BY_DOMAIN);

  private final Mode mode;

  private HostKeys(Mode mode) {
    this.mode = mode;
  }

  /** The key function for a mode. */
  public static HostKeys of(Mode mode) {
    return mode == Mode.BY_DOMAIN ? BY_DOMAIN : BY_HOST;
  }

  public Mode mode() {
    return mode;
  }

  /**
   * The partition key of a URL.
   *
   * @throws IllegalArgumentException if the URL is not an absolute http(s) URL with a host; the
   *     message says why
   */
  public String keyOf(String url) {
    // java.net.URL, like StormCrawler: lenient about characters that URI rejects; refused where a
    // WHATWG parser (OkHttp) would reach another host.
    URL parsed = Urls.parse(url);
    String scheme = parsed.getProtocol().toLowerCase(Locale.ROOT);
    int defaultPort = Urls.defaultPort(scheme);
    String host = HostNames.normalise(parsed.getHost());
    if (mode == Mode.BY_DOMAIN) {
      return domainOf(host);
    }
    int port = parsed.getPort();
    return port < 0 || port == defaultPort ? host : host + ":" + port;
  }

  /**
   * The partition key of a host given on its own, as in a {@code host_rate} control message: the
   * key its URLs get from {@link #keyOf}, so that an override reaches the host's events.
   *
   * <p>Accepts an http(s) URL (keyed as {@link #keyOf} does), or a host with an optional port:
   * {@code example.com}, {@code example.com:8080}, {@code [2001:db8::1]:8080}, or a bare IPv6
   * address without brackets. Ports 80 and 443, the default ports of http and https, are dropped,
   * since {@code http://h/} and {@code https://h/} both have the key {@code h}; to name {@code
   * http://h:443/} give that URL.
   *
   * @throws IllegalArgumentException if it names no host; the message says why
   */
  public String keyOfHost(String hostOrUrl) {
    if (hostOrUrl == null) {
      throw new IllegalArgumentException("no host");
    }
    HostNames.checkNoControl(hostOrUrl);
    String s = hostOrUrl.strip();
    if (s.contains("://")) {
      return keyOf(s);
    }
    if (s.isEmpty()) {
      throw new IllegalArgumentException("empty host");
    }
    for (char c : new char[] {'/', '?', '#', '@', '\\'}) {
      if (s.indexOf(c) >= 0) {
        throw new IllegalArgumentException(
            "'" + s + "' is not a host, host:port or http(s) URL ('" + c + "')");
      }
    }
    String host;
    String port = null;
    if (s.startsWith("[")) {
      int close = s.indexOf(']');
      if (close < 0) {
        throw new IllegalArgumentException("unclosed IPv6 literal '" + s + "'");
      }
      host = s.substring(0, close + 1);
      String rest = s.substring(close + 1);
      if (!rest.isEmpty()) {
        if (!rest.startsWith(":")) {
          throw new IllegalArgumentException("bad host '" + s + "'");
        }
        port = rest.substring(1);
      }
    } else if (s.indexOf(':') != s.lastIndexOf(':')) {
      host = "[" + s + "]"; // a bare IPv6 address
    } else {
      int colon = s.indexOf(':');
      host = colon < 0 ? s : s.substring(0, colon);
      port = colon < 0 ? null : s.substring(colon + 1);
    }
    int p = port == null ? -1 : port(port, s);
    String key = HostNames.normalise(host);
    if (mode == Mode.BY_DOMAIN) {
      return domainOf(key);
    }
    return p < 0 || p == 80 || p == 443 ? key : key + ":" + p;
  }

  private static int port(String port, String whole) {
    if (port.isEmpty() || !Urls.validPort(port)) {
      throw new IllegalArgumentException("bad port in '" + whole + "'");
    }
    return Integer.parseInt(port);
  }

  private static String domainOf(String host) {
    if (host.startsWith("[")
        || HostNames.NUMERIC_LABEL.matcher(host.substring(host.lastIndexOf('.') + 1)).matches()) {
      return host; // an address has no registered domain
    }
    // Same arguments as crawler-commons' PaidLevelDomain.getPLD, which StormCrawler's byDomain
    // uses:
    // lenient for unknown suffixes (returns the host), private suffixes (blogspot.com) not split.
    String domain = EffectiveTldFinder.getAssignedDomain(host, false, true);
    return domain == null || domain.isEmpty() ? host : domain;
  }
}
