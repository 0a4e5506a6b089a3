package io.recrawl.flink.cli;

import io.recrawl.live.LiveBench;
import io.recrawl.live.LiveFault;
import io.recrawl.live.LiveSuite;
import io.recrawl.live.LiveWebOptions;
import io.recrawl.sim.cli.SimOptions;
import io.recrawl.sim.workload.WorkloadGenerator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code bin/recrawl bench live}: the flags, then {@link LiveBench}. */
final class LiveBenchCommand {

  static final String OPTIONS =
      String.join(
          "\n",
          "[--pages 1200] [--hosts 40] [--family lognormal|bimodal|pareto] [--seed 1]",
          "         [--seconds-per-day 20] [--budget 10] [--minutes 13] [--warmup 240]",
          "         [--systems recrawl,default,adaptive,crawl-value-scheduler] [--out work/live]",
          "         [--validator-share 0.5] [--slow-share 0.1] [--pushy-share 0.1] [--crawl-delay-share 0.3]",
          "         [--startup 60] [--kafka HOST:PORT] [--progress 15] [--suite [--seeds 2]]",
          "         [--fault job|crawler|kafka@SECONDS,...] [--urlfrontier-jar PATH]",
          "         [--capacity-spell FROM-TO] [--transfer last-modified,...] [--history DIR]",
          "  the whole crawl loop against a changing web served on this machine, each system with its",
          "  own server; figures from the servers' logs (docs/benchmarks.md#live-the-whole-crawl-loop)",
          "  --budget        fetches per second, every system's",
          "  --minutes       how long the systems crawl; --warmup: seconds left out of the figures",
          "  --startup       seconds from launching the systems to the start (the web is still before it)",
          "  --seconds-per-day  one simulated day of the workload's change rates, in seconds",
          "  --history       a workload with observed changes (workload import --git or --cdx): the web",
          "                  serves its pages, host limits and change times from its day 0, instead of a",
          "                  generated web (--pages, --hosts, --family); the prediction replays them too",
          "  --kafka         a running broker for the job (default: start the trial broker)",
          "  --fault         KIND@SECONDS,...: kill recrawl's job (restarted from its latest",
          "                  checkpoint), crawler or kafka with SIGKILL at that time and start it again",
          "  --systems       also recrawl-frontier (bin/recrawl frontier), urlfrontier-default and",
          "                  urlfrontier-adaptive (URL Frontier's own server, from --urlfrontier-jar),",
          "                  each crawled by the StormCrawler 2.4 topology of urlfrontier-crawler",
          "  --capacity-spell  FROM-TO seconds: the door's crawlers fetch with 2 threads, every page",
          "                  answer takes 2 / budget seconds (the capacity is the budget) and twice",
          "                  as long from FROM to TO (half of it); the crawlers hold at most 5 s of",
          "                  the budget in tuples, and the report charts the pull's budget",
          "  --transfer      the metadata recrawl's job hands back in each request (its",
          "                  recrawl.metadata.transfer; default last-modified): add protocol.etag",
          "                  for If-None-Match",
          "  --suite         one run per family and seed (--seeds of them from --seed), each in",
          "                  OUT/FAMILY-sSEED, then every system's margin against recrawl in",
          "                  OUT/suite.md; its own defaults: --pages 600 --hosts 20 --budget 5",
          "                  --minutes 8 --warmup 160");

  /** The suite's smaller, shorter webs: the default web's pace (a page every 120 s) in 8 min. */
  static final Map<String, String> SUITE_DEFAULTS =
      Map.of("pages", "600", "hosts", "20", "budget", "5", "minutes", "8", "warmup", "160");

  private LiveBenchCommand() {}

  static int run(String[] args) throws Exception {
    if (List.of(args).contains("--suite")) {
      return suite(args);
    }
    LiveBench.Options o;
    try {
      o = parse(args);
      o.validate();
    } catch (IllegalArgumentException e) {
      System.err.println("recrawl bench live: " + e.getMessage());
      System.err.println("usage: bin/recrawl bench live " + OPTIONS);
      return 2;
    }
    LiveBench.run(o, System.out);
    return 0;
  }

  private static int suite(String[] args) throws Exception {
    Map<String, LiveBench.Options> webs = new LinkedHashMap<>();
    Path out;
    try {
      Map<String, String> flags = new LinkedHashMap<>(SUITE_DEFAULTS);
      for (int i = 0; i < args.length; i++) {
        if (args[i].equals("--suite")) {
          continue;
        }
        if (!args[i].startsWith("--") || i + 1 >= args.length) {
          throw new IllegalArgumentException("expected --flag value, got '" + args[i] + "'");
        }
        flags.put(args[i].substring(2), args[++i]);
      }
      if (flags.containsKey("family")) {
        throw new IllegalArgumentException("--suite runs every family; drop --family");
      }
      int seeds = Integer.parseInt(flags.getOrDefault("seeds", "2"));
      if (seeds < 1) {
        throw new IllegalArgumentException("--seeds must be >= 1");
      }
      long first = Long.parseLong(flags.getOrDefault("seed", "1"));
      out = Path.of(flags.getOrDefault("out", "work/live-suite"));
      flags.remove("seeds");
      for (String family : LiveSuite.FAMILIES) {
        for (long seed = first; seed < first + seeds; seed++) {
          String name = family + "-s" + seed;
          Map<String, String> own = new LinkedHashMap<>(flags);
          own.put("family", family);
          own.put("seed", "" + seed);
          own.put("out", out.resolve(name).toString());
          List<String> argv = new ArrayList<>();
          own.forEach((k, v) -> argv.addAll(List.of("--" + k, v)));
          LiveBench.Options o = parse(argv.toArray(String[]::new));
          o.validate();
          webs.put(name, o);
        }
      }
    } catch (IllegalArgumentException e) {
      System.err.println("recrawl bench live: " + e.getMessage());
      System.err.println("usage: bin/recrawl bench live " + OPTIONS);
      return 2;
    }
    LiveSuite.run(webs, out, System.out);
    return 0;
  }

  static LiveBench.Options parse(String[] args) {
    SimOptions a = new SimOptions(args, Set.of(), Set.of("systems", "fault", "transfer"));
    LiveBench.Options o = new LiveBench.Options();
    LiveWebOptions web = o.web;
    WorkloadGenerator.Options g =
        WorkloadGenerator.Options.of(
            WorkloadGenerator.Family.parse(a.string("family", "lognormal")));
    g.pages = (int) a.integer("pages", web.workload.pages);
    g.hosts = (int) a.integer("hosts", web.workload.hosts);
    g.seed = a.integer("seed", web.workload.seed);
    web.workload = g;
    String history = a.string("history", null);
    web.history = history == null ? null : Path.of(history);
    web.secondsPerDay = a.number("seconds-per-day", web.secondsPerDay);
    web.durationSeconds = 60 * a.number("minutes", web.durationSeconds / 60);
    web.validatorShare = a.number("validator-share", web.validatorShare);
    web.slowShare = a.number("slow-share", web.slowShare);
    web.pushyShare = a.number("pushy-share", web.pushyShare);
    web.crawlDelayShare = a.number("crawl-delay-share", web.crawlDelayShare);
    o.budget = a.number("budget", o.budget);
    o.warmupSeconds = a.number("warmup", o.warmupSeconds);
    o.faults = a.list("fault").stream().map(LiveFault::parse).toList();
    List<String> transfer = a.list("transfer");
    if (!transfer.isEmpty()) {
      o.transfer = transfer;
    }
    List<String> systems = a.list("systems");
    if (!systems.isEmpty()) {
      o.systems = systems;
    }
    o.out = Path.of(a.string("out", o.out.toString()));
    o.kafka = a.string("kafka", null);
    String jar = a.string("urlfrontier-jar", null);
    o.urlFrontierJar = jar == null ? null : Path.of(jar).toAbsolutePath();
    o.progressSeconds = a.number("progress", o.progressSeconds);
    o.startupSeconds = a.number("startup", o.startupSeconds);
    String spell = a.string("capacity-spell", null);
    if (spell != null) {
      String[] fromTo = spell.split("-", -1);
      try {
        o.capacitySpell(Double.parseDouble(fromTo[0]), Double.parseDouble(fromTo[1]));
      } catch (RuntimeException bad) {
        throw new IllegalArgumentException(
            "--capacity-spell must be FROM-TO seconds, got '" + spell + "'");
      }
    }
    a.rejectUnknown();
    return o;
  }
}
