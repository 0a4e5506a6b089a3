package io.recrawl.flink.io.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recrawl.flink.io.deadletters.DeadLetters;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.DeadLetterCodec;
import io.recrawl.wire.DeadLetterReason;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** A record the sink would refuse becomes a counted, bounded dead letter. */
class OutputGateTest {

  private static CrawlRequest request(String url, String blob) {
    return new CrawlRequest(
        url, "a.org", blob == null ? Map.of() : Map.of("blob", List.of(blob)), 5, 1, 2.0, 1.0, 9);
  }

  private static OutputGate<CrawlRequest> gate(long maxBytes) {
    return new OutputGate<>(
        "requests",
        CrawlRequestCodec::toJson,
        CrawlRequest::host,
        CrawlRequestCodec::maxJsonBytes,
        maxBytes);
  }

  @Test
  void oversizeAndUnwritableRequestsBecomeDeadLettersAndAreCounted() throws Exception {
    OutputGate<CrawlRequest> fn =
        new OutputGate<>(
            "requests",
            r -> {
              if (r.url().contains("boom")) {
                throw new IllegalStateException("cannot write");
              }
              return CrawlRequestCodec.toJson(r);
            },
            CrawlRequest::host,
            CrawlRequestCodec::maxJsonBytes,
            10_000);
    CrawlRequest small = request("http://a.org/1", "x".repeat(1_000)); // estimate 6 KB: no check
    CrawlRequest near = request("http://a.org/2", "x".repeat(3_000)); // estimate 18 KB, is 3 KB
    CrawlRequest big = request("http://a.org/3", "€".repeat(20_000)); // 60 KB
    CrawlRequest boom = request("http://a.org/boom", "y".repeat(5_000));
    try (var harness =
        new OneInputStreamOperatorTestHarness<CrawlRequest, CrawlRequest>(
            new ProcessOperator<>(fn))) {
      harness.open();
      for (CrawlRequest r : List.of(small, near, big, boom)) {
        harness.processElement(new StreamRecord<>(r, 42));
      }
      assertThat(harness.extractOutputValues()).containsExactly(small, near);
      List<DeadLetter> dead =
          harness.getSideOutput(DeadLetters.TAG).stream().map(StreamRecord::getValue).toList();
      assertThat(dead)
          .extracting(DeadLetter::reason)
          .containsExactly(DeadLetterReason.OUTPUT_TOO_LARGE, DeadLetterReason.UNWRITABLE);
      assertThat(dead.get(0).detail()).contains("bytes, more than the sink's 10000");
      assertThat(dead.get(0).raw()).startsWith("{\"url\":\"http://a.org/3\"");
      assertThat(dead.get(1).detail()).contains("cannot write");
      assertThat(dead).extracting(DeadLetter::time).containsOnly(42L);
      assertThat(fn.counters().in()).isEqualTo(4);
      assertThat(fn.counters().count(DeadLetterReason.OUTPUT_TOO_LARGE)).isEqualTo(1);
      assertThat(fn.counters().count(DeadLetterReason.UNWRITABLE)).isEqualTo(1);
    }
  }

  @Test
  void whatPassesTheGateFitsAndItsDeadLettersAreBoundedWhateverTheRequest() {
    long limit = OutputGate.kafkaLimit(Map.of());
    assertThat(limit).isEqualTo(1_048_576 - OutputGate.KAFKA_OVERHEAD_BYTES);
    OutputGate<CrawlRequest> fn = gate(limit);
    for (int n : new int[] {0, 1_000, 100_000, 200_000, 1_000_000, 3_000_000}) {
      for (String unit : new String[] {"a", "€", "\u0001"}) {
        CrawlRequest r = request("http://a.org/" + n, unit.repeat(n));
        DeadLetter d = fn.check(r, 0);
        int bytes =
            CrawlRequestCodec.toJson(r).getBytes(StandardCharsets.UTF_8).length + r.host().length();
        if (d == null) {
          assertThat(bytes).as("%d x %s", n, unit).isLessThanOrEqualTo((int) limit);
        } else {
          assertThat(bytes).isGreaterThan((int) limit);
          assertThat(DeadLetterCodec.toJson(d).getBytes(StandardCharsets.UTF_8).length)
              .isLessThanOrEqualTo(DeadLetter.MAX_JSON_BYTES);
        }
      }
    }
  }

  @Test
  void kafkaLimitFollowsMaxRequestSize() {
    assertThat(OutputGate.kafkaLimit(Map.of("max.request.size", "600000"))).isEqualTo(598_976);
    assertThatThrownBy(() -> OutputGate.kafkaLimit(Map.of("max.request.size", "big")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aDeadLetterIsCutFurtherForASinkBelowItsBound() {
    DeadLetter d = DeadLetter.of("r".repeat(50_000), "bad_url", "\u0001".repeat(5_000), 3);
    for (long max : new long[] {200, 1_000, 20_000, 90_000}) {
      DeadLetter f = d.fit(max);
      assertThat(DeadLetterCodec.toJson(f).getBytes(StandardCharsets.UTF_8).length)
          .as("%d", max)
          .isLessThanOrEqualTo((int) max);
      assertThat(f.reason()).isEqualTo("bad_url");
    }
    assertThat(d.fit(DeadLetter.MAX_JSON_BYTES)).isSameAs(d);
  }
}
