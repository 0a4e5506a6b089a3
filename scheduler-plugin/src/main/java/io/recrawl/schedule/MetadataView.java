package io.recrawl.schedule;

/**
 * A URL's key/value metadata as the revisit policy sees it; adapters map a crawler's own type onto
 * it.
 */
public interface MetadataView {

  /** The first value of {@code key}, or null. */
  String get(String key);

  void set(String key, String value);

  void remove(String key);
}
