package io.recrawl.crawler;

import com.digitalpebble.stormcrawler.Metadata;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.DeadLetterReason;
import io.recrawl.wire.HostKeys;
import io.recrawl.wire.Parsed;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.storm.kafka.spout.KafkaTuple;
import org.apache.storm.kafka.spout.RecordTranslator;
import org.apache.storm.tuple.Fields;
import org.apache.storm.utils.Utils;

/**
 * Turns a {@code crawl.requests} record into StormCrawler's {@code (url, metadata)} tuple on the
 * default stream. A record that is not a valid crawl request goes, with its reason, to {@link
 * KafkaDeadLetterBolt#STREAM}: the spout emits it anchored like any tuple, so it is committed only
 * once the dead-letter bolt has it in Kafka.
 */
public class CrawlRequestTranslator implements RecordTranslator<String, String> {

  private static final long serialVersionUID = 1L;

  /** StormCrawler's spout output fields. */
  public static final Fields URL_FIELDS = new Fields("url", "metadata");

  private static final List<String> STREAMS =
      List.of(Utils.DEFAULT_STREAM_ID, KafkaDeadLetterBolt.STREAM);

  @Override
  public List<Object> apply(ConsumerRecord<String, String> record) {
    long now = System.currentTimeMillis();
    Parsed<CrawlRequest> parsed = CrawlRequestCodec.parse(record.value(), now);
    DeadLetter refused = null;
    if (parsed.ok()) {
      try {
        // The codec checks that url is text; the fetcher also needs an http(s) URL with a host.
        HostKeys.of(HostKeys.Mode.BY_HOST).keyOf(parsed.value().url());
      } catch (IllegalArgumentException e) {
        refused = DeadLetter.of(record.value(), DeadLetterReason.BAD_URL, e.getMessage(), now);
      }
    } else {
      refused = parsed.deadLetter();
    }
    if (refused != null) {
      String where = record.topic() + "/" + record.partition() + "@" + record.offset() + ": ";
      return new KafkaTuple(
              refused.reason(), where + refused.detail(), refused.raw(), refused.time())
          .routedTo(KafkaDeadLetterBolt.STREAM);
    }
    CrawlRequest request = parsed.value();
    // routedTo is needed: an unrouted KafkaTuple has a null stream, not the default one.
    return new KafkaTuple(request.url(), metadata(request.metadata()))
        .routedTo(Utils.DEFAULT_STREAM_ID);
  }

  static Metadata metadata(Map<String, List<String>> md) {
    Metadata m = new Metadata();
    md.forEach((k, v) -> m.setValues(k, v.toArray(new String[0])));
    return m;
  }

  @Override
  public Fields getFieldsFor(String stream) {
    return KafkaDeadLetterBolt.STREAM.equals(stream) ? KafkaDeadLetterBolt.FIELDS : URL_FIELDS;
  }

  @Override
  public List<String> streams() {
    return STREAMS;
  }
}
