package io.recrawl.live;

import io.recrawl.sim.PolicyRun;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/recrawl bench live}: the changing web, one server per system with the same start, the
 * systems crawling it side by side, then the judge's figures, the simulator's prediction and the
 * report. Every child JVM is stopped at the end, and on Ctrl-C; their logs stay in the output.
 */
public final class LiveBench {

  /** The run's settings; every field has the default {@code bench live} documents. */
  public static final class Options {
    public LiveWebOptions web = new LiveWebOptions();

    /** Fetches a second, every system's budget. */
    public double budget = 10;

    /** Seconds after the start that the figures leave out. */
    public double warmupSeconds = 240;

    /**
     * Seconds between launching the systems and the start: the web does not change before it, so
     * each system's start-up (the job's MiniCluster, Storm's LocalCluster) costs it nothing.
     */
    public double startupSeconds = 60;

    public List<String> systems = LiveSystems.ALL;

    /** What recrawl's job hands back in each request ({@code recrawl.metadata.transfer}). */
    public List<String> transfer = LiveTuning.TRANSFER;

    /** URL Frontier's own server (its 2.6 service jar), for the {@code urlfrontier-*} systems. */
    public Path urlFrontierJar;

    /** Faults injected into recrawl's loop ({@code --fault KIND@SECONDS,...}). */
    public List<LiveFault> faults = List.of();

    public Path out = Path.of("work/live");

    /** A running broker's bootstrap servers for the job; null: start the trial broker. */
    public String kafka;

    /** This checkout, whose builds the child JVMs run. */
    public Path home = Path.of(System.getProperty("recrawl.home", "."));

    public double progressSeconds = 15;

    /** Run the simulator's policies for the prediction (the optimum is always computed). */
    public boolean simulate = true;

    /**
     * A capacity spell from {@code from} to {@code to} seconds ({@code --capacity-spell}): the
     * door's crawlers fetch with {@link LiveConfigs#SPELL_THREADS} threads and every page answer
     * takes those threads over the budget seconds, so that the crawler's capacity is the budget,
     * and half of it during the spell, when answers take twice as long.
     */
    public void capacitySpell(double from, double to) {
      web.capacitySpell = new double[] {from, to};
      web.latencyMillis = (int) Math.round(1_000 * LiveConfigs.SPELL_THREADS / budget);
    }

    /** Seconds of the measurement window: the run after its warm-up. */
    public double windowSeconds() {
      return web.durationSeconds - warmupSeconds;
    }

    public void validate() {
      web.validate();
      require(budget > 0 && Double.isFinite(budget), "--budget must be > 0");
      require(
          warmupSeconds >= 0 && warmupSeconds < web.durationSeconds,
          "--warmup must be >= 0 and less than --minutes");
      require(!systems.isEmpty(), "--systems must name at least one system");
      for (String s : systems) {
        require(
            LiveSystems.KNOWN.contains(s),
            "--systems takes " + String.join(",", LiveSystems.KNOWN) + "; got '" + s + "'");
        require(
            !s.startsWith("urlfrontier-") || urlFrontierJar != null,
            s + " needs --urlfrontier-jar (URL Frontier's service jar; docs/live-benchmark.md)");
      }
      require(progressSeconds > 0, "--progress must be > 0");
      for (LiveFault f : faults) {
        require(systems.contains(LiveSystems.RECRAWL), "--fault needs recrawl among --systems");
        require(f.atSeconds() < web.durationSeconds, "--fault " + f + ": after the run's end");
        require(
            !f.childName().equals(LiveSystems.KAFKA) || kafka == null,
            "--fault kafka restarts the trial broker; drop --kafka");
      }
      require(startupSeconds >= 0 && startupSeconds <= 600, "--startup must be in [0, 600]");
    }

    private static void require(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException(message);
      }
    }
  }

  /** What a run measured: each system's figures, the tuning, the prediction. */
  public record Result(
      Map<String, LiveFigures> figures, double optimumFreshness, Map<String, Double> simulated) {}

  /**
   * The status latency of the gap's decomposition: the job's watermark trails the newest status by
   * its out-of-orderness (1 s, {@link LiveConfigs#job}), and every wake-up waits for it.
   */
  static final double STATUS_LATENCY_SECONDS = 1;

  private LiveBench() {}

  public static Result run(Options o, PrintStream out) throws Exception {
    o.validate();
    Path dir = Files.createDirectories(o.out.toAbsolutePath());
    LiveWeb web = LiveWeb.generate(o.web);
    Path truth = dir.resolve("web");
    web.writeGroundTruth(truth);
    Path hostsFile = dir.resolve("hosts.txt");
    web.writeHostsFile(hostsFile);
    double end = o.web.durationSeconds;
    double secondsPerDay = o.web.secondsPerDay;
    LivePrediction prediction =
        LivePrediction.prepare(
            web.workload(), o.budget, secondsPerDay, o.warmupSeconds, end, o.web.workload.seed);
    out.printf(
        Locale.ROOT,
        "live: %,d pages on %,d hosts (%s, seed %d), one simulated day = %s s, %s s run, %s s"
            + " warm-up%n",
        web.workload().pages(),
        web.workload().hosts(),
        o.web.workload.family.name().toLowerCase(Locale.ROOT),
        o.web.workload.seed,
        fmt(secondsPerDay),
        fmt(end),
        fmt(o.warmupSeconds));
    out.printf(
        Locale.ROOT,
        "live: the web starts changing %s s after the systems are launched (--startup)%n",
        fmt(o.startupSeconds));
    out.println("live: StormCrawler's schedulers at their best settings, on the simulator ...");
    PeerTuning.Best peers = prediction.tunePeers();
    LiveTuning tuning =
        LiveTuning.of(
                web.workload().pages(),
                o.budget,
                secondsPerDay,
                prediction.lambda0(),
                peers.defaultIntervalDays(),
                peers.adaptive())
            .withTransfer(o.transfer);
    out.printf(
        Locale.ROOT,
        "live: %s, in compressed time (%d simulator runs)%n",
        tuning.peerSettings(),
        peers.runs());
    out.printf(
        Locale.ROOT,
        "live: budget %s fetches/s; CrawlValueScheduler threshold %.4g real days (optimum's price"
            + " %.4g simulated days)%n",
        fmt(o.budget),
        tuning.thetaRealDays(),
        prediction.lambda0());

    LiveSystems launcher = new LiveSystems(new LiveLaunch(o.home), dir, hostsFile);
    List<ChildJvm> children = new ArrayList<>();
    Map<String, LiveServer> servers = new LinkedHashMap<>();
    long t0;
    try {
      String bootstrap = o.kafka;
      if (o.systems.contains(LiveSystems.RECRAWL) && bootstrap == null) {
        int port = freePort();
        children.add(launcher.kafka(port, freePort()));
        bootstrap = "127.0.0.1:" + port;
        out.println("live: Kafka broker on " + bootstrap);
      }
      t0 = System.currentTimeMillis() + Math.round(o.startupSeconds * 1000);
      long runSeconds = (long) Math.ceil(end);
      for (String system : o.systems) {
        LiveServer server = web.serve(system, dir.resolve("requests-" + system + ".csv"), t0);
        servers.put(system, server);
        List<String> seeds = web.seedLines(server.port());
        if (system.equals(LiveSystems.RECRAWL)) {
          children.addAll(launcher.recrawl(bootstrap, seeds, tuning, runSeconds));
        } else if (LiveSystems.DOOR.contains(system)) {
          children.addAll(
              launcher.throughTheDoor(
                  system,
                  seeds,
                  tuning,
                  o.budget,
                  maxPending(o, seeds.size()),
                  o.web.capacitySpell == null ? 0 : LiveConfigs.SPELL_THREADS,
                  runSeconds,
                  o.urlFrontierJar));
        } else {
          children.add(launcher.memoryFrontier(system, seeds, tuning, runSeconds));
        }
        out.printf("live: %s on port %d%n", system, server.port());
      }
      watch(o, out, t0, servers, children);
    } finally {
      stop(children, servers, out);
    }

    Map<String, LiveFigures> figures = new LinkedHashMap<>();
    for (String system : o.systems) {
      figures.put(
          system,
          LiveJudge.judge(
              truth, dir.resolve("requests-" + system + ".csv"), system, o.warmupSeconds, end));
    }
    Map<String, PolicyRun> gap = new LinkedHashMap<>();
    if (o.simulate) {
      out.println("live: the simulator's prediction ...");
      prediction.runAll();
      LiveFigures job = figures.get(LiveSystems.RECRAWL);
      if (job != null) {
        gap = prediction.decompose(job.fetches() / o.windowSeconds(), STATUS_LATENCY_SECONDS);
      }
    }
    Map<LiveFault, FaultRecovery> recoveries = new LinkedHashMap<>();
    // watch ends normally only once every fault was injected
    for (LiveFault f : o.faults) {
      recoveries.put(
          f,
          FaultRecovery.measure(
              dir.resolve("requests-" + LiveSystems.RECRAWL + ".csv"), f.atSeconds(), end));
    }
    PullRecord pull =
        o.web.capacitySpell != null && o.systems.contains(LiveSystems.RECRAWL_FRONTIER)
            ? PullRecord.read(
                dir.resolve(LiveSystems.RECRAWL_FRONTIER)
                    .resolve(LiveSystems.RECRAWL_FRONTIER + "-service.log"),
                t0,
                o.budget,
                o.web.capacitySpell)
            : null;
    LiveReport report = new LiveReport(o, web, tuning, prediction, figures, recoveries, gap, pull);
    out.print(report.table());
    report.writeJson(dir.resolve("results.json"));
    report.writeHtml(dir.resolve("report.html"));
    out.println(
        "live: wrote " + dir.resolve("results.json") + " and " + dir.resolve("report.html"));
    Map<String, Double> simulated = new LinkedHashMap<>();
    prediction.runs.forEach((k, v) -> simulated.put(k, v.weightedFreshness));
    return new Result(figures, prediction.optimum.weightedFreshness, simulated);
  }

  /**
   * The tuples a door system's crawler may hold: every page and then some, unless the run changes
   * the crawler's capacity, where it is five seconds of the budget, so that a slower fetcher slows
   * the pull (a crawler that holds every page it is given takes at the same pace however slowly it
   * fetches, and its queue grows instead).
   */
  private static int maxPending(Options o, int pages) {
    return o.web.capacitySpell == null ? pages + 100 : (int) Math.max(4, Math.ceil(5 * o.budget));
  }

  /**
   * Prints each system's requests so far until the run's end, injecting the faults on time; fails
   * when a child ends early otherwise.
   */
  private static void watch(
      Options o, PrintStream out, long t0, Map<String, LiveServer> servers, List<ChildJvm> children)
      throws InterruptedException, IOException {
    long endAt = t0 + Math.round(o.web.durationSeconds * 1000);
    long step = Math.round(o.progressSeconds * 1000);
    long next = System.currentTimeMillis() + step;
    List<LiveFault> pending = new ArrayList<>(o.faults);
    pending.sort(java.util.Comparator.comparingDouble(LiveFault::atSeconds));
    while (System.currentTimeMillis() < endAt) {
      long wake = Math.min(next, endAt);
      if (!pending.isEmpty()) {
        wake = Math.min(wake, pending.get(0).dueAt(t0));
      }
      Thread.sleep(Math.max(1, wake - System.currentTimeMillis()));
      while (!pending.isEmpty() && System.currentTimeMillis() >= pending.get(0).dueAt(t0)) {
        inject(pending.remove(0), children, out, t0);
      }
      for (ChildJvm c : children) {
        if (!c.isAlive()) {
          throw new IllegalStateException(c.name() + " ended early; see " + c.logFile());
        }
      }
      if (System.currentTimeMillis() >= next) {
        StringBuilder line =
            new StringBuilder(
                String.format(
                    Locale.ROOT, "live: %4.0f s", (System.currentTimeMillis() - t0) / 1000.0));
        servers.forEach(
            (name, s) -> line.append(String.format(Locale.ROOT, "  %s %,d", name, s.requests())));
        out.println(line.append(" requests"));
        next += step;
      }
    }
  }

  /** Kills the fault's JVM and starts it again in its place. */
  private static void inject(LiveFault f, List<ChildJvm> children, PrintStream out, long t0)
      throws InterruptedException, IOException {
    for (int i = 0; i < children.size(); i++) {
      ChildJvm c = children.get(i);
      if (c.name().equals(f.childName())) {
        c.kill();
        children.set(i, c.restart(f.restartArgs()));
        out.printf(
            Locale.ROOT,
            "live: %4.0f s  fault %s: killed %s and started it again%n",
            (System.currentTimeMillis() - t0) / 1000.0,
            f,
            c.name());
        return;
      }
    }
    throw new IllegalStateException("fault " + f + ": no " + f.childName() + " in this run");
  }

  /**
   * Every system at once (crawlers by closing their input, the job by SIGTERM), then the broker.
   */
  private static void stop(
      List<ChildJvm> children, Map<String, LiveServer> servers, PrintStream out) throws Exception {
    ChildJvm kafka = null;
    List<Thread> stopping = new ArrayList<>();
    for (ChildJvm c : children) {
      if (c.name().equals(LiveSystems.KAFKA)) {
        kafka = c;
        continue;
      }
      Thread t =
          new Thread(
              () -> {
                try {
                  if (c.name().endsWith("-crawler")) {
                    c.closeInput(30_000);
                  } else {
                    c.stop(60_000);
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      t.start();
      stopping.add(t);
    }
    for (Thread t : stopping) {
      t.join();
    }
    for (LiveServer s : servers.values()) {
      s.close();
    }
    if (kafka != null) {
      kafka.stop(30_000);
    }
    out.println("live: stopped every system; logs in each system's directory");
  }

  /**
   * The hosts file replaces the JVM's resolver, and Storm's LocalCluster looks up this machine's
   * own name: it must be in the file too.
   */
  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  static String fmt(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3g", v);
  }
}
