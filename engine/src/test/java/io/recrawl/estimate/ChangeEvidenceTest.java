package io.recrawl.estimate;

import static io.recrawl.estimate.ChangeEvidence.Verdict.CHANGED;
import static io.recrawl.estimate.ChangeEvidence.Verdict.UNCHANGED;
import static io.recrawl.estimate.ChangeEvidence.Verdict.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

import io.recrawl.estimate.ChangeEvidence.Verdict;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChangeEvidenceTest {

  private static final long PREV = Instant.parse("2024-03-01T00:00:00Z").toEpochMilli();

  private static Verdict assess(
      Boolean explicit,
      Integer status,
      String sig,
      String prevSig,
      String etag,
      String prevEtag,
      Long lastMod,
      long prevFetch) {
    return ChangeEvidence.assess(
        explicit, status, sig, prevSig, etag, prevEtag, lastMod, prevFetch);
  }

  @Test
  void explicitVerdictBeatsEverything() {
    assertThat(assess(true, 304, "a", "a", "e", "e", PREV - 1, PREV)).isEqualTo(CHANGED);
    assertThat(assess(false, 200, "a", "b", "e", "f", PREV + 1, PREV)).isEqualTo(UNCHANGED);
  }

  @Test
  void notModifiedIsUnchangedEvenWhenSignaturesDiffer() {
    // A 304 has no body, so a fetcher may leave a stale or empty signature behind.
    assertThat(assess(null, 304, "a", "b", null, null, null, PREV)).isEqualTo(UNCHANGED);
    assertThat(assess(null, 304, null, null, null, null, null, 0)).isEqualTo(UNCHANGED);
  }

  @Test
  void signaturesDecideWhenBothPresent() {
    assertThat(assess(null, 200, "abc", "abc", "e1", "e2", PREV + 5, PREV)).isEqualTo(UNCHANGED);
    assertThat(assess(null, 200, "abc", "abd", "e1", "e1", PREV - 5, PREV)).isEqualTo(CHANGED);
  }

  @Test
  void oneSidedSignatureFallsThroughToEtag() {
    assertThat(assess(null, 200, "abc", null, "\"v1\"", "\"v1\"", null, 0)).isEqualTo(UNCHANGED);
    assertThat(assess(null, 200, null, "abc", "\"v1\"", "\"v2\"", null, 0)).isEqualTo(CHANGED);
    assertThat(assess(null, 200, "", "abc", "\"v1\"", "\"v2\"", null, 0)).isEqualTo(CHANGED);
  }

  @Test
  void weakAndStrongEtagOfTheSameVersionMatch() {
    assertThat(assess(null, 200, null, null, "W/\"v1\"", "\"v1\"", null, 0)).isEqualTo(UNCHANGED);
  }

  @Test
  void lastModifiedAgainstPreviousFetch() {
    assertThat(assess(null, 200, null, null, null, null, PREV + 1, PREV)).isEqualTo(CHANGED);
    assertThat(assess(null, 200, null, null, null, null, PREV, PREV)).isEqualTo(UNCHANGED);
    assertThat(assess(null, 200, null, null, "e", null, PREV - 1000, PREV)).isEqualTo(UNCHANGED);
  }

  @Test
  void lastModifiedNeedsAPreviousFetch() {
    assertThat(assess(null, 200, null, null, null, null, PREV, 0)).isEqualTo(UNKNOWN);
  }

  @Test
  void noEvidenceIsUnknown() {
    assertThat(assess(null, null, null, null, null, null, null, PREV)).isEqualTo(UNKNOWN);
    assertThat(assess(null, 200, "a", null, "e", null, null, PREV)).isEqualTo(UNKNOWN);
  }

  @Test
  void parsesTheThreeHttpDateForms() {
    long expected = Instant.parse("1994-11-06T08:49:37Z").toEpochMilli();
    assertThat(ChangeEvidence.parseDate("Sun, 06 Nov 1994 08:49:37 GMT")).isEqualTo(expected);
    assertThat(ChangeEvidence.parseDate("Sunday, 06-Nov-94 08:49:37 GMT")).isEqualTo(expected);
    assertThat(ChangeEvidence.parseDate("Sun Nov  6 08:49:37 1994")).isEqualTo(expected);
    assertThat(ChangeEvidence.parseDate("  Sun, 06 Nov 1994 08:49:37 GMT ")).isEqualTo(expected);
  }

  @Test
  void parsesIsoForms() {
    assertThat(ChangeEvidence.parseDate("2024-03-01T00:00:00Z")).isEqualTo(PREV);
    assertThat(ChangeEvidence.parseDate("2024-03-01T01:00:00+01:00")).isEqualTo(PREV);
    assertThat(ChangeEvidence.parseDate("2024-03-01T00:00:00")).isEqualTo(PREV);
    assertThat(ChangeEvidence.parseDate("2024-03-01")).isEqualTo(PREV);
    assertThat(ChangeEvidence.parseDate(Long.toString(PREV))).isEqualTo(PREV);
  }

  @Test
  void garbageIsNull() {
    assertThat(ChangeEvidence.parseDate(null)).isNull();
    assertThat(ChangeEvidence.parseDate("")).isNull();
    assertThat(ChangeEvidence.parseDate("yesterday")).isNull();
    assertThat(ChangeEvidence.parseDate("Sun, 32 Nov 1994 08:49:37 GMT")).isNull();
    assertThat(ChangeEvidence.parseDate("99999999999999999999999")).isNull();
  }

  @Test
  void aDateBeyondFourDigitYearsIsNotADate() {
    for (String hostile :
        List.of(
            "+999999999-12-31",
            "+300000000-01-01T00:00:00Z",
            "+300000000-01-01T00:00:00+01:00",
            "+300000000-01-01T00:00:00",
            "-300000000-01-01T00:00:00Z",
            "+10000-01-01T00:00:00Z",
            "99999999999999999")) {
      assertThat(ChangeEvidence.parseDate(hostile)).as(hostile).isNull();
    }
    assertThat(ChangeEvidence.parseDate("9999-12-31T23:59:59.999Z")).isEqualTo(253402300799999L);
  }
}
