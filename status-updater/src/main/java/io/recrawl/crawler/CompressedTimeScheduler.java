package io.recrawl.crawler;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.persistence.Scheduler;
import com.digitalpebble.stormcrawler.persistence.Status;
import io.recrawl.schedule.ConfReader;
import io.recrawl.schedule.DefaultConf;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs a StormCrawler {@link Scheduler}, unchanged, as if one day lasted {@value #SECONDS_PER_DAY}
 * seconds: its minutes are minutes of that compressed day. The scheduler reads the real clock, so
 * time is stretched around each call's present: a date it returns, {@code now + d}, goes at {@code
 * now + d / k} (k = 86,400 / seconds per day), and a date it reads from {@value #DATE_KEYS} is seen
 * {@code k} times further in the past than it is, then written back the same way. Durations it
 * keeps in metadata (AdaptiveScheduler's {@code fetchInterval}) stay in its own minutes.
 *
 * <pre>
 * scheduler.class: "io.recrawl.crawler.CompressedTimeScheduler"
 * recrawl.compressed.scheduler.class: "com.digitalpebble.stormcrawler.persistence.AdaptiveScheduler"
 * recrawl.compressed.seconds-per-day: 20
 * </pre>
 */
public class CompressedTimeScheduler extends Scheduler {

  public static final String SCHEDULER_CLASS = "recrawl.compressed.scheduler.class";
  public static final String SECONDS_PER_DAY = "recrawl.compressed.seconds-per-day";
  public static final String DATE_KEYS = "recrawl.compressed.date-keys";

  private Scheduler inner;
  private double k;
  private List<String> dateKeys;

  @Override
  protected void init(Map<String, Object> stormConf) {
    ConfReader r = new ConfReader(stormConf, DefaultConf.CRAWLER);
    String name = r.string(SCHEDULER_CLASS);
    if (name.equals(getClass().getName())) {
      throw new IllegalArgumentException(SCHEDULER_CLASS + ": must name the scheduler it runs");
    }
    k = 86_400 / r.positive(SECONDS_PER_DAY);
    dateKeys = r.list(DATE_KEYS);
    Map<String, Object> own = new HashMap<>(stormConf);
    own.put("scheduler.class", name);
    inner = Scheduler.getInstance(own);
  }

  @Override
  public Optional<Date> schedule(Status status, Metadata metadata) {
    // The scheduler's own clock, read a moment later inside the call: the gap is squeezed too.
    long now = System.currentTimeMillis();
    Map<String, String> real = new HashMap<>();
    Map<String, String> shown = new HashMap<>();
    for (String key : dateKeys) {
      String value = metadata.getFirstValue(key);
      Instant at = parse(value);
      if (at != null) {
        String stretched = Instant.ofEpochMilli(stretch(at.toEpochMilli(), now)).toString();
        metadata.setValue(key, stretched);
        real.put(key, value);
        shown.put(key, stretched);
      }
    }
    Optional<Date> next = inner.schedule(status, metadata);
    for (String key : dateKeys) {
      String written = metadata.getFirstValue(key);
      Instant at = parse(written);
      if (at == null) {
        continue;
      }
      // a date left as shown goes back exactly as it was, not through two roundings
      metadata.setValue(
          key,
          written.equals(shown.get(key))
              ? real.get(key)
              : Instant.ofEpochMilli(squeeze(at.toEpochMilli(), now)).toString());
    }
    return next.map(d -> new Date(squeeze(d.getTime(), now)));
  }

  /** A real date as the scheduler sees it: k times as far from now. */
  private long stretch(long realMs, long now) {
    return now + Math.round((realMs - now) * k);
  }

  /** A date of the scheduler's back to real time. */
  private long squeeze(long schedulerMs, long now) {
    return now + Math.round((schedulerMs - now) / k);
  }

  private static Instant parse(String value) {
    if (value == null) {
      return null;
    }
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
