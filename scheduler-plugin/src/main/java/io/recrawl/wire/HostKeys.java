package io.recrawl.wire;

import crawlercommons.domains.EffectiveTldFinder;
import java.net.IDN;
import java.net.MalformedURLException;
import java.net.URL;
import java.util.Locale;

/**
 * The partition key of a URL, computed the way StormCrawler's {@code URLPartitioner} does, but
 * normalised so that no alias of a host can get round its politeness limit.
 *
 * <p>{@link Mode#BY_HOST} (the default) keys by host name; {@link Mode#BY_DOMAIN} by registered
 * domain (crawler-commons' public-suffix list, the same call as StormCrawler's {@code
 * PaidLevelDomain}). Normalisation: lower case, IDN to punycode, trailing dot removed, default port
 * removed. With byHost a non-default port stays part of the key ({@code example.com:8080}), since
 * it may be a different server; with byDomain the port is dropped, because a domain groups all of
 * its hosts anyway.
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

  /**
   * What a host name may hold after IDN conversion: letters, digits, '-', '.', and '_' (not valid
   * in DNS host names, but found on the web). Anything else (spaces, quotes, angle brackets) is
   * refused.
   */
  private static final java.util.regex.Pattern HOST_CHARS =
      java.util.regex.Pattern.compile("[a-z0-9._-]+(:[0-9]+)?");

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
    URL parsed;
    try {
      // java.net.URL, like StormCrawler: lenient about characters that URI rejects.
      parsed = new URL(url);
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
    String host = normaliseHost(parsed.getHost());
    if (mode == Mode.BY_DOMAIN) {
      return domainOf(host);
    }
    int port = parsed.getPort();
    return port < 0 || port == defaultPort ? host : host + ":" + port;
  }

  /**
   * A host name in canonical form: lower case, punycode, without trailing dots. Also accepts an
   * already normalised key with a port.
   *
   * @throws IllegalArgumentException if the host is empty or not a valid (internationalised) name
   */
  public static String normaliseHost(String host) {
    if (host == null) {
      throw new IllegalArgumentException("no host");
    }
    String h = host.strip();
    while (h.endsWith(".")) {
      h = h.substring(0, h.length() - 1);
    }
    if (h.isEmpty()) {
      throw new IllegalArgumentException("empty host");
    }
    if (h.startsWith("[")) {
      // An IPv6 literal: IDN does not apply.
      return h.toLowerCase(Locale.ROOT);
    }
    try {
      // Lower-case first: IDN maps case for non-ASCII labels only.
      h = IDN.toASCII(h.toLowerCase(Locale.ROOT), IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("bad host name '" + host + "': " + e.getMessage());
    }
    if (h.isEmpty() || h.startsWith(".") || h.contains("..") || !HOST_CHARS.matcher(h).matches()) {
      throw new IllegalArgumentException("bad host name '" + host + "'");
    }
    return h;
  }

  private static String domainOf(String host) {
    if (host.startsWith("[")) {
      return host;
    }
    // Same arguments as crawler-commons' PaidLevelDomain.getPLD, which StormCrawler's byDomain
    // uses:
    // lenient for unknown suffixes (returns the host), private suffixes (blogspot.com) not split.
    String domain = EffectiveTldFinder.getAssignedDomain(host, false, true);
    return domain == null || domain.isEmpty() ? host : domain;
  }
}
