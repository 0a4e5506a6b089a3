package io.recrawl.engine;

/**
 * The state of one host, as the engine needs it: Flink keyed state in the job (the current key is
 * the host), hash maps in the simulator. Implementations must persist on put: the engine mutates
 * records and writes them back.
 */
public interface HostStore {

  /** The host record, or null when the host has no state. */
  HostState host();

  void putHost(HostState host);

  /** Removes the host record (the host's last page is gone). */
  void removeHost();

  /** A page record, or null. */
  PageState page(String url);

  void putPage(String url, PageState page);

  void removePage(String url);

  /** The URL at a queue slot, or null. */
  String slot(long key);

  void putSlot(long key, String url);

  /**
   * Puts a slot for a page whose record is at hand; a store that keeps records as objects may keep
   * it with the slot (see {@link #slotPage}). By default the record is not used.
   */
  default void putSlot(long key, String url, PageState page) {
    putSlot(key, url);
  }

  /**
   * The record of the page that slot {@code key} names ({@code url}, as {@link #slot} returned it),
   * or null; by default looked up by URL.
   */
  default PageState slotPage(long key, String url) {
    return page(url);
  }

  void removeSlot(long key);
}
