package io.recrawl.crawler;

import com.codahale.metrics.Counter;
import com.digitalpebble.stormcrawler.Constants;
import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.persistence.Status;
import com.digitalpebble.stormcrawler.util.ConfUtils;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * StormCrawler's status updater for the recrawl scheduler: publishes every tuple of the {@code
 * status} stream to Kafka as a wire-format status event, keyed by host, and acks the tuple only
 * once Kafka has the record (a failed send fails the tuple, so that Storm replays it).
 *
 * <p>A plain bolt rather than an {@code AbstractStatusUpdaterBolt}: that base class schedules (runs
 * a {@code Scheduler} whose next-fetch date would be thrown away), turns FETCH_ERROR into ERROR
 * after {@code max.fetch.errors} (the job counts errors itself), and filters the metadata through
 * {@code metadata.persist} before {@code store()}, which silently drops the change evidence
 * (signature, ETag, Last-Modified, status code) unless every deployment lists it. What it does that
 * still matters is kept: the DISCOVERED cache ({@code status.updater.use.cache}, {@code
 * status.updater.cache.spec}) and the {@code deletion} stream on ERROR.
 *
 * <p>The server's own limits travel with each fetch ({@link StatusEvents}): the status code (429,
 * 503) in {@code http_status}, the {@code Retry-After} header as {@code protocol.retry-after}, and
 * robots.txt's Crawl-delay as {@code robots.crawl.delay}, read from the robots rules the protocol
 * cached in this worker ({@link RobotsCrawlDelay}), since StormCrawler 2.4 puts it in no metadata.
 */
public class KafkaStatusUpdaterBolt extends BaseRichBolt {

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(KafkaStatusUpdaterBolt.class);

  private transient OutputCollector collector;
  private transient RecrawlPublisher publisher;
  private transient Map<RecrawlPublisher.Delivery, Counter> counters;

  @Override
  public void prepare(
      Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
    CrawlerSettings settings = CrawlerSettings.fromConf(conf);
    if (context.getThisTaskIndex() == 0) {
      CrawlerSettings.outlinkFilterWarning(conf).ifPresent(LOG::warn);
    }
    List<String> carried = new ArrayList<>(ConfUtils.loadListFromConf("metadata.transfer", conf));
    carried.addAll(ConfUtils.loadListFromConf("metadata.persist", conf));
    this.collector = collector;
    this.publisher =
        new RecrawlPublisher(
            settings,
            new StatusEvents(settings, carried, RobotsCrawlDelay::seconds),
            RecrawlPublisher.createProducer(settings),
            Clock.systemUTC());
    this.counters = counters(context, "recrawl.status.");
  }

  /** One counter per delivery outcome, e.g. {@code recrawl.status.sent}. */
  static Map<RecrawlPublisher.Delivery, Counter> counters(TopologyContext context, String prefix) {
    Map<RecrawlPublisher.Delivery, Counter> c = new EnumMap<>(RecrawlPublisher.Delivery.class);
    for (RecrawlPublisher.Delivery d : RecrawlPublisher.Delivery.values()) {
      c.put(d, context.registerCounter(prefix + d.name().toLowerCase(Locale.ROOT)));
    }
    return c;
  }

  @Override
  public void execute(Tuple tuple) {
    String url = tuple.getStringByField("url");
    Metadata metadata = (Metadata) tuple.getValueByField("metadata");
    Status status = (Status) tuple.getValueByField("status");
    // The event is built here, on the executor thread: in local mode bolts share Metadata
    // instances.
    publisher.publishStatus(
        url,
        status.name(),
        metadata.asMap(),
        (delivery, error) -> {
          if (status == Status.ERROR && delivery == RecrawlPublisher.Delivery.SENT) {
            synchronized (collector) {
              collector.emit(Constants.DELETION_STREAM_NAME, new Values(url, metadata));
            }
          }
          settle(collector, tuple, counters, delivery, error, "status of " + url);
        });
  }

  /**
   * Acks the tuple, or fails it for replay when Kafka does not have its record. Called from the
   * producer's thread: Storm's collector is used under its own lock, as KafkaBolt does.
   */
  static void settle(
      OutputCollector collector,
      Tuple tuple,
      Map<RecrawlPublisher.Delivery, Counter> counters,
      RecrawlPublisher.Delivery delivery,
      Exception error,
      String what) {
    synchronized (collector) {
      counters.get(delivery).inc();
      if (delivery == RecrawlPublisher.Delivery.FAILED) {
        LOG.warn("{} not sent, tuple failed for replay: {}", what, String.valueOf(error));
        collector.reportError(error);
        collector.fail(tuple);
      } else {
        collector.ack(tuple);
      }
    }
  }

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {
    // As AbstractStatusUpdaterBolt: indexers can remove pages that became ERROR.
    declarer.declareStream(Constants.DELETION_STREAM_NAME, new Fields("url", "metadata"));
  }

  @Override
  public void cleanup() {
    if (publisher != null) {
      publisher.close();
    }
  }
}
