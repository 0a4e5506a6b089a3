package io.recrawl.stormcrawler;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.persistence.Scheduler;
import com.digitalpebble.stormcrawler.persistence.Status;
import io.recrawl.schedule.MetadataView;
import io.recrawl.schedule.RevisitPolicy;
import io.recrawl.schedule.RevisitSettings;
import io.recrawl.wire.CrawlStatus;
import java.time.Clock;
import java.util.Date;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A StormCrawler {@link Scheduler} that recrawls each page when its crawl value reaches a
 * threshold. Enable it with {@code scheduler.class: "io.recrawl.stormcrawler.CrawlValueScheduler"}.
 * All logic lives in {@link RevisitPolicy}; this class only adapts StormCrawler's types.
 */
public class CrawlValueScheduler extends Scheduler {

  private final Clock clock;
  private RevisitPolicy policy;

  public CrawlValueScheduler() {
    this(Clock.systemUTC());
  }

  CrawlValueScheduler(Clock clock) {
    this.clock = clock;
  }

  @Override
  protected void init(Map<String, Object> stormConf) {
    policy = new RevisitPolicy(RevisitSettings.fromConf(stormConf));
  }

  @Override
  public Optional<Date> schedule(Status status, Metadata metadata) {
    OptionalLong next =
        policy.schedule(
            CrawlStatus.valueOf(status.name()), new MetadataAdapter(metadata), clock.millis());
    return next.isPresent() ? Optional.of(new Date(next.getAsLong())) : Optional.empty();
  }

  /** StormCrawler's Metadata as a MetadataView. */
  private static final class MetadataAdapter implements MetadataView {
    private final Metadata md;

    MetadataAdapter(Metadata md) {
      this.md = md;
    }

    @Override
    public String get(String key) {
      return md.getFirstValue(key);
    }

    @Override
    public void set(String key, String value) {
      md.setValue(key, value);
    }

    @Override
    public void remove(String key) {
      md.remove(key);
    }
  }
}
