package io.recrawl.wire;

/**
 * A page's key in the job's state: its URL, qualified by its crawl unless that is the default one.
 * Crawls share the host key, so that one host's politeness holds across all of them, and keep apart
 * in the host's pages: the same URL in two crawls is two pages.
 *
 * <p>A qualified key is the crawl, a tab, and the URL. Neither a crawl ID nor a URL the job takes
 * holds a control character, so the tab splits the key (a key that begins with one is no crawl's:
 * not a URL the job takes).
 */
public final class PageKeys {

  /** The crawl of a page that names none (URL Frontier's {@code DEFAULT}). */
  public static final String DEFAULT_CRAWL = "DEFAULT";

  private static final char SEPARATOR = '\t';

  /** The longest crawl ID taken. */
  public static final int MAX_CRAWL_CHARS = 256;

  private PageKeys() {}

  /** The key of {@code url} in {@code crawl} (null or empty = the default crawl). */
  public static String of(String crawl, String url) {
    return isDefault(crawl) ? url : crawl + SEPARATOR + url;
  }

  /** The crawl of a page key. */
  public static String crawl(String key) {
    int tab = key.indexOf(SEPARATOR);
    return tab <= 0 ? DEFAULT_CRAWL : key.substring(0, tab);
  }

  /** The URL of a page key. */
  public static String url(String key) {
    int tab = key.indexOf(SEPARATOR);
    return tab <= 0 ? key : key.substring(tab + 1);
  }

  /** Whether the page key belongs to {@code crawl} (null = any crawl). */
  public static boolean inCrawl(String key, String crawl) {
    if (crawl == null) {
      return true;
    }
    int tab = key.indexOf(SEPARATOR);
    if (isDefault(crawl)) {
      return tab <= 0;
    }
    return tab == crawl.length() && key.startsWith(crawl);
  }

  /** The crawl a client names, or the default one for none. */
  public static String crawlOrDefault(String crawl) {
    return isDefault(crawl) ? DEFAULT_CRAWL : crawl;
  }

  static boolean isDefault(String crawl) {
    return crawl == null || crawl.isEmpty() || DEFAULT_CRAWL.equals(crawl);
  }

  /** A crawl ID as sent, checked: null for the default crawl, or a {@code bad_crawl} rejection. */
  static String checked(String crawl) throws Rejection {
    if (isDefault(crawl)) {
      return null;
    }
    if (crawl.length() > MAX_CRAWL_CHARS || crawl.chars().anyMatch(Character::isISOControl)) {
      throw new Rejection(
          DeadLetterReason.BAD_CRAWL,
          "'crawl' must be at most " + MAX_CRAWL_CHARS + " characters without control characters");
    }
    return crawl;
  }
}
