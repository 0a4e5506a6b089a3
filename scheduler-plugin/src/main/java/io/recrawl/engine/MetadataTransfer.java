package io.recrawl.engine;

import io.recrawl.wire.StatusEvent;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The status metadata a page carries into its next crawl request ({@code metadata.transfer}), as
 * StormCrawler's {@code metadata.transfer} carries it from parent to outlink.
 */
final class MetadataTransfer {

  private final Set<String> keys;

  MetadataTransfer(Set<String> keys) {
    this.keys = keys;
  }

  /** Keeps on the page the event's values of the configured keys (replacing what it kept). */
  void keep(PageState p, StatusEvent e) {
    if (keys.isEmpty()) {
      return;
    }
    Map<String, List<String>> kept = null;
    for (String key : keys) {
      List<String> v = e.metadata().get(key);
      if (v != null) {
        if (kept == null) {
          kept = new HashMap<>();
        }
        kept.put(key, List.copyOf(v));
      }
    }
    if (kept != null) {
      p.metadata = kept;
    }
  }
}
