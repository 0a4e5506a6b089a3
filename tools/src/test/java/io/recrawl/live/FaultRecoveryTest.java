package io.recrawl.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultRecoveryTest {

  @TempDir Path dir;

  /**
   * Two pages fetched every 2 s each (one fetch a second in all) until a fault at 100 s, then
   * nothing for 20 s, then every 2 s again; one page never comes back.
   */
  @Test
  void silenceRecoveryAndLatenessFromTheLogAlone() throws Exception {
    StringBuilder log = new StringBuilder(RequestLog.HEADER).append('\n');
    for (long t = 0; t < 100_000; t += 1_000) {
      String page = (t / 1000) % 2 == 0 ? "/p0" : "/p1";
      log.append(t).append(",a.web.test,").append(page).append(",200,0,\n");
    }
    for (long t = 120_000; t < 300_000; t += 1_000) {
      log.append(t).append(",a.web.test,/p0,200,0,\n");
    }
    Path file = Files.writeString(dir.resolve("requests-x.csv"), log);

    FaultRecovery r = FaultRecovery.measure(file, 100, 300);

    assertThat(r.silenceSeconds()).isCloseTo(20, within(1e-9));
    // ten fetches per 10 s before; after, the 10 s up to 129 s are the first to hold nine
    assertThat(r.recoverySeconds()).isCloseTo(29, within(1e-9));
    // both were due at 100 s and 101 s; /p0 came at 120 s (19-20 s late), /p1 never (until 300 s)
    assertThat(r.pagesDue()).isEqualTo(2);
    assertThat(r.notFetchedAgain()).isEqualTo(1);
    assertThat(r.maxLateSeconds()).isCloseTo(199, within(1e-9));
  }

  /**
   * A page crawled first at 90 s and again at 95 s has no recrawl interval yet: that the next
   * recrawl comes later than 5 s after the second fetch is the schedule, not the fault.
   */
  @Test
  void aPageWithoutTwoRecrawlsBeforeTheFaultIsNotDue() throws Exception {
    StringBuilder log = new StringBuilder(RequestLog.HEADER).append('\n');
    log.append("90000,a.web.test,/new,200,0,\n");
    log.append("95000,a.web.test,/new,200,0,\n");
    for (long t = 0; t < 300_000; t += 10_000) {
      log.append(t).append(",a.web.test,/old,200,0,\n");
    }
    Path file = Files.writeString(dir.resolve("requests-y.csv"), log.toString());

    FaultRecovery r = FaultRecovery.measure(file, 100, 300);

    assertThat(r.pagesDue()).isEqualTo(1); // /old only
    assertThat(r.notFetchedAgain()).isZero();
  }

  @Test
  void aFaultNamesItsKindAndTime() {
    assertThat(LiveFault.parse("job@300")).isEqualTo(new LiveFault("job", 300));
    assertThat(LiveFault.parse("kafka@12.5").childName()).isEqualTo("kafka");
    assertThatThrownBy(() -> LiveFault.parse("taskmanager@300")).hasMessageContaining("job");
    assertThatThrownBy(() -> LiveFault.parse("job")).hasMessageContaining("KIND@SECONDS");
  }
}
