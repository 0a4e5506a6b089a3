package io.recrawl.frontier;

import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.CrawlRequestCodec;
import io.recrawl.wire.Parsed;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the job's crawl requests from {@code crawl.requests} into the {@link ReadyQueues}, on a
 * thread of its own. It reads {@code read_committed}, as a crawler's spout does, so with the job's
 * exactly-once output a request is handed out only once its checkpoint has committed.
 */
final class RequestFeed implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RequestFeed.class);

  private final KafkaConsumer<String, String> consumer;
  private final ReadyQueues queues;
  private final Thread thread;
  private final AtomicLong refused = new AtomicLong();
  private volatile boolean running = true;

  RequestFeed(String bootstrap, String topic, String groupId, ReadyQueues queues) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, "recrawl-frontier-feed");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, true);
    p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    this.consumer = new KafkaConsumer<>(p);
    this.queues = queues;
    consumer.subscribe(List.of(topic));
    this.thread = new Thread(this::run, "recrawl-frontier-requests");
    thread.setDaemon(true);
    thread.start();
  }

  /** Requests on the topic that the codec refused (logged, not handed out). */
  long refused() {
    return refused.get();
  }

  private void run() {
    try {
      while (running) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
          Parsed<CrawlRequest> parsed =
              CrawlRequestCodec.parse(r.value(), System.currentTimeMillis());
          if (!parsed.ok()) {
            refused.incrementAndGet();
            LOG.warn("crawl request refused ({}): {}", parsed.deadLetter().reason(), r.value());
            continue;
          }
          CrawlRequest req = parsed.value();
          if (LOG.isDebugEnabled()) {
            long now = System.currentTimeMillis();
            LOG.debug(
                "request {}: {} ms after its release, {} ms after Kafka's timestamp",
                req.url(),
                now - req.time(),
                now - r.timestamp());
          }
          String crawl = crawlOf(req.metadata());
          queues.add(crawl, req.host(), info(req, crawl));
        }
      }
    } catch (WakeupException stopping) {
      // close() asked it to stop
    } catch (RuntimeException e) {
      LOG.error("reading crawl requests failed; GetURLs gets nothing new from this instance", e);
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  static String crawlOf(Map<String, List<String>> metadata) {
    List<String> v = metadata.get(CrawlIds.KEY);
    return v == null || v.isEmpty() ? CrawlIds.DEFAULT : CrawlIds.normalise(v.get(0));
  }

  /** The request as URL Frontier's URLInfo; recrawl's own carrier keys are not the client's. */
  static URLInfo info(CrawlRequest req, String crawl) {
    URLInfo.Builder b = URLInfo.newBuilder().setUrl(req.url()).setKey(req.host()).setCrawlID(crawl);
    for (Map.Entry<String, List<String>> e : req.metadata().entrySet()) {
      if (e.getKey().equals(CrawlIds.KEY) || e.getKey().equals(ItemMapping.REFETCH_DATE_KEY)) {
        continue;
      }
      b.putMetadata(e.getKey(), StringList.newBuilder().addAllValues(e.getValue()).build());
    }
    return b.build();
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    consumer.wakeup();
    thread.join(10_000);
  }
}
