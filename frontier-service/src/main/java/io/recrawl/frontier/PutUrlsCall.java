package io.recrawl.frontier;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One PutURLs stream. Each item is acknowledged once: OK when Kafka has its status event, SKIPPED
 * when the job's codec refuses it (never worth resending), FAIL when the write failed (resend it).
 * Flow control: the call asks gRPC for one more item each time an ack goes out, so at most {@code
 * maxInFlight} items per stream wait for Kafka and a fast client is held back by HTTP/2, not
 * buffered.
 */
final class PutUrlsCall implements StreamObserver<URLItem> {

  private static final Logger LOG = LoggerFactory.getLogger(PutUrlsCall.class);

  private final ServerCallStreamObserver<AckMessage> acks;
  private final ItemMapping mapping;
  private final TopicWriter writer;
  private final String statusTopic;
  private final ReadyQueues queues;
  private final FrontierCounters counters;
  private final AtomicInteger pending = new AtomicInteger();
  private volatile boolean inputDone;
  private boolean finished;

  PutUrlsCall(
      StreamObserver<AckMessage> acks,
      int maxInFlight,
      ItemMapping mapping,
      TopicWriter writer,
      String statusTopic,
      ReadyQueues queues,
      FrontierCounters counters) {
    this.acks = (ServerCallStreamObserver<AckMessage>) acks;
    this.mapping = mapping;
    this.writer = writer;
    this.statusTopic = statusTopic;
    this.queues = queues;
    this.counters = counters;
    this.acks.disableAutoRequest();
    this.acks.request(maxInFlight);
  }

  @Override
  public void onNext(URLItem item) {
    pending.incrementAndGet();
    String id = ackId(item);
    ItemMapping.Mapped m = mapping.map(item, System.currentTimeMillis());
    if (!m.ok()) {
      counters.skipped(m.refused().reason());
      LOG.info("PutURLs item {} skipped ({}): {}", id, m.refused().reason(), m.refused().detail());
      ack(id, AckMessage.Status.SKIPPED);
      return;
    }
    queues.noteCrawl(m.crawlId());
    writer
        .write(statusTopic, m.event().host(), m.json())
        .whenComplete(
            (ok, error) -> {
              if (error == null) {
                if (item.hasKnown()) {
                  queues.updated(m.crawlId(), m.event().url());
                }
                counters.ok();
                ack(id, AckMessage.Status.OK);
              } else {
                counters.failed();
                LOG.warn("PutURLs item {} failed, may be resent: {}", id, error.toString());
                ack(id, AckMessage.Status.FAIL);
              }
            });
  }

  /** The client's ID, or the URL when it set none. */
  static String ackId(URLItem item) {
    if (!item.getID().isEmpty()) {
      return item.getID();
    }
    return item.hasKnown()
        ? item.getKnown().getInfo().getUrl()
        : item.getDiscovered().getInfo().getUrl();
  }

  private void ack(String id, AckMessage.Status status) {
    synchronized (this) {
      if (finished) {
        return;
      }
      try {
        acks.onNext(AckMessage.newBuilder().setID(id).setStatus(status).build());
        acks.request(1);
      } catch (RuntimeException cancelled) {
        finished = true;
        return;
      }
    }
    if (pending.decrementAndGet() == 0 && inputDone) {
      finish(null);
    }
  }

  @Override
  public void onError(Throwable t) {
    // The client went away: what it had sent is written or failed; nothing more to acknowledge.
    synchronized (this) {
      finished = true;
    }
  }

  @Override
  public void onCompleted() {
    inputDone = true;
    if (pending.get() == 0) {
      finish(null);
    }
  }

  private synchronized void finish(Throwable error) {
    if (finished) {
      return;
    }
    finished = true;
    if (error == null) {
      acks.onCompleted();
    } else {
      acks.onError(error);
    }
  }
}
