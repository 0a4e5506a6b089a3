package io.recrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.persistence.AdaptiveScheduler;
import com.digitalpebble.stormcrawler.persistence.Scheduler;
import com.digitalpebble.stormcrawler.persistence.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CompressedTimeSchedulerTest {

  /** One simulated day in 86.4 s: the scheduler's minutes last 60 ms. */
  private static final double K = 1000;

  private static Map<String, Object> conf(String inner, double secondsPerDay) {
    Map<String, Object> c = new HashMap<>();
    c.put("scheduler.class", CompressedTimeScheduler.class.getName());
    c.put(CompressedTimeScheduler.SCHEDULER_CLASS, inner);
    c.put(CompressedTimeScheduler.SECONDS_PER_DAY, secondsPerDay);
    c.put("scheduler.adaptive.fetchInterval.min", 60);
    c.put("fetchInterval.default", 1440);
    return c;
  }

  /** A page's life: first fetch, unchanged, changed twice, a 304, unchanged, an error. */
  private static final List<Object[]> LIFE =
      List.of(
          new Object[] {Status.FETCHED, "200", "s0", null},
          new Object[] {Status.FETCHED, "200", "s0", "s0"},
          new Object[] {Status.FETCHED, "200", "s1", "s0"},
          new Object[] {Status.FETCHED, "200", "s2", "s1"},
          new Object[] {Status.FETCHED, "304", null, null},
          new Object[] {Status.FETCHED, "200", "s2", "s2"},
          new Object[] {Status.FETCH_ERROR, "500", null, null});

  private record Step(long intervalMs, String fetchInterval) {}

  private static List<Step> live(Scheduler s) {
    Metadata md = new Metadata();
    List<Step> steps = new ArrayList<>();
    for (Object[] e : LIFE) {
      md.setValue("fetch.statusCode", (String) e[1]);
      put(md, "signature", (String) e[2]);
      put(md, "signatureOld", (String) e[3]);
      long before = System.currentTimeMillis();
      Optional<Date> next = s.schedule((Status) e[0], md);
      steps.add(new Step(next.orElseThrow().getTime() - before, md.getFirstValue("fetchInterval")));
    }
    return steps;
  }

  private static void put(Metadata md, String key, String value) {
    if (value == null) {
      md.remove(key);
    } else {
      md.setValue(key, value);
    }
  }

  @Test
  void adaptiveSchedulerCompressedMakesTheSameDecisionsAtOneThousandthOfTheIntervals() {
    String adaptive = AdaptiveScheduler.class.getName();
    Map<String, Object> plain = conf(adaptive, 86_400);
    plain.put("scheduler.class", adaptive);
    List<Step> uncompressed = live(Scheduler.getInstance(plain));
    List<Step> compressed = live(Scheduler.getInstance(conf(adaptive, 86_400 / K)));

    assertThat(compressed).hasSameSizeAs(uncompressed);
    for (int i = 0; i < uncompressed.size(); i++) {
      Step u = uncompressed.get(i);
      Step c = compressed.get(i);
      assertThat(c.fetchInterval()).as("step %d", i).isEqualTo(u.fetchInterval());
      // Whole minutes: 1440, 2160, 1110, ... — so a compressed one is 60 ms, give or take the
      // milliseconds each call takes.
      assertThat(c.intervalMs() * K).as("step %d", i).isCloseTo(u.intervalMs(), within(50 * K));
      assertThat(u.intervalMs()).isGreaterThanOrEqualTo(60 * 60_000L);
    }
  }

  /** Returns the day after the date it reads. */
  public static final class DayAfterSignatureChange extends Scheduler {
    @Override
    protected void init(Map<String, Object> stormConf) {}

    @Override
    public Optional<Date> schedule(Status status, Metadata metadata) {
      Instant changed = Instant.parse(metadata.getFirstValue("signatureChangeDate"));
      metadata.setValue("seen", changed.toString());
      return Optional.of(new Date(changed.toEpochMilli() + 86_400_000L));
    }
  }

  @Test
  void aDateReadFromMetadataIsStretchedAndItsConsequenceSqueezedBack() {
    Scheduler s = Scheduler.getInstance(conf(DayAfterSignatureChange.class.getName(), 86_400 / K));
    long now = System.currentTimeMillis();
    String changed = Instant.ofEpochMilli(now - 2_000).toString();
    Metadata md = new Metadata();
    md.setValue("signatureChangeDate", changed);

    long next = s.schedule(Status.FETCHED, md).orElseThrow().getTime();

    // 2 s ago is 2,000 s ago to the scheduler; its day after is 86.4 s after the real date.
    long seen = Instant.parse(md.getFirstValue("seen")).toEpochMilli();
    assertThat((double) now - seen).isCloseTo(2_000 * K, within(100 * K));
    assertThat((double) next).isCloseTo(now - 2_000 + 86_400, within(100.0));
    // The scheduler left the date as it saw it: it goes back exactly as it was.
    assertThat(md.getFirstValue("signatureChangeDate")).isEqualTo(changed);
  }

  @Test
  void aSchedulerThatRunsItselfIsRefused() {
    Map<String, Object> c = conf(CompressedTimeScheduler.class.getName(), 20);
    assertThatThrownBy(() -> Scheduler.getInstance(c))
        .hasStackTraceContaining(CompressedTimeScheduler.SCHEDULER_CLASS);
  }
}
