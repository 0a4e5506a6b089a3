package io.recrawl.wire;

import crawlercommons.domains.EffectiveTldFinder;
import java.net.IDN;
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

  /**
   * What a host name may hold after IDN conversion: letters, digits, '-', '.', and '_' (not valid
   * in DNS host names, but found on the web). Anything else (spaces, quotes, angle brackets, '%')
   * is refused.
   */
  private static final java.util.regex.Pattern HOST_CHARS =
      java.util.regex.Pattern.compile("[a-z0-9._-]+");

  /** A last label that makes a host an IPv4 address to a browser (WHATWG "ends in a number"). */
  private static final java.util.regex.Pattern NUMERIC_LABEL =
      java.util.regex.Pattern.compile("[0-9]+|0[xX][0-9a-fA-F]*");

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
    String host = normaliseHost(parsed.getHost());
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
    checkNoControl(hostOrUrl);
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
    String key = normaliseHost(host);
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

  /**
   * A host in canonical form, without port: lower case, punycode, without trailing dots, an IPv4
   * address as a dotted quad, an IPv6 address in brackets in RFC 5952 form (see the class comment).
   *
   * @throws IllegalArgumentException if the host is empty, holds a control character, or is not a
   *     valid (internationalised) name or address
   */
  public static String normaliseHost(String host) {
    if (host == null) {
      throw new IllegalArgumentException("no host");
    }
    checkNoControl(host);
    String h = host.strip();
    if (h.startsWith("[")) {
      if (!h.endsWith("]")) {
        throw new IllegalArgumentException("unclosed IPv6 literal '" + host + "'");
      }
      return ipv6(h.substring(1, h.length() - 1), host);
    }
    // The dots IDNA treats as label separators, so that a trailing one is removed like '.'.
    h = h.replace('\u3002', '.').replace('\uFF0E', '.').replace('\uFF61', '.');
    h = stripTrailingDots(h);
    if (h.isEmpty()) {
      throw new IllegalArgumentException("empty host");
    }
    try {
      // Lower-case first: IDN maps case for non-ASCII labels only.
      h = IDN.toASCII(h.toLowerCase(Locale.ROOT), IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("bad host name '" + host + "': " + e.getMessage());
    }
    h = stripTrailingDots(h);
    if (h.isEmpty() || h.startsWith(".") || h.contains("..") || !HOST_CHARS.matcher(h).matches()) {
      throw new IllegalArgumentException("bad host name '" + host + "'");
    }
    String last = h.substring(h.lastIndexOf('.') + 1);
    if (NUMERIC_LABEL.matcher(last).matches()) {
      return ipv4(h, host);
    }
    return h;
  }

  private static void checkNoControl(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
        throw new IllegalArgumentException(
            String.format("control character U+%04X in host", (int) c));
      }
    }
  }

  private static String stripTrailingDots(String h) {
    int end = h.length();
    while (end > 0 && h.charAt(end - 1) == '.') {
      end--;
    }
    return h.substring(0, end);
  }

  /**
   * A host whose last label is a number, as a dotted quad: the WHATWG URL standard's IPv4 parser (1
   * to 4 parts, each decimal, octal with a leading 0, or hex with 0x; the last part fills the
   * remaining bytes).
   */
  private static String ipv4(String h, String original) {
    String[] parts = h.split("\\.", -1);
    if (parts.length > 4) {
      throw new IllegalArgumentException("bad IPv4 address '" + original + "'");
    }
    long[] numbers = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      numbers[i] = ipv4Number(parts[i], original);
    }
    for (int i = 0; i < parts.length - 1; i++) {
      if (numbers[i] > 255) {
        throw new IllegalArgumentException("bad IPv4 address '" + original + "'");
      }
    }
    long last = numbers[parts.length - 1];
    if (last >= 1L << (8 * (5 - parts.length))) {
      throw new IllegalArgumentException("bad IPv4 address '" + original + "'");
    }
    long address = last;
    for (int i = 0; i < parts.length - 1; i++) {
      address += numbers[i] << (8 * (3 - i));
    }
    return (address >>> 24)
        + "."
        + ((address >>> 16) & 255)
        + "."
        + ((address >>> 8) & 255)
        + "."
        + (address & 255);
  }

  /** One IPv4 part; above 2^32 it saturates (and is refused by the range checks). */
  private static long ipv4Number(String part, String original) {
    String digits = part;
    int radix = 10;
    if (digits.startsWith("0x") || digits.startsWith("0X")) {
      radix = 16;
      digits = digits.substring(2);
    } else if (digits.length() > 1 && digits.startsWith("0")) {
      radix = 8;
      digits = digits.substring(1);
    } else if (digits.isEmpty()) {
      throw new IllegalArgumentException("bad IPv4 address '" + original + "'");
    }
    long v = 0;
    for (int i = 0; i < digits.length(); i++) {
      int d = Character.digit(digits.charAt(i), radix);
      if (d < 0) {
        throw new IllegalArgumentException("bad IPv4 address '" + original + "'");
      }
      v = Math.min(v * radix + d, 1L << 33);
    }
    return v;
  }

  /** An IPv6 literal (without brackets) in RFC 5952 form, or an IPv4-mapped one as IPv4. */
  private static String ipv6(String literal, String original) {
    String s = literal.toLowerCase(Locale.ROOT);
    IllegalArgumentException bad =
        new IllegalArgumentException("bad IPv6 address '" + original + "'");
    if (s.isEmpty()
        || !s.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
      throw bad; // also a zone identifier: '%'
    }
    int[] groups = new int[8];
    int doubleColon = s.indexOf("::");
    if (doubleColon >= 0 && s.indexOf("::", doubleColon + 1) >= 0) {
      throw bad;
    }
    String head = doubleColon < 0 ? s : s.substring(0, doubleColon);
    String rest = doubleColon < 0 ? "" : s.substring(doubleColon + 2);
    int[] headGroups = groups(head, doubleColon < 0, bad);
    int[] restGroups = groups(rest, true, bad);
    if (doubleColon < 0) {
      if (headGroups.length != 8) {
        throw bad;
      }
      groups = headGroups;
    } else {
      if (headGroups.length + restGroups.length > 7) {
        throw bad;
      }
      System.arraycopy(headGroups, 0, groups, 0, headGroups.length);
      System.arraycopy(restGroups, 0, groups, 8 - restGroups.length, restGroups.length);
    }
    boolean mapped = groups[5] == 0xffff;
    for (int i = 0; i < 5; i++) {
      mapped &= groups[i] == 0;
    }
    if (mapped) {
      return (groups[6] >>> 8)
          + "."
          + (groups[6] & 255)
          + "."
          + (groups[7] >>> 8)
          + "."
          + (groups[7] & 255);
    }
    // RFC 5952 4.2: the longest run of two or more zero groups, the first if tied, becomes "::".
    int bestStart = -1;
    int bestLen = 1;
    for (int i = 0; i < 8; ) {
      if (groups[i] != 0) {
        i++;
        continue;
      }
      int j = i;
      while (j < 8 && groups[j] == 0) {
        j++;
      }
      if (j - i > bestLen) {
        bestStart = i;
        bestLen = j - i;
      }
      i = j;
    }
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        b.append("::");
        i += bestLen - 1;
        continue;
      }
      if (b.length() > 1 && b.charAt(b.length() - 1) != ':') {
        b.append(':');
      }
      b.append(Integer.toHexString(groups[i]));
    }
    return b.append(']').toString();
  }

  /**
   * The 16-bit groups of one side of an IPv6 address; a dotted quad may end it if {@code
   * mayEndInIpv4} (the side that ends the address).
   */
  private static int[] groups(String side, boolean mayEndInIpv4, IllegalArgumentException bad) {
    if (side.isEmpty()) {
      return new int[0];
    }
    String[] parts = side.split(":", -1);
    int[] out = new int[parts.length + 1];
    int n = 0;
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      if (i == parts.length - 1 && p.contains(".")) {
        if (!mayEndInIpv4) {
          throw bad;
        }
        String[] q = p.split("\\.", -1);
        if (q.length != 4) {
          throw bad;
        }
        int[] bytes = new int[4];
        for (int k = 0; k < 4; k++) {
          // Strict dotted decimal, as RFC 4291 and the WHATWG IPv6 parser: no leading zeros.
          if (q[k].isEmpty()
              || q[k].length() > 3
              || (q[k].length() > 1 && q[k].charAt(0) == '0')
              || !q[k].chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw bad;
          }
          bytes[k] = Integer.parseInt(q[k]);
          if (bytes[k] > 255) {
            throw bad;
          }
        }
        out[n++] = bytes[0] << 8 | bytes[1];
        out[n++] = bytes[2] << 8 | bytes[3];
      } else {
        if (p.isEmpty() || p.length() > 4 || p.contains(".")) {
          throw bad;
        }
        out[n++] = Integer.parseInt(p, 16);
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  private static String domainOf(String host) {
    if (host.startsWith("[")
        || NUMERIC_LABEL.matcher(host.substring(host.lastIndexOf('.') + 1)).matches()) {
      return host; // an address has no registered domain
    }
    // Same arguments as crawler-commons' PaidLevelDomain.getPLD, which StormCrawler's byDomain
    // uses:
    // lenient for unknown suffixes (returns the host), private suffixes (blogspot.com) not split.
    String domain = EffectiveTldFinder.getAssignedDomain(host, false, true);
    return domain == null || domain.isEmpty() ? host : domain;
  }
}
