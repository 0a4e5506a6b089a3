package io.recrawl.live;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The door's pull as {@code bin/recrawl frontier} logged it, one line a pricing period, and how its
 * budget followed a capacity spell ({@code --capacity-spell}): the crawler's capacity is the
 * bench's budget, half of it during the spell.
 *
 * @param periods the periods, in order
 * @param capacity the crawler's capacity outside the spell, URLs a second
 * @param spell the spell, [from, to] seconds after the start
 */
record PullRecord(List<Period> periods, double capacity, double[] spell) {

  /** One pricing period, ending {@code seconds} after the start. */
  record Period(double seconds, long calls, long taken, long waiting, double budget) {}

  /** A budget within this factor of the capacity in force has followed it. */
  static final double FOLLOWED = 1.25;

  private static final Pattern LINE =
      Pattern.compile(
          "^(\\d\\d):(\\d\\d):(\\d\\d) .*pull: (\\d+) calls, \\d+ left URLs ready, (\\d+) taken,"
              + " \\d+ queues ready, (?:\\d+ takeable, )?(\\d+) waiting: budget ([0-9.]+) a second");

  /**
   * Reads the service's log; its lines carry the time of day (log4j's {@code HH:mm:ss} in this
   * JVM's zone), taken as the first such time at or after {@code t0} (a run shorter than a day).
   */
  static PullRecord read(Path log, long t0EpochMillis, double capacity, double[] spell)
      throws IOException {
    LocalTime start =
        LocalTime.ofInstant(Instant.ofEpochMilli(t0EpochMillis), ZoneId.systemDefault());
    double startSecond = start.toSecondOfDay() + start.getNano() / 1e9;
    List<Period> periods = new ArrayList<>();
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      Matcher m = LINE.matcher(line);
      if (!m.find()) {
        continue;
      }
      int second =
          Integer.parseInt(m.group(1)) * 3600
              + Integer.parseInt(m.group(2)) * 60
              + Integer.parseInt(m.group(3));
      // Lines before the start (the systems start up first) come out near a day later: dropped.
      double since = ((second - startSecond) % 86_400 + 86_400) % 86_400;
      if (since > 43_200) {
        continue;
      }
      periods.add(
          new Period(
              since,
              Long.parseLong(m.group(4)),
              Long.parseLong(m.group(5)),
              Long.parseLong(m.group(6)),
              Double.parseDouble(m.group(7))));
    }
    return new PullRecord(List.copyOf(periods), capacity, spell.clone());
  }

  /** The crawler's capacity at {@code seconds}, URLs a second. */
  double capacityAt(double seconds) {
    return seconds >= spell[0] && seconds < spell[1] ? capacity / 2 : capacity;
  }

  /**
   * Seconds from the spell's start until the budget first came within {@link #FOLLOWED} of half the
   * capacity; NaN if it never did during the spell.
   */
  double secondsToFollowTheHalving() {
    for (Period p : periods) {
      if (p.seconds() >= spell[0]
          && p.seconds() < spell[1]
          && p.budget() <= FOLLOWED * capacity / 2) {
        return p.seconds() - spell[0];
      }
    }
    return Double.NaN;
  }

  /**
   * Seconds from the spell's end until the budget first came within {@link #FOLLOWED} of the whole
   * capacity again; NaN if it never did.
   */
  double secondsToFollowTheDoubling() {
    for (Period p : periods) {
      if (p.seconds() >= spell[1] && p.budget() >= capacity / FOLLOWED) {
        return p.seconds() - spell[1];
      }
    }
    return Double.NaN;
  }

  /** The most URLs that waited in the outbox at a period's end from {@code fromSeconds} on. */
  long mostWaiting(double fromSeconds) {
    long most = 0;
    for (Period p : periods) {
      if (p.seconds() >= fromSeconds) {
        most = Math.max(most, p.waiting());
      }
    }
    return most;
  }

  double[] seconds() {
    return periods.stream().mapToDouble(Period::seconds).toArray();
  }

  double[] budgets() {
    return periods.stream().mapToDouble(Period::budget).toArray();
  }

  /** URLs taken a second in each period, over its length (the time since the one before). */
  double[] takenPerSecond() {
    double[] r = new double[periods.size()];
    for (int i = 0; i < r.length; i++) {
      int before = i > 0 ? i - 1 : Math.min(1, r.length - 1);
      double length = Math.abs(periods.get(i).seconds() - periods.get(before).seconds());
      r[i] = length > 0 ? periods.get(i).taken() / length : Double.NaN;
    }
    return r;
  }

  double[] waiting() {
    return periods.stream().mapToDouble(Period::waiting).toArray();
  }
}
