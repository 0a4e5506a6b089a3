package io.recrawl.wire;

import java.net.IDN;
import java.util.Locale;

/**
 * The one spelling of a host name, with no DNS: the rules that keep every spelling of one server on
 * one host key (see {@link HostKeys}) and in one URL (see {@link Urls}).
 */
public final class HostNames {

  /** A last label that makes a host an IPv4 address to a browser (WHATWG "ends in a number"). */
  static final java.util.regex.Pattern NUMERIC_LABEL =
      java.util.regex.Pattern.compile("[0-9]+|0[xX][0-9a-fA-F]*");

  private HostNames() {}

  /**
   * What a host name may hold after IDN conversion: letters, digits, '-', '.', and '_' (not valid
   * in DNS host names, but found on the web). Anything else (spaces, quotes, angle brackets, '%')
   * is refused.
   */
  private static final java.util.regex.Pattern HOST_CHARS =
      java.util.regex.Pattern.compile("[a-z0-9._-]+");

  /**
   * A host in canonical form, without port: lower case, punycode, without trailing dots, an IPv4
   * address as a dotted quad, an IPv6 address in brackets in RFC 5952 form (see the class comment).
   *
   * @throws IllegalArgumentException if the host is empty, holds a control character, or is not a
   *     valid (internationalised) name or address
   */
  public static String normalise(String host) {
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

  static void checkNoControl(String s) {
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
}
