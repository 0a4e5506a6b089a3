package io.recrawl.crawler;

import com.codahale.metrics.Counter;
import io.recrawl.wire.DeadLetter;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;

/**
 * Publishes dead letters (tuples of {@link #FIELDS}, e.g. the request spout's {@link #STREAM}) to
 * the dead-letter topic as wire-format JSON; acks once Kafka has them, fails on a send error.
 */
public class KafkaDeadLetterBolt extends BaseRichBolt {

  private static final long serialVersionUID = 1L;

  /** The stream name components use for dead letters. */
  public static final String STREAM = "deadletter";

  /** A dead letter as a tuple: plain strings and a Long, so that Kryo needs no registration. */
  public static final Fields FIELDS = new Fields("reason", "detail", "raw", "time");

  private transient OutputCollector collector;
  private transient RecrawlPublisher publisher;
  private transient Map<RecrawlPublisher.Delivery, Counter> counters;

  /** The tuple values of a dead letter, in {@link #FIELDS} order. */
  public static List<Object> values(DeadLetter d) {
    return List.of(d.reason(), d.detail(), d.raw(), d.time());
  }

  @Override
  public void prepare(
      Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
    CrawlerSettings settings = CrawlerSettings.fromConf(conf);
    this.collector = collector;
    this.publisher =
        new RecrawlPublisher(
            settings,
            new StatusEvents(settings, List.of()),
            RecrawlPublisher.createProducer(settings),
            Clock.systemUTC());
    this.counters = KafkaStatusUpdaterBolt.counters(context, "recrawl.deadletters.");
  }

  @Override
  public void execute(Tuple t) {
    DeadLetter d =
        DeadLetter.of(
            t.getStringByField("raw"),
            t.getStringByField("reason"),
            t.getStringByField("detail"),
            t.getLongByField("time"));
    publisher.publishDeadLetter(
        d,
        (delivery, error) ->
            KafkaStatusUpdaterBolt.settle(
                collector, t, counters, delivery, error, "dead letter " + d.reason()));
  }

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {
    // emits nothing
  }

  @Override
  public void cleanup() {
    if (publisher != null) {
      publisher.close();
    }
  }
}
