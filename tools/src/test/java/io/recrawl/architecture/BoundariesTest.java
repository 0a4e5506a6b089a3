package io.recrawl.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package boundaries the design rests on, checked on the compiled main classes of every module
 * (tools is built last, so all of them are there). Maven's module graph already keeps a module from
 * compiling against one it does not depend on; these rules hold by package, so they also catch a
 * class put in another module's package, and the boundaries inside a module (the StormCrawler-free
 * classes of the crawler's modules, the URL Frontier service's Flink-free core, the engine's
 * layers).
 */
class BoundariesTest {

  private static final String[] FLINK = {"org.apache.flink.."};
  private static final String[] STORM = {"org.apache.storm..", "com.digitalpebble.."};
  private static final String[] TOOLS = {
    "io.recrawl.flink.cli..",
    "io.recrawl.flink.bench..",
    "io.recrawl.flink.tools..",
    "io.recrawl.live.."
  };
  private static final String[] JOB = {
    "io.recrawl.flink.job..",
    "io.recrawl.flink.scheduler..",
    "io.recrawl.flink.io..",
    "io.recrawl.flink.types..",
    "io.recrawl.flink.control..",
    "io.recrawl.flink.config..",
    "io.recrawl.flink.launch.."
  };
  private static final String[] ENGINE = {
    "io.recrawl.value..",
    "io.recrawl.estimate..",
    "io.recrawl.engine..",
    "io.recrawl.optimum..",
    "io.recrawl.wire.."
  };

  private static JavaClasses classes;

  @BeforeAll
  static void importAll() throws IOException {
    List<Path> dirs = new ArrayList<>();
    for (Path module : Modules.withMainSources()) {
      Path built = module.resolve("target/classes");
      assertThat(built).as("built before tools' tests").isDirectory();
      dirs.add(built);
    }
    classes = new ClassFileImporter().importPaths(dirs);
    assertThat(classes.containPackage("io.recrawl.engine")).isTrue();
  }

  @Test
  void theEngineKnowsNoRuntime() {
    check(
        noClasses()
            .that()
            .resideInAnyPackage(ENGINE)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                concat(
                    FLINK,
                    STORM,
                    new String[] {
                      "org.apache.kafka..",
                      "io.grpc..",
                      "crawlercommons.urlfrontier..",
                      "io.recrawl.flink..",
                      "io.recrawl.sim..",
                      "io.recrawl.live..",
                      "io.recrawl.crawler..",
                      "io.recrawl.frontier..",
                      "io.recrawl.stormcrawler..",
                      "io.recrawl.schedule..",
                      "io.recrawl.kafka.."
                    }))
            .because("the job, the simulator and the crawler's modules run the very same engine"));
  }

  @Test
  void theEnginesLayersPointOneWay() {
    check(
        noClasses()
            .that()
            .resideInAnyPackage("io.recrawl.value..", "io.recrawl.wire..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "io.recrawl.estimate..", "io.recrawl.engine..", "io.recrawl.optimum..")
            .because("the crawl value and the wire format stand on nothing else of recrawl"));
    check(
        noClasses()
            .that()
            .resideInAnyPackage(
                "io.recrawl.value..", "io.recrawl.estimate..", "io.recrawl.optimum..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.recrawl.engine..")
            .because("the math and the optimum are the engine's references, not its parts"));
  }

  @Test
  void theJobKnowsNoneOfItsTools() {
    check(
        noClasses()
            .that()
            .resideInAnyPackage(JOB)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                concat(
                    TOOLS,
                    STORM,
                    new String[] {
                      "io.recrawl.sim..",
                      "io.recrawl.frontier..",
                      "io.recrawl.crawler..",
                      "io.recrawl.stormcrawler..",
                      "io.recrawl.schedule..",
                      "io.recrawl.kafka.."
                    }))
            .because("the job's jar is what flink run needs, and nothing else"));
  }

  @Test
  void theSimulatorRunsTheEngineWithoutFlink() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.recrawl.sim..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                concat(
                    FLINK,
                    STORM,
                    new String[] {
                      "org.apache.kafka..", "io.recrawl.flink..", "io.recrawl.live.."
                    })));
  }

  @Test
  void theCrawlersModulesUseNoFlinkAndTheirCoreNoStorm() {
    check(
        noClasses()
            .that()
            .resideInAnyPackage(
                "io.recrawl.crawler..", "io.recrawl.stormcrawler..", "io.recrawl.schedule..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                concat(FLINK, new String[] {"io.recrawl.flink..", "io.recrawl.sim.."})));
    // What needs no Storm type is plain Java, so a port to StormCrawler 3.x is a change of imports.
    check(
        noClasses()
            .that()
            .resideInAPackage("io.recrawl.schedule..")
            .or()
            .haveFullyQualifiedName("io.recrawl.crawler.CrawlerSettings")
            .or()
            .haveFullyQualifiedName("io.recrawl.crawler.StatusEvents")
            .or()
            .haveFullyQualifiedName("io.recrawl.crawler.RecrawlPublisher")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(STORM));
  }

  @Test
  void theFrontierServiceUsesTheJobOnlyWhereItEmbedsIt() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.recrawl.frontier..")
            .and()
            .doNotHaveFullyQualifiedName("io.recrawl.frontier.EmbeddedFrontier")
            .and()
            .doNotHaveFullyQualifiedName("io.recrawl.frontier.FrontierCommand")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(concat(FLINK, JOB))
            .because(
                "the service talks to the job through Kafka; only bin/recrawl frontier starts one"));
    check(
        noClasses()
            .that()
            .resideInAPackage("io.recrawl.frontier..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(concat(TOOLS, new String[] {"io.recrawl.sim.."})));
  }

  private static void check(ArchRule rule) {
    rule.check(classes);
  }

  private static String[] concat(String[]... parts) {
    return java.util.Arrays.stream(parts).flatMap(java.util.Arrays::stream).toArray(String[]::new);
  }
}
